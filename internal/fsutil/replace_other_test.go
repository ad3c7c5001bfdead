//go:build !windows

package fsutil

import "testing"

// skipWithoutPosixRename: rename is POSIX's own here.
func skipWithoutPosixRename(*testing.T) {}
