//go:build windows

package install

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// lockFolder takes an exclusive lock for the folder. LockFileEx locks a
// range of a file's bytes and a folder's handle has none (it fails with
// "Invalid handle"), so the lock is a file named after the folder (its
// path, case-folded as Windows compares paths) in the user's own temp
// folder: no lock file is left in a folder that is the agent's, and every
// install of this user editing that folder takes the same lock.
func lockFolder(dir string) (func(), error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(strings.ToLower(filepath.Clean(abs))))
	path := filepath.Join(os.TempDir(), "hermes-hooks-install-"+hex.EncodeToString(sum[:12])+".lock")
	unlock, err := fsutil.LockContext(context.Background(), path, lockWait)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	return unlock, nil
}
