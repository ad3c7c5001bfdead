//go:build !linux || hermes_portable

package cmdpin

import (
	"os"
	"runtime"
	"strconv"
)

// fdPinning is false: no /proc/self/fd or memory files here, so a binary
// starts by name and a script's copy is an unlinked file (see
// memfd_linux.go).
const fdPinning = false

// sealedCopy puts content into a temporary file that is unlinked at once:
// no name reaches it, so neither a rename nor an edit of the script after
// its check changes what the interpreter reads through /dev/fd/3. It is not
// sealed as a memory file is: only the hook that inherits it could write
// to it, and that changes nothing anyone else runs.
func sealedCopy(name string, content []byte) (*os.File, error) {
	f, err := os.CreateTemp("", "hermes-hooks-script-*")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Write(content); err != nil {
		f.Close()
		return nil, err
	}
	// The interpreter reads from the start. On macOS opening /dev/fd/3 is
	// dup(3): it shares this offset (hookproc rewinds it before each start).
	if _, err := f.Seek(0, 0); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// devFD reports whether /dev/fd/N names the file open as N here: probed
// with a file of our own, because a BSD without fdescfs mounted has a
// /dev/fd holding only 0, 1 and 2, and Windows has none.
func devFD() bool {
	if runtime.GOOS == "windows" {
		return false
	}
	f, err := os.CreateTemp("", "hermes-hooks-probe-*")
	if err != nil {
		return false
	}
	defer f.Close()
	defer os.Remove(f.Name())
	open, err := f.Stat()
	if err != nil {
		return false
	}
	via, err := os.Stat("/dev/fd/" + strconv.Itoa(int(f.Fd())))
	return err == nil && os.SameFile(open, via)
}
