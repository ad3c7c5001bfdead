package bundle

import (
	"errors"
	"fmt"
)

// InstallOptions are install's deliberate overrides; each refusal they
// lift stands unless its option is set.
type InstallOptions struct {
	// Replace lets a bundle signed by another key replace the installed
	// one of that name. Serials are not compared then: each signer counts
	// its own.
	Replace bool
	// AllowDowngrade lets a bundle of the installed one's signer replace
	// it though it is no upgrade (checkUpgrade): a rollback on purpose.
	AllowDowngrade bool
}

// ErrDowngrade refuses a bundle that is no upgrade of the installed one of
// its name and signer.
var ErrDowngrade = errors.New("not an upgrade of the installed bundle")

// checkUpgrade decides whether the offered manifest (next) may replace the
// installed one (old) of the same name and signer. A signer's bundles are
// ordered by serial, so whoever can hand someone a bundle could hand them
// an older one, validly signed, whose guard has the hole a later one fixed:
//
//   - a lower serial is refused;
//   - an unversioned bundle over a versioned one is refused (it is older
//     than serials, or its signer left the serial out: either way nothing
//     says it is newer);
//   - the installed serial with other content is refused: a serial names
//     one content, so one of the two is not what its serial says;
//   - the same content (a reinstall, how drift is repaired), a higher
//     serial, and anything over an unversioned bundle install. Two
//     unversioned bundles cannot be ordered: they replace each other as
//     before serials, the gap docs/bundles.md tells signers to close.
func checkUpgrade(old, next *Manifest) error {
	const how = "pass --allow-downgrade to install it on purpose"
	switch {
	case old.Serial.Unversioned():
		return nil
	case next.Serial.Unversioned():
		return fmt.Errorf("bundle %s is unversioned (no serial) and the installed one has serial %s: %w; %s",
			next.Name, old.Serial, ErrDowngrade, how)
	case next.Serial < old.Serial:
		return fmt.Errorf("bundle %s serial %s is lower than the installed serial %s: %w (a downgrade); %s",
			next.Name, next.Serial, old.Serial, ErrDowngrade, how)
	case next.Serial == old.Serial:
		was, is := Digest(old.Encode()), Digest(next.Encode())
		if was == is {
			return nil
		}
		return fmt.Errorf("bundle %s has the installed serial %s but other content (manifest sha256 %.12s…, installed %.12s…): %w: a serial names one content, so a new one needs a higher serial; %s",
			next.Name, next.Serial, is, was, ErrDowngrade, how)
	}
	return nil
}
