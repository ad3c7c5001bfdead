//go:build unix

package install

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// ErrNotChecked is what SystemBinary returns where it cannot read who may
// replace a file; here it can, and never does.
var ErrNotChecked = errors.New("not checked on this system")

// lstatOwner reads path's owner and mode, its final link not followed.
func lstatOwner(path string) (fileOwner, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return fileOwner{}, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileOwner{}, fmt.Errorf("%s: its owner cannot be read", path)
	}
	return fileOwner{uid: st.Uid, mode: fi.Mode()}, nil
}
