//go:build !unix && !windows

package hookproc

import "context"

// run refuses on systems without POSIX process groups: hermes-hooks kills a
// hook's whole process tree on timeout, and cannot promise that here.
func run(ctx context.Context, s Spec) Result {
	return Result{SpawnError: "hooks can only run on Unix-like systems (Linux, macOS, BSD)"}
}
