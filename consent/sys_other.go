//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package consent

import (
	"os"
)

func openLockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
}
