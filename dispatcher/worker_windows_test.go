//go:build windows

package dispatcher

import (
	"strings"
	"testing"
)

// Windows keeps no worker processes: a worker entry runs one-shot (the
// payload, then EOF), its reply counts, and its report says it ran
// one-shot rather than leaving the person to wonder why it is slow.
func TestWorkerEntryRunsOneShotOnWindows(t *testing.T) {
	s := script(t, t.TempDir(), "w.sh", `cat >/dev/null; echo '{"action":"block","message":"from the worker"}'`)
	d := dispatcherFor(t, hookYAML("pre_tool_call", s, "worker: true", "fail_closed: true"))
	o := dispatch(t, d, "pre_tool_call", terminalCall)
	if !o.Blocked() || o.Message != "from the worker" || !strings.Contains(onlyReport(t, o).Note, "worker entry run one-shot") {
		t.Fatalf("outcome %+v", o)
	}
	if w := d.Workers(); w != nil {
		t.Fatalf("workers %+v", w)
	}
}
