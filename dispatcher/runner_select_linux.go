//go:build linux

package dispatcher

import "context"

// run is the runner hooks use: on Linux, runPoll (see runner_linux.go).
func run(ctx context.Context, s runSpec) runResult { return runPoll(ctx, s) }
