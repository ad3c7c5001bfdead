//go:build linux && !hermes_portable

package hookproc

import "syscall"

// workerProcAttr: its own process group, and death with the dispatcher.
func workerProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
