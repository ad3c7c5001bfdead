//go:build linux && !hermes_portable

package cmdpin

import (
	"os"

	"golang.org/x/sys/unix"
)

// devFD is not needed on Linux: /proc/self/fd serves (see scriptDir).
func devFD() bool { return false }

// fdPinning: Linux starts a pinned binary or script through its open
// descriptor (/proc/self/fd) and seals scripts in memory files; the portable
// build (macOS, the BSDs, or -tags hermes_portable) starts them by name.
const fdPinning = true

// sealedCopy puts content into a private memory file and seals it against
// every change, so the interpreter reads exactly the bytes that were
// hashed.
func sealedCopy(name string, content []byte) (*os.File, error) {
	fd, err := unix.MemfdCreate("hermes-hooks:"+name, unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), "memfd:"+name)
	if _, err := f.Write(content); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_ADD_SEALS, unix.F_SEAL_WRITE|unix.F_SEAL_GROW|unix.F_SEAL_SHRINK|unix.F_SEAL_SEAL); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
