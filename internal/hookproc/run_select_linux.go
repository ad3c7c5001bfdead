//go:build linux && !hermes_portable

package hookproc

import "context"

// run is the runner hooks use: on Linux, runPoll (see run_linux.go).
func run(ctx context.Context, s Spec) Result { return runPoll(ctx, s) }
