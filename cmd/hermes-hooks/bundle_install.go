package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/bundle"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// signingKeys are the keys a bundle must be signed by: the managed
// config's trusted_bundle_keys when it lists any (a --pub outside them is
// refused: it cannot widen the admin's list), else the --pub keys.
func signingKeys(pubs []string) ([]bundle.PublicKey, error) {
	given, err := publicKeys(pubs)
	if err != nil {
		return nil, err
	}
	listed, path, err := trustedBundleKeys()
	if err != nil {
		return nil, err
	}
	if len(listed) == 0 {
		if len(given) == 0 {
			return nil, usageErr("pass --pub KEYFILE (or list the key in the managed config's trusted_bundle_keys:)", "no public key to verify the bundle with")
		}
		return given, nil
	}
	trusted, err := parseKeyList(listed, path)
	if err != nil {
		return nil, err
	}
	for _, k := range given {
		if !bundle.KeyListed(listed, k) {
			return nil, fmt.Errorf("--pub %s is not one of the trusted_bundle_keys of %s: only bundles signed by those install", bundle.KeyString(k), path)
		}
	}
	return trusted, nil
}

type bundleVerifyJSON struct {
	File     string        `json:"file"`
	Name     string        `json:"name"`
	Serial   bundle.Serial `json:"serial"` // 0: unversioned
	Verified bool          `json:"verified"`
	Signer   string        `json:"signer"`
	Files    []bundle.File `json:"files"`
}

func newBundleVerifyCmd(a *app) *cobra.Command {
	var pubs []string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "verify FILE [--pub PUBKEY]",
		Short: "Check a bundle's signature and every file against its manifest",
		Long: `Check that every file of FILE matches its manifest (digest, size, nothing
missing, nothing extra) and that the manifest is signed by one of the keys:
--pub (a .pub file or the key itself, repeatable), or the managed config's
trusted_bundle_keys:. Exits 1 when it does not verify.`,
		Example: `  hermes-hooks bundle verify corp-guards.tar.gz --pub corp.pub
  hermes-hooks bundle verify corp-guards.tar.gz --pub RWQ… --json`,
		Args: exactArgs(1, "exactly one bundle FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ar, signer, err := verifyFile(args[0], pubs)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.Out, bundleVerifyJSON{File: args[0], Name: ar.Manifest.Name, Serial: ar.Manifest.Serial, Verified: true, Signer: bundle.KeyString(signer), Files: ar.Manifest.Files})
			}
			fmt.Fprintf(a.Out, "%s: bundle %s%s, %d files, signed by %s: verified\n", args[0], ar.Manifest.Name, serialLabel(ar.Manifest), len(ar.Manifest.Files), bundle.KeyString(signer))
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&pubs, "pub", nil, "minisign public key (file or key text); repeatable")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON for scripts")
	return cmd
}

func verifyFile(path string, pubs []string) (*bundle.Archive, bundle.PublicKey, error) {
	keys, err := signingKeys(pubs)
	if err != nil {
		return nil, bundle.PublicKey{}, err
	}
	ar, err := readArchive(path)
	if err != nil {
		return nil, bundle.PublicKey{}, err
	}
	signer, err := bundle.Verify(ar, keys)
	if err != nil {
		return nil, bundle.PublicKey{}, fmt.Errorf("%s: %w", path, err)
	}
	return ar, signer, nil
}

func newBundleInstallCmd(a *app) *cobra.Command {
	var pubs []string
	var user, managed, replace, downgrade bool
	cmd := &cobra.Command{
		Use:   "install FILE [--user|--managed]",
		Short: "Verify a bundle and install it into the user or managed layer",
		Long: `Verify FILE (as 'bundle verify') and unpack it into $HERMES_HOME/bundles/NAME
(--user, the default) or the managed layer's bundles directory beside the
managed config (--managed). Its config.yaml's hooks then run from the unpacked
files/ directory, approved by the signature; an unpacked file changed later
refuses what the hook guards until the bundle is reinstalled. A bundle of the
same name signed by another key is not replaced without --replace.

A bundle of the installed one's name and signer replaces it only as an
upgrade: a lower serial, an unversioned bundle over a versioned one, or other
content under the installed serial is refused (an older bundle, however
validly signed, would bring back what a newer one fixed) unless
--allow-downgrade. Reinstalling the same bundle is no downgrade. A removed
bundle counts too: each layer keeps the highest serial it installed of each
name and signer (bundles/.serials), which remove does not lower and
--allow-downgrade lowers neither; while that file cannot be read, every
install into the layer is refused unless --allow-downgrade.`,
		Example: `  hermes-hooks bundle install corp-guards.tar.gz --pub corp.pub
  sudo hermes-hooks bundle install corp-guards.tar.gz --managed   # the key: one of the managed config's trusted_bundle_keys
  hermes-hooks bundle install corp-guards-serial-3.tar.gz --pub corp.pub --allow-downgrade   # roll back on purpose`,
		Args: exactArgs(1, "exactly one bundle FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if user && managed {
				return usageErr("choose one layer", "--user and --managed exclude each other")
			}
			root, err := bundleWriteRoot(a, managed)
			if err != nil {
				return err
			}
			ar, signer, err := verifyFile(args[0], pubs)
			if err != nil {
				return err
			}
			dir, err := bundle.Install(root, ar, signer, bundle.InstallOptions{Replace: replace, AllowDowngrade: downgrade, Warn: bundleWarn(a)})
			if err != nil {
				return err
			}
			fmt.Fprintf(a.Out, "installed bundle %s%s (%d files, signed by %s) into %s; its hooks are approved by the signature\n",
				ar.Manifest.Name, serialLabel(ar.Manifest), len(ar.Manifest.Files), bundle.KeyString(signer), dir)
			if ar.Manifest.Serial.Unversioned() {
				fmt.Fprintf(a.Err, "hermes-hooks: warning: bundle %s is unversioned (no serial): any other bundle of this name signed by the same key may replace it, an older one too; its signer can pack the next one with --serial\n", ar.Manifest.Name)
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&pubs, "pub", nil, "minisign public key (file or key text); repeatable")
	cmd.Flags().BoolVar(&user, "user", false, "install into $HERMES_HOME/bundles (the default)")
	cmd.Flags().BoolVar(&managed, "managed", false, "install into the managed layer (beside the managed config)")
	cmd.Flags().BoolVar(&replace, "replace", false, "replace an installed bundle of that name signed by another key")
	cmd.Flags().BoolVar(&downgrade, "allow-downgrade", false, "replace the installed bundle of that name and signer with a lower serial, an unversioned bundle, or other content under its serial")
	return cmd
}

// bundleWarn prints install's and remove's warnings (a path or a parse
// error may hold what a terminal would act on: escaped).
func bundleWarn(a *app) func(string) {
	return func(msg string) { fmt.Fprintf(a.Err, "hermes-hooks: warning: %s\n", show(msg)) }
}

// bundleWriteRoot is bundleRoot for install and remove: the managed
// layer's must be root's alone before root writes in it.
func bundleWriteRoot(a *app, managed bool) (string, error) {
	root, err := bundleRoot(a, managed)
	if err == nil && managed {
		err = hookconfig.CheckManagedBundleDir(root)
	}
	return root, err
}

// bundleRoot is the chosen layer's bundles directory.
func bundleRoot(a *app, managed bool) (string, error) {
	if managed {
		// Beside the managed config HERMES_HOOKS_MANAGED_CONFIG names
		// (tests, a staged layer), else the system's.
		p := hookconfig.ManagedPaths()
		return hookconfig.ManagedBundleDir(p[len(p)-1]), nil
	}
	h, err := a.Home()
	if err != nil {
		return "", err
	}
	return bundle.UserDir(h), nil
}

type bundleListJSON struct {
	Layer   string        `json:"layer"`
	Name    string        `json:"name"`
	Dir     string        `json:"dir"`
	Signer  string        `json:"signer"`
	Serial  bundle.Serial `json:"serial"` // 0: unversioned
	Files   int           `json:"files"`
	Intact  bool          `json:"intact"`
	Changed []string      `json:"changed"`
	Error   string        `json:"error,omitempty"`
}

func newBundleListCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List installed bundles (managed layer first) and whether their files are intact",
		Example: `  hermes-hooks bundle list
  hermes-hooks bundle list --json | jq '.[] | select(.intact | not)'`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			rows := []bundleListJSON{}
			for _, layer := range []bool{true, false} {
				root, err := bundleRoot(a, layer)
				if err != nil {
					return err
				}
				name := map[bool]string{true: "managed", false: "user"}[layer]
				list, errs := bundle.List(root)
				for _, b := range list {
					changed := changedFiles(b)
					rows = append(rows, bundleListJSON{Layer: name, Name: b.Name, Dir: b.Dir, Signer: b.Signer, Serial: b.Serial, Files: b.Files, Intact: len(changed) == 0, Changed: changed})
				}
				for _, e := range errs {
					rows = append(rows, bundleListJSON{Layer: name, Error: e.Error(), Changed: []string{}})
				}
			}
			if asJSON {
				return writeJSON(a.Out, rows)
			}
			if len(rows) == 0 {
				fmt.Fprintln(a.Out, "no bundles installed")
			}
			for _, r := range rows {
				switch {
				case r.Error != "":
					fmt.Fprintf(a.Out, "%s  ✗ %s\n", r.Layer, show(r.Error))
				case r.Intact:
					fmt.Fprintf(a.Out, "%s  %s  %s  %d files, signed by %s  ✓ intact\n", r.Layer, r.Name, listSerial(r.Serial), r.Files, r.Signer)
				default:
					fmt.Fprintf(a.Out, "%s  %s  %s  %d files, signed by %s  ✗ changed since install: %s\n", r.Layer, r.Name, listSerial(r.Serial), r.Files, r.Signer, show(fmt.Sprint(r.Changed)))
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON for scripts")
	return cmd
}

// listSerial is list's serial column: "serial N", or "unversioned" for a
// bundle without one (which any bundle of its name and signer may replace).
func listSerial(s bundle.Serial) string {
	if s.Unversioned() {
		return s.String()
	}
	return "serial " + s.String()
}

// changedFiles lists the files of b whose content no longer matches its
// manifest (or that are gone), and files added beside them.
func changedFiles(b *bundle.Installed) []string {
	changed := []string{}
	files := bundle.FilesDir(b.Dir)
	seen := map[string]bool{}
	for _, f := range b.Manifest.Files {
		seen[f.Path] = true
		data, err := fsutil.ReadRegular(filepath.Join(files, filepath.FromSlash(f.Path)), files, bundle.MaxFileBytes)
		if err != nil || bundle.Digest(data) != f.SHA256 {
			changed = append(changed, f.Path)
		}
	}
	_ = filepath.WalkDir(files, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if rel, rerr := filepath.Rel(files, p); rerr == nil && !seen[filepath.ToSlash(rel)] {
				changed = append(changed, filepath.ToSlash(rel)+" (added)")
			}
		}
		return nil
	})
	return changed
}

func newBundleRemoveCmd(a *app) *cobra.Command {
	var managed bool
	cmd := &cobra.Command{
		Use:   "remove NAME [--managed]",
		Short: "Remove an installed bundle (its hooks stop running)",
		Long: `Remove the bundle NAME from the user layer (or --managed). Its serial stays
the layer's mark (bundles/.serials): an older bundle of that name and signer
installs again only with 'bundle install --allow-downgrade'.`,
		Example: `  hermes-hooks bundle remove corp-guards
  sudo hermes-hooks bundle remove corp-guards --managed`,
		Args: exactArgs(1, "exactly one bundle NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, err := bundleWriteRoot(a, managed)
			if err != nil {
				return err
			}
			kept, err := bundle.Remove(root, args[0], bundleWarn(a))
			if err != nil {
				return err
			}
			fmt.Fprintf(a.Out, "removed bundle %s from %s\n", args[0], root)
			if !kept.Unversioned() {
				// Said, so that a remove is not mistaken for the way back
				// to an older bundle.
				fmt.Fprintf(a.Out, "serial %s, the highest of %s installed here, stays this layer's mark (in %s): an older one by the same signer installs again only with --allow-downgrade\n",
					kept, args[0], filepath.Join(root, bundle.MarksFile))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&managed, "managed", false, "remove from the managed layer")
	return cmd
}
