//go:build linux && !hermes_portable

package hookproc

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// How the runner waits for a hook's exit: looking without reaping
// (peekExit, awaitDeath: the pid, and so the process group id, stays the
// hook's until reap), and reaping.

// siUnion is where the union of a siginfo_t starts: after three ints,
// aligned for a pointer (16 on 64-bit systems, 12 on 32-bit ones). A
// child's pid is its first field, its exit status its third.
const siUnion = (12 + unsafe.Sizeof(uintptr(0)) - 1) &^ (unsafe.Sizeof(uintptr(0)) - 1)

// peekExit reports whether the hook has exited, and whether cleanly (status
// 0), without reaping it (WNOWAIT): until result reaps it, its pid — and so
// its process group id — stays taken, and the group can be killed after a
// failure without any risk of naming somebody else's.
func (p *proc) peekExit() bool {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, p.pid, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			// Not our child any more (ECHILD): gone, how is unknown.
			return true
		}
		break
	}
	raw := (*[unsafe.Sizeof(info)]byte)(unsafe.Pointer(&info))
	if *(*int32)(unsafe.Pointer(&raw[siUnion])) == 0 {
		return false // WNOHANG: it has not exited yet
	}
	const cldExited = 1
	p.clean = info.Code == cldExited && *(*int32)(unsafe.Pointer(&raw[siUnion+8])) == 0
	return true
}

// awaitDeath blocks until the hook has exited, without reaping it
// (WNOWAIT): its pid stays its own until reap.
func (p *proc) awaitDeath() {
	var info unix.Siginfo
	for {
		if err := unix.Waitid(unix.P_PID, p.pid, &info, unix.WEXITED|unix.WNOWAIT, nil); err != unix.EINTR {
			return
		}
	}
}

// reap collects the exit status; flags is 0 or WNOHANG.
func (p *proc) reap(flags int) bool {
	for {
		wpid, err := syscall.Wait4(p.pid, &p.ws, flags, nil)
		if err == syscall.EINTR {
			continue
		}
		return wpid == p.pid
	}
}
