// Package fsutil holds the two file disciplines hermes-hooks relies on for
// files that several processes share (the consent allowlist, the per-session
// hook state): an exclusive lock on a sibling lock file, and atomic
// replacement (unique temporary file, fsync, rename, directory fsync), so a
// reader sees the old or the new content and never a torn one, whatever
// happens to the writer.
package fsutil

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrLockTimeout is FlockWithin's error when the lock stayed taken.
var ErrLockTimeout = errors.New("lock still held by another process after the wait bound")

// CreateTemp is os.CreateTemp's signature; tests inject failures through it.
type CreateTemp func(dir, pattern string) (*os.File, error)

// WriteAtomic replaces path with data, mode perm. The data goes to a
// uniquely named temporary file (pattern, in the same directory), is flushed
// to disk, and only then renamed over path; the directory is flushed last so
// the rename itself survives a power loss. createTemp may be nil.
func WriteAtomic(path string, data []byte, perm os.FileMode, pattern string, createTemp CreateTemp) (err error) {
	if createTemp == nil {
		createTemp = os.CreateTemp
	}
	dir := filepath.Dir(path)
	tmp, err := createTemp(dir, pattern)
	if err != nil {
		return fmt.Errorf("create temporary file: %w", err)
	}
	name := tmp.Name()
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(name)
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	// Set the mode explicitly so a umask never matters: these files hold
	// security decisions or a session's private state.
	if err = tmp.Chmod(perm); err != nil {
		return fmt.Errorf("chmod: %w", err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("close: %w", err)
	}
	if err = replace(name, path); err != nil {
		return fmt.Errorf("replace: %w", err)
	}
	if err := SyncDir(dir); err != nil {
		// The new content is in place; only its durability across a power
		// loss is in doubt, so report it without undoing the write.
		return fmt.Errorf("sync directory: %w", err)
	}
	return nil
}
