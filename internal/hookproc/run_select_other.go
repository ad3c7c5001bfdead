//go:build unix && (!linux || hermes_portable)

package hookproc

import "context"

// run is the runner hooks use: on Unix systems other than Linux, runExec.
func run(ctx context.Context, s Spec) Result { return runExec(ctx, s) }
