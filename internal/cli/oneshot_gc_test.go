package cli

import (
	"math"
	"runtime/debug"
	"testing"
)

// restoreGC puts the collector back as the test found it.
func restoreGC(t *testing.T) {
	was := debug.SetGCPercent(100)
	debug.SetGCPercent(was)
	limit := debug.SetMemoryLimit(-1)
	t.Cleanup(func() {
		debug.SetGCPercent(was)
		debug.SetMemoryLimit(limit)
	})
}

func TestOneShotGC(t *testing.T) {
	restoreGC(t)
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
	OneShotGC()
	if got := debug.SetGCPercent(100); got != oneShotGCPercent {
		t.Errorf("GC percent %d, want %d", got, oneShotGCPercent)
	}
	if got := debug.SetMemoryLimit(-1); got != oneShotMemLimit {
		t.Errorf("memory limit %d, want %d", got, oneShotMemLimit)
	}
}

// A GOGC or GOMEMLIMIT of the user's is theirs: nothing changes.
func TestOneShotGCKeepsTheUsers(t *testing.T) {
	restoreGC(t)
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Setenv("GOGC", "")
		t.Setenv("GOMEMLIMIT", "")
		t.Setenv(env, "50")
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
		OneShotGC()
		if got := debug.SetGCPercent(100); got != 100 {
			t.Errorf("%s set: GC percent %d, want 100", env, got)
		}
		if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
			t.Errorf("%s set: memory limit %d", env, got)
		}
	}
}
