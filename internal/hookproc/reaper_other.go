//go:build !linux || hermes_portable

package hookproc

import "errors"

// BecomeSubreaper is Linux-only (PR_SET_CHILD_SUBREAPER); elsewhere a
// descendant that leaves its hook's process group is not tracked, as the
// security notes (docs/security.md) say.
func BecomeSubreaper() error {
	return errors.New("a child subreaper needs Linux")
}

// KillEscaped does nothing where BecomeSubreaper is not available.
func KillEscaped() int { return 0 }

func runTag() string { return "" }

// Without a subreaper there are no run tags to track.
func openRun(string)  {}
func closeRun(string) {}
func killTree(string) {}

// Nothing to track without a subreaper.
func spawnLock()       {}
func spawnUnlock()     {}
func trackChild(int)   {}
func untrackChild(int) {}
