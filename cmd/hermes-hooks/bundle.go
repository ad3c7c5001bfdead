package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/bundle"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// KeyPasswordEnv holds the password of an encrypted secret key (one made
// by `minisign -G`); keys from `bundle keygen` are not encrypted.
const keyPasswordEnv = "HERMES_HOOKS_KEY_PASSWORD"

func newBundleCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bundle",
		Short: "Pack, sign, verify and install signed hook bundles",
		Long: `A bundle is one file holding hooks (scripts), rules and a config fragment
(config.yaml), with a manifest of every file's SHA-256 digest and mode, signed
with a minisign (ed25519) key. An installed bundle's hooks are approved by its
signature: no 'hermes-hooks approve' is needed, and any later change to an
unpacked file is drift that refuses what the hook guards, naming the file.

When the managed config lists trusted_bundle_keys:, only bundles signed by
one of those keys install.`,
		Example: `  hermes-hooks bundle keygen -o corp
  hermes-hooks bundle pack ./corp-guards --serial 1 -o corp-guards.tar.gz
  hermes-hooks bundle sign corp-guards.tar.gz --key corp.key
  hermes-hooks bundle verify corp-guards.tar.gz --pub corp.pub
  hermes-hooks bundle install corp-guards.tar.gz --pub corp.pub
  hermes-hooks bundle list --json`,
		Args: exactArgs(0, "a subcommand: pack, keygen, sign, verify, install, list or remove"),
		RunE: usageOnly(a),
	}
	cmd.AddCommand(newBundlePackCmd(a), newBundleKeygenCmd(a), newBundleSignCmd(a), newBundleVerifyCmd(a),
		newBundleInstallCmd(a), newBundleListCmd(a), newBundleRemoveCmd(a))
	return cmd
}

func newBundlePackCmd(a *app) *cobra.Command {
	var out, name, serialText string
	var force bool
	cmd := &cobra.Command{
		Use:   "pack DIR [--serial N]",
		Short: "Pack a directory (config.yaml, hooks, rules) into an unsigned bundle",
		Long: `Pack every regular file under DIR into one bundle file, with a manifest of each
file's SHA-256 digest, size and mode. DIR must hold config.yaml, the config
fragment whose hooks run from the unpacked directory (write their commands
relative to it: ./hooks/guard.sh). Symbolic links, devices and FIFOs are
refused, as are paths with '..', backslashes or colons.

--serial N is the bundle's version (a whole number, 1 or more), signed with
the manifest: raise it with every bundle of that name you sign. Install then
refuses a bundle whose serial is lower than the installed one's (an older
bundle would bring back what a newer one fixed), an unversioned bundle over a
versioned one, and other content under the installed serial.

The bundle file's directory is made if it is not there. A signed bundle
already at that path is not replaced (its signature would be lost with it)
unless --force.`,
		Example: `  hermes-hooks bundle pack ./corp-guards --serial 1
  hermes-hooks bundle pack ./corp-guards --name corp-guards --serial 202612031405 -o dist/corp-guards.tar.gz`,
		Args: exactArgs(1, "exactly one DIR"),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			if name == "" {
				abs, err := filepath.Abs(dir)
				if err != nil {
					return err
				}
				name = strings.ToLower(filepath.Base(abs))
			}
			if err := bundle.CheckName(name); err != nil {
				return usageErr("name it with --name", "%v", err)
			}
			var serial bundle.Serial
			if cmd.Flags().Changed("serial") {
				var err error
				if serial, err = bundle.ParseSerial(serialText); err != nil {
					return usageErr("raise --serial with every bundle of this name you sign (leave it out for an unversioned bundle)", "--serial: %v", err)
				}
			}
			if out == "" {
				out = name + ".tar.gz"
			}
			// A DIR that is not there is said as such, not as the walk's
			// "lstat DIR: …".
			if fi, err := os.Stat(dir); err != nil {
				return fileErr(dir, err)
			} else if !fi.IsDir() {
				return fmt.Errorf("%s: not a directory (bundle pack takes the directory holding config.yaml)", dir)
			}
			ar, err := bundle.Pack(dir, name, serial)
			if err != nil {
				return err
			}
			if !force {
				if err := notSigned(out); err != nil {
					return err
				}
			}
			if err := writeArchive(out, ar); err != nil {
				return err
			}
			fmt.Fprintf(a.Out, "packed bundle %s%s (%d files) into %s; sign it: hermes-hooks bundle sign %s --key KEY\n", name, serialLabel(ar.Manifest), len(ar.Manifest.Files), out, out)
			if serial.Unversioned() {
				fmt.Fprintln(a.Err, "hermes-hooks: warning: no --serial: an unversioned bundle; any other bundle of this name signed by the same key may replace it once installed, an older one too")
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "bundle file to write (default NAME.tar.gz)")
	cmd.Flags().StringVar(&name, "name", "", "bundle name (default: DIR's name)")
	cmd.Flags().StringVar(&serialText, "serial", "", "the bundle's version, 1 or more; raise it with every bundle of this name (default: unversioned)")
	cmd.Flags().BoolVar(&force, "force", false, "replace a signed bundle at the output path")
	return cmd
}

func newBundleKeygenCmd(a *app) *cobra.Command {
	var out string
	var force bool
	cmd := &cobra.Command{
		Use:   "keygen",
		Short: "Make a minisign key pair for signing bundles",
		Long: `Write PREFIX.pub (the public key, for --pub and trusted_bundle_keys:) and
PREFIX.key (the secret key, mode 0600, not encrypted: keep it offline). A
password-protected key made by 'minisign -G' works too: give its password in
` + keyPasswordEnv + `.`,
		Example: `  hermes-hooks bundle keygen -o corp
  hermes-hooks bundle keygen -o /secure/corp --force`,
		Args: exactArgs(0, "no arguments (the prefix is -o)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			pub, priv, err := bundle.GenerateKey()
			if err != nil {
				return err
			}
			for _, p := range []string{out + ".key", out + ".pub"} {
				if _, err := os.Lstat(p); err == nil && !force {
					return withHint(fmt.Errorf("%s exists; not overwritten", p), "pass --force to replace it")
				}
			}
			if err := fsutil.WriteAtomic(out+".key", priv, 0o600, ".key-*", nil); err != nil {
				return fmt.Errorf("%s: %w", out+".key", err)
			}
			if err := fsutil.WriteAtomic(out+".pub", pub, 0o644, ".pub-*", nil); err != nil {
				return fmt.Errorf("%s: %w", out+".pub", err)
			}
			k, _ := bundle.ParsePublicKey(pub)
			fmt.Fprintf(a.Out, "wrote %s.key (secret) and %s.pub; public key: %s\n", out, out, bundle.KeyString(k))
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "hermes-bundle", "prefix of the key files")
	cmd.Flags().BoolVar(&force, "force", false, "overwrite existing key files")
	return cmd
}

func newBundleSignCmd(a *app) *cobra.Command {
	var key, out string
	cmd := &cobra.Command{
		Use:   "sign FILE --key SECRETKEY",
		Short: "Sign a bundle's manifest (which covers every file)",
		Long: `Check FILE against its own manifest, then sign the manifest with the secret key
and write the bundle back (or to -o) with the signature inside. An encrypted
key's password is read from ` + keyPasswordEnv + `.`,
		Example: `  hermes-hooks bundle sign corp-guards.tar.gz --key corp.key
  ` + keyPasswordEnv + `=… hermes-hooks bundle sign corp-guards.tar.gz --key minisign.key -o signed.tar.gz`,
		Args: exactArgs(1, "exactly one bundle FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if key == "" {
				return usageErr("hermes-hooks bundle sign FILE --key SECRETKEY", "--key is required")
			}
			ar, err := readArchive(args[0])
			if err != nil {
				return err
			}
			text, err := fsutil.ReadRegular(key, "", bundle.MaxSigBytes)
			if err != nil {
				return fileErr(key, err)
			}
			sk, err := bundle.ParsePrivateKey(text, os.Getenv(keyPasswordEnv))
			if err != nil {
				return fmt.Errorf("%s: %w", key, err)
			}
			bundle.Sign(ar, sk)
			if out == "" {
				out = args[0]
			}
			if err := writeArchive(out, ar); err != nil {
				return err
			}
			fmt.Fprintf(a.Out, "signed bundle %s%s (%d files) with key %X into %s\n", ar.Manifest.Name, serialLabel(ar.Manifest), len(ar.Manifest.Files), sk.ID(), out)
			return nil
		},
	}
	cmd.Flags().StringVar(&key, "key", "", "minisign secret key file")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the signed bundle here (default: FILE itself)")
	return cmd
}

// serialLabel is " serial N" after a bundle's name, or nothing for an
// unversioned bundle (whose lines read as they did before serials).
func serialLabel(m *bundle.Manifest) string {
	if m.Serial.Unversioned() {
		return ""
	}
	return " serial " + m.Serial.String()
}

// readArchive reads and checks a bundle file (not its signature).
func readArchive(path string) (*bundle.Archive, error) {
	f, err := fsutil.OpenNoBlock(path)
	if err != nil {
		return nil, fileErr(path, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, fsutil.ErrNotRegular)
	}
	ar, err := bundle.Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ar, nil
}

// notSigned refuses to pack over a signed bundle: packing again after a
// sign (to bump the serial, say) would otherwise drop the signature without
// a word, and the next install would refuse the bundle as unsigned. A
// path that is not a bundle, or not there, is fine.
func notSigned(path string) error {
	f, err := fsutil.OpenNoBlock(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	if ar, err := bundle.Read(f); err == nil && len(ar.Signature) > 0 {
		return withHint(fmt.Errorf("%s is a signed bundle (%s%s); not replaced", path, ar.Manifest.Name, serialLabel(ar.Manifest)),
			"write the new bundle elsewhere with -o, or pass --force to replace it (then sign it again)")
	}
	return nil
}

// writeArchive writes a bundle file, making its directory first (pack -o
// dist/x.tar.gz in a fresh checkout).
func writeArchive(path string, ar *bundle.Archive) error {
	data, err := ar.Bytes()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fileErr(filepath.Dir(path), err)
	}
	if err := fsutil.WriteAtomic(path, data, 0o644, ".bundle-*", nil); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// publicKeys reads --pub values: a key file, or the key itself.
func publicKeys(vals []string) ([]bundle.PublicKey, error) {
	var keys []bundle.PublicKey
	for _, v := range vals {
		text, err := fsutil.ReadRegular(v, "", bundle.MaxSigBytes)
		missing := errors.Is(err, fs.ErrNotExist)
		if missing {
			text, err = []byte(v), nil
		}
		if err != nil {
			return nil, fileErr(v, err)
		}
		k, err := bundle.ParsePublicKey(text)
		if err != nil && missing {
			// No such file, and no key either: most likely a mistyped
			// file name, which the key parser's base64 complaint hides.
			return nil, fmt.Errorf("--pub %s: no such file, and not a public key (RWQ…) either", v)
		}
		if err != nil {
			return nil, fmt.Errorf("--pub %s: %w", v, err)
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// parseKeyList reads trusted_bundle_keys' entries.
func parseKeyList(vals []string, where string) ([]bundle.PublicKey, error) {
	var keys []bundle.PublicKey
	for _, v := range vals {
		k, err := bundle.ParsePublicKey(bytes.TrimSpace([]byte(v)))
		if err != nil {
			return nil, fmt.Errorf("%s: trusted_bundle_keys: %q: %w", where, v, err)
		}
		keys = append(keys, k)
	}
	return keys, nil
}
