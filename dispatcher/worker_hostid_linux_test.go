//go:build linux

package dispatcher

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// firstWinsWorker is a Claude-dialect worker whose JSON reader keeps the
// first of two members of one name (as some readers do: Go's encoding/json
// keeps the last, Python's object_pairs_hook can keep either). It denies
// every call, echoing the request id it read, and says how many members of
// that name its line held.
const firstWinsWorker = `#!/usr/bin/env python3
import json, sys

def first_wins(pairs):
    out = {}
    for k, v in pairs:
        out.setdefault(k, v)
    return out

for line in sys.stdin:
    p = json.loads(line, object_pairs_hook=first_wins)
    n = sum(1 for k, _ in json.loads(line, object_pairs_hook=lambda ps: ps) if k == "hermes_hooks_request_id")
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                      "permissionDecisionReason": "ids=%d" % n},
                      "hermes_hooks_request_id": p["hermes_hooks_request_id"]}), flush=True)
`

// Issue 31 item 15: a host field named hermes_hooks_request_id reaches a
// Claude-dialect hook at the payload's top level. Beside ours it made a
// duplicate key, and a worker reading the first echoed the host's id: the
// reply was refused as another request's and the worker killed. The
// host's member is taken out: the worker sees one id, ours, and its deny
// is the answer.
func TestWorkerNeverSeesTheHostsRequestID(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "worker.py")
	if err := os.WriteFile(path, []byte(firstWinsWorker), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg, err := hookconfig.ParseConfig([]byte(hookYAML("pre_tool_call", path, "worker: true", "dialect: claude")), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range cfg.Warnings {
		t.Fatalf("config warning: %s", w)
	}
	d, err := New(cfg, Options{Gate: AllowAll})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	for i, id := range []any{999, "999", 0} {
		o := dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal",
			"args": map[string]any{"command": "ls"}, "hermes_hooks_request_id": id})
		rep := onlyReport(t, o)
		if o.Decision != protocol.DecisionBlock || o.Message != "ids=1" {
			t.Fatalf("firing %d (host id %v): decision %s %q, want block \"ids=1\"; hook report: error %q, note %q",
				i, id, o.Decision, o.Message, rep.Error, rep.Note)
		}
		if strings.Contains(rep.Note, "one-shot") {
			t.Fatalf("the entry ran one-shot, not as a worker: %q", rep.Note)
		}
	}
}
