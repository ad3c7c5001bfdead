//go:build linux && !hermes_portable

package hookproc

import (
	"syscall"
	"testing"
	"time"
)

// drainFd returns after a bounded amount of reading even when the writer is
// always ahead of it (here /dev/zero, which never runs dry): a hook, or a
// setsid'd helper holding its pipe at the end of the grace, flooding faster
// than the runner reads must not keep the loop from its deadline.
func TestDrainFdIsBounded(t *testing.T) {
	fd, err := syscall.Open("/dev/zero", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Skip(err)
	}
	defer syscall.Close(fd)
	done := make(chan bool, 1)
	go func() {
		var c capBuffer
		c.max = 1 << 10
		done <- drainFd(fd, &c, make([]byte, 32<<10))
	}()
	select {
	case eof := <-done:
		if eof {
			t.Fatal("drainFd saw an end /dev/zero does not have")
		}
	case <-time.After(hangBound):
		t.Fatal("drainFd kept reading a writer that is always ahead")
	}
}
