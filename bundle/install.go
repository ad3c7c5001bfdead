package bundle

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"aead.dev/minisign"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// An installed bundle is a directory ROOT/NAME (ROOT: a layer's bundles
// directory) holding the verified manifest.json, its signature, the key
// that verified it (signer.pub) and files/, the unpacked files. Nothing of
// the archive lands outside files/: its paths were checked (CheckPath) and
// each is created new under a fresh directory.
const (
	InstalledManifest = "manifest.json"
	InstalledSig      = "manifest.json.minisig"
	InstalledSigner   = "signer.pub"
	InstalledFiles    = "files"
)

// IndexFile, in a layer's bundles directory, lists the bundles installed
// there (name and manifest digest): rewritten by every install and remove,
// so that a running serve, which watches it, reloads when a bundle comes
// or goes.
const IndexFile = ".index"

// FilesDir is where an installed bundle's files are.
func FilesDir(dir string) string { return filepath.Join(dir, InstalledFiles) }

// Installed is one installed bundle.
type Installed struct {
	Name     string    `json:"name"`
	Dir      string    `json:"dir"`
	Signer   string    `json:"signer"`
	Key      PublicKey `json:"-"`      // the key Signer spells
	Serial   Serial    `json:"serial"` // 0: unversioned
	Files    int       `json:"files"`
	Manifest *Manifest `json:"-"`
}

// ErrOtherSigner refuses to replace an installed bundle with one of the
// same name signed by another key.
var ErrOtherSigner = errors.New("signed by another key than the installed bundle of that name")

// Install unpacks a verified archive (signed by signer) into root/NAME,
// replacing an installed bundle of that name only when the same key signed
// it (or opt.Replace) and it is an upgrade (checkUpgrade; or
// opt.AllowDowngrade) of the installed one and of the highest one of its
// name and signer ever installed in root (MarksFile), which a remove does
// not forget. All is decided under root's lock, against what is installed
// at that moment. An installed bundle that no longer reads (its
// signature fails) is replaced: its serial cannot be believed, and a
// reinstall is how it is repaired. The new directory is complete before it
// takes the old one's place, so a reader sees the old bundle or the new one.
func Install(root string, a *Archive, signer PublicKey, opt InstallOptions) (string, error) {
	name := a.Manifest.Name
	if err := mkdirAll(root); err != nil {
		return "", err
	}
	unlock, err := fsutil.Lock(filepath.Join(root, ".lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	dest := filepath.Join(root, name)
	marks, err := admit(root, dest, a.Manifest, KeyString(signer), opt)
	if err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(root, ".install-"+name+"-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := unpack(tmp, a, signer); err != nil {
		return "", err
	}
	// The mark is raised before the bundle takes its place: a crash in
	// between leaves the mark above what is installed, which refuses
	// more, never less.
	marks.raise(KeyString(signer), a.Manifest)
	if err := marks.write(); err != nil {
		return "", err
	}
	// os.MkdirTemp made it 0700: a managed bundle is read by every
	// user's dispatch, and one they cannot read refuses their tool calls.
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", err
	}
	if _, err := os.Lstat(dest); err == nil {
		aside, err := os.MkdirTemp(root, ".old-"+name+"-")
		if err != nil {
			return "", err
		}
		defer removeTree(aside)
		if err := os.Rename(dest, filepath.Join(aside, name)); err != nil {
			return "", err
		}
	}
	if err := os.Rename(tmp, dest); err != nil {
		return "", err
	}
	if err := writeIndex(root); err != nil {
		return "", err
	}
	return dest, fsutil.SyncDir(root)
}

// indexKeepsMarks is IndexFile's first line since layers keep serial
// marks: a layer whose index has it and whose MarksFile is missing lost
// its marks (readMarks), where one without it is from before marks.
const indexKeepsMarks = "# serial marks: " + MarksFile + "\n"

// writeIndex rewrites root's IndexFile from what is installed.
func writeIndex(root string) error {
	list, _ := List(root)
	var b strings.Builder
	b.WriteString(indexKeepsMarks)
	for _, in := range list {
		b.WriteString(in.Name + " " + Digest(in.Manifest.Encode()) + "\n")
	}
	return fsutil.WriteAtomic(filepath.Join(root, IndexFile), []byte(b.String()), 0o644, ".index-*", nil)
}

// unpack writes the archive into dir.
func unpack(dir string, a *Archive, signer PublicKey) error {
	pub, _ := signer.MarshalText()
	for name, data := range map[string][]byte{InstalledManifest: a.ManifestBytes, InstalledSig: a.Signature, InstalledSigner: append(pub, '\n')} {
		if err := create(filepath.Join(dir, name), data, 0o444); err != nil {
			return err
		}
	}
	files := FilesDir(dir)
	for _, f := range a.Manifest.Files {
		p := filepath.Join(files, filepath.FromSlash(f.Path))
		if err := mkdirAll(filepath.Dir(p)); err != nil {
			return err
		}
		mode := os.FileMode(0o444)
		if f.Exec() {
			mode = 0o555
		}
		if err := create(p, a.Files[f.Path], mode); err != nil {
			return err
		}
	}
	return nil
}

// mkdirAll is os.MkdirAll with each directory it makes 0755 whatever the
// umask (root's is often 077): a managed bundle's directories must be
// readable by every user whose dispatch loads it.
func mkdirAll(dir string) error {
	if fi, err := os.Stat(dir); err == nil {
		if !fi.IsDir() {
			return fmt.Errorf("%s: not a directory", dir)
		}
		return nil
	}
	if parent := filepath.Dir(dir); parent != dir {
		if err := mkdirAll(parent); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil
		}
		return err
	}
	return os.Chmod(dir, 0o755)
}

// create makes a new file (never one that exists, never through a link).
func create(path string, data []byte, mode os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	// Read-only: an edit needs a deliberate chmod first (and is drift).
	return os.Chmod(path, mode)
}

// ReadInstalled reads the installed bundle in dir: its manifest (which
// consent compares the files with) and the key that verified it.
func ReadInstalled(dir string) (*Installed, error) {
	data, err := fsutil.ReadRegular(filepath.Join(dir, InstalledManifest), dir, MaxManifestBytes)
	if err != nil {
		return nil, err
	}
	m, err := ParseManifest(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, InstalledManifest), err)
	}
	if m.Name != filepath.Base(dir) {
		return nil, fmt.Errorf("%s: the manifest names bundle %q", dir, m.Name)
	}
	// The signature is checked again on every read, not only at install:
	// what a bundle's hooks are approved by is a manifest its signer
	// signed, and who signed it is what trusted_bundle_keys is checked
	// against.
	key, err := installedSigner(dir, data)
	if err != nil {
		return nil, err
	}
	return &Installed{Name: m.Name, Dir: dir, Signer: KeyString(key), Key: key, Serial: m.Serial, Files: len(m.Files), Manifest: m}, nil
}

// installedSigner is the key in dir's signer.pub, once the signature
// beside the manifest (its bytes: manifest) verifies with it.
func installedSigner(dir string, manifest []byte) (PublicKey, error) {
	pub, err := fsutil.ReadRegular(filepath.Join(dir, InstalledSigner), dir, MaxSigBytes)
	if err != nil {
		return PublicKey{}, err
	}
	key, err := ParsePublicKey(pub)
	if err != nil {
		return PublicKey{}, fmt.Errorf("%s: %w", filepath.Join(dir, InstalledSigner), err)
	}
	sig, err := fsutil.ReadRegular(filepath.Join(dir, InstalledSig), dir, MaxSigBytes)
	if err != nil {
		return PublicKey{}, err
	}
	if !minisign.Verify(key, manifest, sig) {
		return PublicKey{}, fmt.Errorf("%s: the installed manifest's signature does not verify with the key it was installed with (%s): the manifest, its signature or the key changed after install; reinstall the bundle",
			dir, KeyString(key))
	}
	return key, nil
}

// List reads every bundle installed under root, by name; a directory that
// is not a readable bundle is an error of its own, not left out.
func List(root string) ([]*Installed, []error) {
	ents, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{err}
	}
	var out []*Installed
	var errs []error
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if e.Type()&fs.ModeSymlink != 0 {
			// The config loader refuses it (failing closed): say so here.
			errs = append(errs, fmt.Errorf("%s: a symbolic link, not a bundle directory; its hooks do not run and the calls they gate are refused", filepath.Join(root, e.Name())))
			continue
		}
		if !e.IsDir() {
			continue
		}
		b, err := ReadInstalled(filepath.Join(root, e.Name()))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, b)
	}
	slices.SortFunc(out, func(x, y *Installed) int { return strings.Compare(x.Name, y.Name) })
	return out, errs
}

// Remove deletes the bundle name installed under root. Its serial stays
// the layer's mark of its name and signer (MarksFile), written before the
// bundle goes (a remove that cannot keep it does not remove): it returns
// that mark (0: none, an unversioned bundle or one whose signature no
// longer verifies). An unreadable marks file is left as it is, which keeps
// refusing installs into the layer, and said through warn (may be nil).
func Remove(root, name string, warn func(string)) (Serial, error) {
	if err := CheckName(name); err != nil {
		return 0, err
	}
	dir := filepath.Join(root, name)
	if _, err := os.Lstat(dir); err != nil {
		return 0, fmt.Errorf("no bundle %s installed in %s", name, root)
	}
	unlock, err := fsutil.Lock(filepath.Join(root, ".lock"))
	if err != nil {
		return 0, err
	}
	defer unlock()
	var kept Serial
	m := readMarks(root)
	if m.unreadable != nil {
		if warn != nil {
			warn(fmt.Sprintf("%s cannot be read (%v), so the removed bundle's serial is not recorded in it; installs into this layer stay refused until one is made with --allow-downgrade", m.path, m.unreadable))
		}
	} else {
		m.raiseInstalled(root)
		if in, err := ReadInstalled(dir); err == nil {
			kept = m.byID[[2]string{in.Signer, in.Name}].Serial
		}
		if err := m.write(); err != nil {
			return 0, err
		}
	}
	aside, err := os.MkdirTemp(root, ".old-"+name+"-")
	if err != nil {
		return 0, err
	}
	defer removeTree(aside)
	if err := os.Rename(dir, filepath.Join(aside, name)); err != nil {
		return 0, err
	}
	return kept, writeIndex(root)
}

// removeTree removes a tree whose files were made read-only (on Windows a
// read-only file cannot be deleted).
func removeTree(dir string) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Type()&fs.ModeSymlink == 0 {
			_ = os.Chmod(p, 0o600)
		}
		return nil
	})
	_ = os.RemoveAll(dir)
}
