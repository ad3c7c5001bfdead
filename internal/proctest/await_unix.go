//go:build unix

package proctest

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// Signal is a named pipe a test's hook writes to when something happened
// ("I started"): the test blocks on it instead of polling for a file.
type Signal struct{ path string }

// NewSignal makes the named pipe at path.
func NewSignal(path string) (*Signal, error) {
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		return nil, err
	}
	return &Signal{path: path}, nil
}

// Path is where the hook writes (`echo > PATH` or `: > PATH`).
func (s *Signal) Path() string { return s.path }

// Wait blocks until a writer opens the pipe, or bound passes (which only
// catches a hang).
func (s *Signal) Wait(bound time.Duration) error {
	opened := make(chan error, 1)
	go func() {
		f, err := os.Open(s.path) // blocks until the hook opens it to write
		if err == nil {
			f.Close()
		}
		opened <- err
	}()
	select {
	case err := <-opened:
		return err
	case <-time.After(bound):
		// Unblock the reader above so it does not leak.
		if w, err := os.OpenFile(s.path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		return fmt.Errorf("nobody wrote to %s within %v", s.path, bound)
	}
}

// errNoPidfd: the kernel cannot watch a process by descriptor.
var errNoPidfd = errors.New("pidfd_open not available")
