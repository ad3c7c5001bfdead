//go:build linux && !hermes_portable

package fsutil

import (
	"os"
	"syscall"
)

// SeesWriters: BeingWritten asks the kernel (read leases).
const SeesWriters = true

// BeingWritten reports whether some process has path open for writing
// right now: a read lease cannot be taken then (F_SETLEASE fails with
// EAGAIN). A writer that stalls half-way through rewriting a config keeps
// it open, so neither serve's reload nor a one-shot's read takes what it
// has written so far for the config, however long it pauses. Where a lease cannot be taken for another reason (another
// owner's file, a file system without leases) it answers false and the
// settle period alone decides.
//
// The file is opened without blocking, and only a regular file is asked:
// a config swapped for a FIFO (a repository's project hooks file can be
// one) would otherwise hold the open — and with it serve's refresh and
// lock, or a one-shot's answer — until something writes to it, which may
// be never.
func BeingWritten(path string) bool {
	f, err := OpenRegular(path, os.O_RDONLY, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	fd := int(f.Fd())
	if _, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_SETLEASE, syscall.F_RDLCK); e != 0 {
		return e == syscall.EAGAIN
	}
	_, _, _ = syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_SETLEASE, syscall.F_UNLCK)
	return false
}
