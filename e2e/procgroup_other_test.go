//go:build e2e && !unix

package e2e

import (
	"os/exec"
	"syscall"
)

// ownGroup leaves cmd as it is: process groups as the e2e runs use them
// are Unix's (make e2e runs on Linux); this keeps the package building,
// and vetted, elsewhere.
func ownGroup(*exec.Cmd) {}

// signalGroup kills cmd alone, whatever sig: Windows has no signals to
// send to a group.
func signalGroup(cmd *exec.Cmd, _ syscall.Signal) error {
	return cmd.Process.Kill()
}
