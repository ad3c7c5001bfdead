package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// Install edits a file other programs write too (the agent itself keeps
// its settings there, and the user's editor) by reading it, editing, and
// renaming the result over it. An edit made by someone else in between
// would be lost: 30 of 200 concurrent edits were, in a red-team run. So
// Apply
//
//   - holds a lock of its own on the file's folder while it checks and
//     writes, which every hermes-hooks install and uninstall takes: two of
//     them never lose each other's edits;
//   - checks just before its rename that the file still holds what the
//     plan was computed from, and when it does not, computes the plan
//     again from the file as it is now (maxApplyTries times).
//
// The agents' own writers do not know our lock: one that renames its file
// between our last check and our rename (microseconds) still loses its
// edit. No lock the other writer does not take can close that window.

// errChanged: the file is no longer what the plan read.
var errChanged = errors.New("changed since it was read")

// maxApplyTries bounds how often Apply computes the plan again for a file
// another program keeps changing.
const maxApplyTries = 20

// lockWait bounds the wait for another install's lock: an install holds
// it for milliseconds; one stuck longer is an error to report.
const lockWait = 30 * time.Second

// Apply writes the plan (apply) under install's lock on the file's
// folder, computing it again when the file changed since Make read it.
// It returns the backup's path ("" when none is kept).
func (p *Plan) Apply() (backup string, err error) {
	if !p.Changed {
		return "", nil
	}
	dir := filepath.Dir(p.Path)
	created, err := mkdirAll(dir, 0o755)
	// Set when Apply returns: a plan computed again replaces *p.
	defer func() { p.CreatedDirs = created }()
	if err != nil {
		return "", err
	}
	unlock, err := lockFolder(dir)
	if err != nil {
		return "", err
	}
	defer unlock()
	for try := 1; ; try++ {
		backup, err = p.apply()
		if !errors.Is(err, errChanged) || p.remake == nil {
			return backup, err
		}
		if try == maxApplyTries {
			return "", fmt.Errorf("the file changed %d times while install edited it (another program keeps writing it); not changed: try again", try)
		}
		q, err := p.remake()
		if err != nil {
			return "", err
		}
		q.Root, q.OwnDirs = p.Root, p.OwnDirs
		if p.keep != "" {
			q.KeepFile(p.keep)
		}
		*p = *q
		if !p.Changed {
			return "", nil // someone else's edit did ours
		}
	}
}

// unchanged returns errChanged when the file no longer holds what the
// plan was computed from (or exists when it did not).
func (p *Plan) unchanged() error {
	cur, err := readBounded(p.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if p.Exists {
			return errChanged
		}
		return nil
	case err != nil:
		return err
	case !p.Exists || !bytes.Equal(cur, p.Old):
		return errChanged
	}
	return nil
}

// replace is writeAtomic with the check (unchanged) made last, after the
// new content is on disk and just before the rename: the window in which
// another program's edit is lost is that of one rename.
func (p *Plan) replace(data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(p.Path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(p.Path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("create temporary file: %w", err)
	}
	name := tmp.Name()
	defer os.Remove(name) // a no-op once renamed
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if err == nil {
		err = tmp.Chmod(mode) // whatever the umask
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = p.unchanged()
	}
	if err != nil {
		return err
	}
	if err := os.Rename(name, p.Path); err != nil {
		return fmt.Errorf("replace: %w", err)
	}
	return fsutil.SyncDir(dir)
}
