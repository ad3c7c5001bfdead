//go:build windows

package hookproc

import (
	"context"
	"testing"
	"time"
)

// A timeout that ends before the hook has started (a start slower than
// the timeout, as on a loaded machine) is the hook's timeout, not a
// failure to start it: a fail_closed guard's report must say it timed out.
func TestRunJobTimeoutBeforeStart(t *testing.T) {
	res := runJob(context.Background(), helperSpec(t, "sleep", time.Nanosecond))
	if !res.TimedOut || res.SpawnError != "" || res.Cancelled {
		t.Fatalf("result %+v, want a timeout", res)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res = runJob(ctx, helperSpec(t, "sleep", time.Minute))
	if !res.Cancelled || res.SpawnError != "" {
		t.Fatalf("cancelled before the start: %+v, want cancelled", res)
	}
}
