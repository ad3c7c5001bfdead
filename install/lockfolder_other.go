//go:build !windows

package install

import (
	"fmt"
	"os"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// lockFolder takes an exclusive lock on the folder itself (flock on its
// descriptor, where there is flock): no lock file is left in a folder
// that is the agent's, and the lock goes with the process.
func lockFolder(dir string) (func(), error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	unlock, err := fsutil.FlockWithin(d, lockWait)
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	return func() { unlock(); d.Close() }, nil
}
