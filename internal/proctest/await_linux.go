package proctest

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// AwaitExit blocks until process pid (not necessarily our child) has exited
// — dead or a zombie — or bound passes, which only catches a hang. It
// watches the process through a pidfd, so nothing polls; on kernels without
// pidfd_open it falls back to checking /proc every few milliseconds.
func AwaitExit(pid int, bound time.Duration) error {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		if err == unix.ESRCH {
			return nil // already gone
		}
		return awaitExitPolling(pid, bound)
	}
	defer unix.Close(fd)
	if err := AwaitPidfd(fd, bound); err != nil {
		return fmt.Errorf("process %d: %w", pid, err)
	}
	return nil
}

// AwaitPidfd blocks until the process pidfd fd refers to has exited, or
// bound passes. For a caller that holds the process by its pidfd already
// (one that signalled it through the fd, so that a reused pid is never
// touched).
func AwaitPidfd(fd int, bound time.Duration) error {
	deadline := time.Now().Add(bound)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return fmt.Errorf("still running after %v", bound)
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(left/time.Millisecond)+1)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
	}
}

func awaitExitPolling(pid int, bound time.Duration) error {
	deadline := time.Now().Add(bound)
	for alive(pid) {
		if time.Now().After(deadline) {
			return fmt.Errorf("process %d still running after %v (%v)", pid, bound, errNoPidfd)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return nil
}

// alive reports whether pid runs (a zombie does not count).
func alive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(data, ')')
	return i > 0 && i+2 < len(data) && data[i+2] != 'Z' && data[i+2] != 'X'
}
