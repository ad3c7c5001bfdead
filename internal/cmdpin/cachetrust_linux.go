//go:build linux && !hermes_portable

package cmdpin

import (
	"os"

	"golang.org/x/sys/unix"
)

// fsClassOf classifies the filesystem of the open file f (see fsClass).
func fsClassOf(f *os.File) fsClass {
	rc, err := f.SyscallConn()
	if err != nil {
		return fsUnknown
	}
	var st unix.Statfs_t
	var serr error
	if err := rc.Control(func(fd uintptr) {
		for {
			if serr = unix.Fstatfs(int(fd), &st); serr != unix.EINTR {
				return
			}
		}
	}); err != nil || serr != nil {
		return fsUnknown
	}
	return classifyFS(int64(st.Type))
}

// classifyFS maps a statfs f_type to its class. Only filesystems whose
// mapped-write behaviour is known are trusted; everything else — among them
// FUSE, 9p, NFS, SMB/CIFS, Ceph, AFS, overlay, ecryptfs, ZFS — is unknown.
func classifyFS(magic int64) fsClass {
	switch uint32(magic) {
	case unix.EXT4_SUPER_MAGIC, // also ext2 and ext3
		unix.XFS_SUPER_MAGIC,
		unix.BTRFS_SUPER_MAGIC,
		unix.F2FS_SUPER_MAGIC,
		unix.BCACHEFS_SUPER_MAGIC:
		return fsDisk
	case unix.TMPFS_MAGIC, unix.RAMFS_MAGIC:
		return fsMemory
	}
	return fsUnknown
}

// ctimeSettled reports whether the kernel's coarse clock, which stamps
// file changes, has moved past ctime: a later change then gets a later
// ctime, even on kernels whose timestamps are per tick.
func ctimeSettled(ctime int64) bool {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_REALTIME_COARSE, &ts) != nil {
		return false
	}
	return ctime != 0 && ctime < ts.Nano()
}

// readLease takes a read lease on f (opened read-only). writer is true when
// the kernel refused it because the file is open for writing somewhere.
// end releases the lease and reports whether it was still held, i.e. not
// being broken by a new writer; it is nil when no lease was taken (the file
// is not ours and we lack CAP_LEASE, leases are disabled, ...).
//
// A writer that opens the file while the lease is held waits until end
// releases it (at most the time of one hash), and the kernel signals the
// process with SIGIO, which the Go runtime ignores.
func readLease(f *os.File) (end func() bool, writer bool) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, false
	}
	var lerr error
	if err := rc.Control(func(fd uintptr) {
		_, lerr = unix.FcntlInt(fd, unix.F_SETLEASE, unix.F_RDLCK)
	}); err != nil {
		return nil, false
	}
	if lerr != nil {
		return nil, lerr == unix.EAGAIN
	}
	return func() bool {
		held := false
		_ = rc.Control(func(fd uintptr) {
			t, err := unix.FcntlInt(fd, unix.F_GETLEASE, 0)
			held = err == nil && t == unix.F_RDLCK
			_, _ = unix.FcntlInt(fd, unix.F_SETLEASE, unix.F_UNLCK)
		})
		return held
	}, false
}
