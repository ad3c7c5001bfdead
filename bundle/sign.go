package bundle

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"

	"aead.dev/minisign"
)

// Keys and signatures are minisign's (ed25519), through aead.dev/minisign:
// a key made by `minisign -G` works here and a bundle's signature can be
// checked with `minisign -V -m manifest.json` too.

// PublicKey is a minisign public key.
type PublicKey = minisign.PublicKey

// ParsePublicKey reads a public key: a minisign .pub file's text (its
// comment line, then the key) or the key alone ("RWQ…").
func ParsePublicKey(text []byte) (PublicKey, error) {
	var k PublicKey
	if err := k.UnmarshalText(bytes.TrimSpace(text)); err != nil {
		return PublicKey{}, fmt.Errorf("not a minisign public key: %w", err)
	}
	return k, nil
}

// KeyListed reports whether k is one of listed, trusted_bundle_keys'
// strings; an entry that is no key lists none.
func KeyListed(listed []string, k PublicKey) bool {
	for _, l := range listed {
		if t, err := ParsePublicKey([]byte(l)); err == nil && t.Equal(k) {
			return true
		}
	}
	return false
}

// KeyString is the one-line form of a public key (what
// trusted_bundle_keys lists).
func KeyString(k PublicKey) string { return k.String() }

// ParsePrivateKey reads a minisign secret key file's text; an encrypted
// one needs its password.
func ParsePrivateKey(text []byte, password string) (minisign.PrivateKey, error) {
	if minisign.IsEncrypted(text) {
		if password == "" {
			return minisign.PrivateKey{}, errors.New("the secret key is encrypted: give its password")
		}
		k, err := minisign.DecryptKey(password, text)
		if err != nil {
			return minisign.PrivateKey{}, fmt.Errorf("decrypt the secret key: %w", err)
		}
		return k, nil
	}
	var k minisign.PrivateKey
	if err := k.UnmarshalText(bytes.TrimSpace(text)); err != nil {
		return minisign.PrivateKey{}, fmt.Errorf("not a minisign secret key: %w", err)
	}
	return k, nil
}

// GenerateKey makes a key pair: the public key file's text and the
// (unencrypted) secret key file's text.
func GenerateKey() (pub, priv []byte, err error) {
	pk, sk, err := minisign.GenerateKey(rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	pub, _ = pk.MarshalText()
	priv, err = sk.MarshalText()
	return append(pub, '\n'), append(priv, '\n'), err
}

// Sign signs a's manifest with sk, replacing any signature. The trusted
// comment (signed too) names the bundle and its serial, so that
// `minisign -V` shows which version it checked; install reads the serial
// from the manifest only.
func Sign(a *Archive, sk minisign.PrivateKey) {
	comment := "hermes-hooks bundle " + a.Manifest.Name
	if !a.Manifest.Serial.Unversioned() {
		comment += " serial " + a.Manifest.Serial.String()
	}
	a.Signature = minisign.SignWithComments(sk, a.ManifestBytes, comment, "signature from hermes-hooks bundle sign")
}

// ErrUnsigned is Verify's error for an archive without a signature.
var ErrUnsigned = errors.New("bundle is not signed (run 'hermes-hooks bundle sign')")

// Verify checks a's signature against keys and returns the key that made
// it. The archive's files were already checked against its manifest by
// Read, so a verified archive holds exactly what its signer packed.
func Verify(a *Archive, keys []PublicKey) (PublicKey, error) {
	if a.Signature == nil {
		return PublicKey{}, ErrUnsigned
	}
	if len(keys) == 0 {
		return PublicKey{}, errors.New("no public key to verify the bundle with")
	}
	for _, k := range keys {
		if minisign.Verify(k, a.ManifestBytes, a.Signature) {
			return k, nil
		}
	}
	var s minisign.Signature
	if err := s.UnmarshalText(a.Signature); err != nil {
		return PublicKey{}, fmt.Errorf("bundle signature unreadable: %w", err)
	}
	ids := make([]string, len(keys))
	for i, k := range keys {
		ids[i] = fmt.Sprintf("%X", k.ID())
	}
	return PublicKey{}, fmt.Errorf("bundle signature (key id %X) does not verify with any of the keys given (%s): signed by another key, or the manifest was changed after signing",
		s.KeyID, strings.Join(ids, ", "))
}
