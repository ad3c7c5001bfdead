//go:build unix && (!linux || hermes_portable)

package hookproc

import "syscall"

// workerProcAttr: its own process group (no parent-death signal here).
func workerProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
