//go:build unix

package cli

import "syscall"

// detached starts a process in a session of its own, so it outlives its
// parent and no terminal signal reaches it.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
