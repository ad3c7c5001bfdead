//go:build windows

package hookproc

import (
	"context"
	"errors"
	"testing"
	"time"

	"golang.org/x/sys/windows"
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

// A start that fails with ERROR_INTERNAL_ERROR (the new process died in
// its set-up, before running anything) is tried again, up to
// startAttempts in all; any other error, or an ended context, is final.
func TestStartRetrying(t *testing.T) {
	errInternal := windows.ERROR_INTERNAL_ERROR
	cases := []struct {
		name   string
		errs   []error // what each call returns; past the end, nil
		cancel bool
		calls  int
		want   error
	}{
		{"internal twice, then started", []error{errInternal, errInternal}, false, 3, nil},
		{"internal every time", []error{errInternal, errInternal, errInternal, errInternal}, false, startAttempts, errInternal},
		{"not found is final", []error{windows.ERROR_FILE_NOT_FOUND}, false, 1, windows.ERROR_FILE_NOT_FOUND},
		{"context ended", []error{errInternal, errInternal}, true, 1, errInternal},
	}
	for _, c := range cases {
		ctx, cancel := context.WithCancel(context.Background())
		if c.cancel {
			cancel()
		}
		calls := 0
		err := startRetrying(ctx, func() error {
			calls++
			if calls <= len(c.errs) {
				return c.errs[calls-1]
			}
			return nil
		})
		cancel()
		if calls != c.calls || !errors.Is(err, c.want) || (c.want == nil && err != nil) {
			t.Errorf("%s: %d calls, error %v; want %d calls, error %v", c.name, calls, err, c.calls, c.want)
		}
	}
}
