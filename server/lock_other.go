//go:build !unix

package server

import "os"

// lockExclusive only opens the lock file where flock is not available.
func lockExclusive(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
}
