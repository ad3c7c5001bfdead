//go:build !unix

package oneshot

import "syscall"

func detached() *syscall.SysProcAttr { return nil }
