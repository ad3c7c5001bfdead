//go:build !unix

package proctest

import (
	"errors"
	"time"
)

// Signal is a named pipe a test's hook writes to; there are none here.
type Signal struct{ path string }

// NewSignal is unsupported without named pipes.
func NewSignal(path string) (*Signal, error) { return nil, errors.ErrUnsupported }

// Path is where the hook writes.
func (s *Signal) Path() string { return s.path }

// Wait is unsupported without named pipes.
func (s *Signal) Wait(time.Duration) error { return errors.ErrUnsupported }
