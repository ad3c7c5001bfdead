//go:build linux && !hermes_portable

package hookproc

import (
	"syscall"
	"testing"
	"time"
)

// A process caught in the middle of an exec reads an empty environment
// for a moment (its new image's is not placed yet): a successful hook's
// helper doing `sh -c '…; exec sleep 3600'` then showed no run tag, and
// KillEscaped killed it as nobody's (TestSuccessfulHookKeepsDetachedHelpers
// failed so beside make stress). tagOf reads again until the environment
// is there.
func TestTagOfWaitsOutAnExec(t *testing.T) {
	was := readEnviron
	t.Cleanup(func() { readEnviron = was })
	reads := 0
	readEnviron = func(int) ([]byte, error) {
		reads++
		if reads < 3 {
			return nil, nil // between the exec's switch of memory and its new stack
		}
		return []byte("PATH=/bin\x00" + runTagVar + "=7.3\x00"), nil
	}
	if got := tagOf(12345, time.Now().Add(execSettle)); got != "7.3" {
		t.Fatalf("tagOf = %q after %d reads, want the tag the third read gives", got, reads)
	}
}

// A process that is gone, or whose environment is empty for good (env -i),
// is not waited for past the bound: tagOf gives "" and KillEscaped goes on.
// The bound is one killEscaped's: past it, an empty read is not tried again.
func TestTagOfGivesUpOnNoEnvironment(t *testing.T) {
	was := readEnviron
	t.Cleanup(func() { readEnviron = was })
	readEnviron = func(int) ([]byte, error) { return nil, syscall.ESRCH }
	if got := tagOf(12345, time.Now().Add(execSettle)); got != "" {
		t.Fatalf("tagOf of a gone process = %q", got)
	}
	readEnviron = func(int) ([]byte, error) { return nil, nil }
	if got := tagOf(12345, time.Now().Add(execSettle)); got != "" {
		t.Fatalf("tagOf of an empty environment = %q", got)
	}
	reads := 0
	readEnviron = func(int) ([]byte, error) { reads++; return nil, nil }
	if tagOf(12345, time.Now()); reads != 1 {
		t.Fatalf("past the bound an empty environment was read %d times", reads)
	}
}
