//go:build linux

package hookproc

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

// A cancelled run waits for nothing but its hook's exit: not the drain
// grace a helper holding the hook's pipes gets after a timeout or an exit.
// `hook AGENT` cancels its dispatch at the agent's deadline less a margin
// as short as a quarter of a second; a refusal that then waited half a
// second more for such a helper came after the agent had given up (and let
// the call through). Each case runs with a grace of an hour, so waiting for
// it is a hang.
func TestCancelledRunDoesNotWaitForHeldPipes(t *testing.T) {
	for _, tc := range []struct {
		name string
		// exited: the cancellation comes after the hook exited, while the
		// helper still holds its pipes.
		exited bool
	}{{"while the hook runs", false}, {"after the hook exited", true}} {
		for name, run := range runners() {
			t.Run(name+"/"+tc.name, func(t *testing.T) { cancelHeldPipes(t, run, tc.exited) })
		}
	}
}

func cancelHeldPipes(t *testing.T, run runner, exited bool) {
	dir := t.TempDir()
	sig, err := proctest.NewSignal(filepath.Join(dir, "signal"))
	if err != nil {
		t.Fatal(err)
	}
	// The helper leaves the group (setsid), so no group kill ends
	// it: it holds the hook's stdout and stderr.
	body := `setsid sh -c 'echo $$ > helper.pid; exec sleep 3600' &
until [ -s helper.pid ]; do sleep 0.01; done
echo $$ > hook.pid
: > signal
`
	if !exited {
		body += "exec sleep 3600\n"
	}
	s := shSpec(body, time.Hour)
	s.Dir, s.grace = dir, time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		if sig.Wait(hangBound) != nil {
			return
		}
		if exited {
			data, _ := os.ReadFile(filepath.Join(dir, "hook.pid"))
			pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
			if proctest.AwaitExit(pid, hangBound) != nil {
				return
			}
		}
		cancel()
	}()
	done := make(chan Result, 1)
	go func() { done <- run(ctx, s) }()
	t.Cleanup(func() {
		data, _ := os.ReadFile(filepath.Join(dir, "helper.pid"))
		if pid, _ := strconv.Atoi(strings.TrimSpace(string(data))); pid > 0 {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	select {
	case res := <-done:
		if !exited && !res.Cancelled {
			t.Errorf("%+v; want cancelled", res)
		}
	case <-time.After(hangBound):
		t.Fatal("the cancelled run waited for the pipes its helper holds")
	}
}
