package bundle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// MarksFile, in a layer's bundles directory, is the layer's high-water
// marks: per signer and bundle name, the highest serial ever installed in
// that layer and the digest of its manifest. checkUpgrade compares an
// offered bundle with the one installed at that moment, and marks.check
// with the mark, by the same rule (upgradeRule); a mark is what
// still holds after `bundle remove`, which would otherwise forget the
// serial and let an older bundle, validly signed, install again (a
// remove-then-install rollback).
//
// It lives with the layer's state (HERMES_HOME's bundles directory, the
// managed layer's beside the managed config: root's alone, as the
// ownership rule holds that directory), never in a checkout. It is a
// dot-file, which the config loader and `bundle list` skip, and serve does
// not watch (only IndexFile): writing it reloads nothing.
//
// The identity is the signer's public key with the bundle's name. The name
// is inside the signed manifest, so nobody without the key can rename a
// bundle to dodge its mark; the key is there because each signer counts its
// own serials (a bundle of that name by another key is --replace's
// question). A key alone would not do: it would order a signer's unrelated
// bundles against one another.
const MarksFile = ".serials"

// maxMarksBytes bounds the marks file (about 5000 marks): it is read under
// the install lock, whole.
const maxMarksBytes = 1 << 20

// ErrBelowMark refuses a bundle older than one of its name and signer
// installed in the layer before (removed since, or still there).
var ErrBelowMark = errors.New("a rollback below this layer's serial mark")

// ErrMarksUnreadable refuses every install into a layer whose marks file
// cannot be read: what was installed there is unknown, and "nothing" is
// the one answer that would let a rollback through.
var ErrMarksUnreadable = errors.New("the layer's serial marks cannot be read")

// mark is one signer's highest serial of one bundle name in a layer.
type mark struct {
	Signer   string `json:"signer"`
	Name     string `json:"name"`
	Serial   Serial `json:"serial"`
	Manifest string `json:"manifest_sha256"` // Digest of the manifest installed with Serial
}

// marksDoc is the file's JSON.
type marksDoc struct {
	Marks []mark `json:"marks"`
}

// marks is a layer's marks as read under its lock. When the file exists
// but cannot be read as marks (unreadable), nothing is known of what was
// installed in the layer: unreadable says why, and every check refuses.
type marks struct {
	path       string
	byID       map[[2]string]mark
	unreadable error
	missing    bool // unreadable for being missing: nothing to move aside
	aside      bool // move the unreadable file aside before writing
	changed    bool
}

// readMarks reads root's marks. A missing file is no marks in a layer
// nothing was installed in or one from before marks (the installed
// bundles are raised into it next, see raiseInstalled), and unreadable
// where the layer's index says marks are kept (indexSaysMarksKept);
// anything else that is not a regular file of valid marks is unreadable,
// never read as none. The file is not followed through a symbolic link:
// it is the layer's own.
func readMarks(root string) *marks {
	m := &marks{path: filepath.Join(root, MarksFile), byID: map[[2]string]mark{}}
	fi, err := os.Lstat(m.path)
	if errors.Is(err, fs.ErrNotExist) {
		if err := indexSaysMarksKept(root); err != nil {
			m.unreadable, m.missing = err, true
		}
		// Written at the next install or remove, even with no mark in
		// it: from then on the index says marks are kept, and the file
		// missing is told from a layer that never had one.
		m.changed = true
		return m
	}
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		err = errors.New("a symbolic link")
	}
	var data []byte
	if err == nil {
		if data, err = fsutil.ReadRegular(m.path, root, maxMarksBytes); err != nil {
			err = fsutil.WithoutPath(m.path, err)
		}
	}
	if err == nil {
		err = m.parse(data)
	}
	if err != nil {
		m.byID, m.unreadable = map[[2]string]mark{}, err
	}
	return m
}

// indexSaysMarksKept is why a missing marks file is no fresh start: the
// layer's IndexFile was written by a hermes-hooks that keeps marks (so
// they were deleted), or cannot be read (so nothing says they were not).
// A layer with no index had nothing installed; one whose index lacks the
// line is from before marks: both start afresh (nil).
func indexSaysMarksKept(root string) error {
	p := filepath.Join(root, IndexFile)
	data, err := fsutil.ReadRegular(p, root, maxIndexBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("missing, and %s, which would say whether this layer kept marks, cannot be read: %v", p, fsutil.WithoutPath(p, err))
	case bytes.HasPrefix(data, []byte(indexKeepsMarks)):
		return fmt.Errorf("missing, though %s says this layer keeps its marks there: deleted", p)
	}
	return nil
}

// maxIndexBytes bounds the index read for indexSaysMarksKept: a line of
// at most about 140 bytes per bundle.
const maxIndexBytes = 4 << 20

// parse reads the file's bytes strictly: one JSON object, no unknown or
// repeated serial key, each mark a key, a bundle name, a serial and a
// digest, no identity twice.
func (m *marks) parse(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var doc marksDoc
	if err := dec.Decode(&doc); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the marks")
	}
	if doc.Marks == nil {
		return errors.New(`no "marks" list`)
	}
	for _, k := range doc.Marks {
		key, err := ParsePublicKey([]byte(k.Signer))
		switch {
		case err != nil || KeyString(key) != k.Signer:
			return fmt.Errorf("signer %q: not a public key", k.Signer)
		case CheckName(k.Name) != nil:
			return fmt.Errorf("bundle name %q: %v", k.Name, CheckName(k.Name))
		case k.Serial.Unversioned():
			return fmt.Errorf("bundle %s: no serial", k.Name)
		case !isDigest(k.Manifest):
			return fmt.Errorf("bundle %s: manifest_sha256 %q is no SHA-256 digest", k.Name, k.Manifest)
		}
		id := [2]string{k.Signer, k.Name}
		if _, dup := m.byID[id]; dup {
			return fmt.Errorf("bundle %s by %s: marked twice", k.Name, k.Signer)
		}
		m.byID[id] = k
	}
	return nil
}

func isDigest(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// unreadableError is the refusal while the marks cannot be read.
func (m *marks) unreadableError() error {
	return fmt.Errorf("%s, the highest serials installed in this layer, cannot be read (%v): nothing says which bundles are older than what was installed here, so none installs (%w); pass --allow-downgrade to install this one on purpose (%sthe marks then start again from the bundles installed now)",
		m.path, m.unreadable, ErrMarksUnreadable, m.asideNote())
}

// asideNote says where restart moves the unreadable file, if there is one.
func (m *marks) asideNote() string {
	if m.missing {
		return ""
	}
	return "the unreadable file is kept as " + m.path + ".corrupt and "
}

// check refuses next (signed by signer) when it is below the layer's mark
// of its name and signer: upgradeRule, the rule checkUpgrade applies to the
// installed bundle, applied to the highest one ever installed here and
// worded as a refusal by the mark (ErrBelowMark).
func (m *marks) check(signer string, next *Manifest) error {
	if m.unreadable != nil {
		return m.unreadableError()
	}
	k, ok := m.byID[[2]string{signer, next.Name}]
	if !ok {
		return nil
	}
	how := fmt.Sprintf("(%s: a removed bundle's serial still counts); pass --allow-downgrade to install it on purpose", m.path)
	switch why, digest := upgradeRule(k.Serial, k.Manifest, next); why {
	case unversionedOverVersioned:
		return fmt.Errorf("bundle %s is unversioned (no serial) and serial %s of it was installed in this layer before by the same signer: %w %s",
			next.Name, k.Serial, ErrBelowMark, how)
	case lowerSerial:
		return fmt.Errorf("bundle %s serial %s is lower than serial %s of it, installed in this layer before by the same signer: %w %s",
			next.Name, next.Serial, k.Serial, ErrBelowMark, how)
	case otherContent:
		return fmt.Errorf("bundle %s has serial %s but other content than the serial %s installed in this layer before (manifest sha256 %.12s…, then %.12s…), and a serial names one content: %w %s",
			next.Name, next.Serial, k.Serial, digest, k.Manifest, ErrBelowMark, how)
	}
	return nil
}

// below is the mark next stays under when installed on purpose (0: none).
func (m *marks) below(signer string, next *Manifest) Serial {
	if errors.Is(m.check(signer, next), ErrBelowMark) {
		return m.byID[[2]string{signer, next.Name}].Serial
	}
	return 0
}

// raise records man (signed by signer) as installed: its serial becomes
// the mark when it is higher. A mark is never lowered; an unversioned
// bundle marks nothing.
func (m *marks) raise(signer string, man *Manifest) {
	id := [2]string{signer, man.Name}
	if man.Serial.Unversioned() || m.byID[id].Serial >= man.Serial {
		return
	}
	m.byID[id] = mark{Signer: signer, Name: man.Name, Serial: man.Serial, Manifest: Digest(man.Encode())}
	m.changed = true
}

// raiseInstalled raises the marks with every bundle installed under root
// whose signature verifies (one that does not: its serial cannot be
// believed): a layer installed before marks existed gets them.
func (m *marks) raiseInstalled(root string) {
	list, _ := List(root)
	for _, in := range list {
		m.raise(in.Signer, in.Manifest)
	}
}

// restart gives up an unreadable marks file, only when an install was
// asked for on purpose (--allow-downgrade): write moves it aside
// (path.corrupt, replacing an earlier one) and starts new marks. It
// returns the warning to show.
func (m *marks) restart() string {
	warn := fmt.Sprintf("%s, the highest serials installed in this layer, cannot be read (%v): installed on purpose (--allow-downgrade), %sthe marks start again from the bundles installed now",
		m.path, m.unreadable, m.asideNote())
	m.unreadable, m.aside, m.changed = nil, true, true
	return warn
}

// encode is the file's bytes: the marks by name, then signer.
func (m *marks) encode() ([]byte, error) {
	doc := marksDoc{Marks: make([]mark, 0, len(m.byID))}
	for _, k := range m.byID {
		doc.Marks = append(doc.Marks, k)
	}
	slices.SortFunc(doc.Marks, func(x, y mark) int {
		if c := strings.Compare(x.Name, y.Name); c != 0 {
			return c
		}
		return strings.Compare(x.Signer, y.Signer)
	})
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	data = append(data, '\n')
	if len(data) > maxMarksBytes {
		return nil, fmt.Errorf("%s: the marks would be larger than %d bytes", m.path, maxMarksBytes)
	}
	return data, nil
}

// write replaces the file atomically, readable by its owner alone (the
// marks say which bundles a user has had; nothing but install reads them).
// The bound the reader holds is held here first: a file that could not be
// read back would refuse every later install.
func (m *marks) write() error {
	if !m.changed {
		return nil
	}
	data, err := m.encode()
	if err != nil {
		return err
	}
	if m.aside {
		// Renamed, not removed: whoever looks into why it broke has it.
		// A FIFO or a directory there is moved as well, never opened.
		aside := m.path + ".corrupt"
		if err := os.RemoveAll(aside); err != nil {
			return err
		}
		if err := os.Rename(m.path, aside); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		m.aside = false
	}
	if err := fsutil.WriteAtomic(m.path, data, 0o600, ".serials-*", nil); err != nil {
		return fmt.Errorf("%s: %w", m.path, err)
	}
	m.changed = false
	return nil
}
