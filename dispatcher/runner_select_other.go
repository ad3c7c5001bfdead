//go:build unix && !linux

package dispatcher

import "context"

// run is the runner hooks use: on Unix systems other than Linux, runExec.
func run(ctx context.Context, s runSpec) runResult { return runExec(ctx, s) }
