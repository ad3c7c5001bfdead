//go:build linux

package attacktest

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// Helpers of the fail-closed matrix's rows (failclosed_matrix_test.go).

// textOnlyApproval writes an allowlist approving the matrix guard's
// command by its text, as approvals were before approve --text-only.
func textOnlyApproval(e *env) {
	data, err := os.ReadFile(e.path("home/config.yaml"))
	must(e.t, err)
	event, _, _ := strings.Cut(strings.TrimPrefix(string(data), "hooks:\n  "), ":")
	e.write("home/shell-hooks-allowlist.json", `{"approvals":[{"event":"`+event+`","command":"python3 -m hermes_matrix_guard",`+
		`"approved_at":"2026-01-01T00:00:00Z","script_mtime_at_approval":null,"approved_by_text":true}]}`, 0o600)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// unservedEvent is the sample naming an event the agent does not serve,
// where the payload names its event (the command line names a gating one).
func unservedEvent(c matrixCaller, sample []byte) []byte {
	return renameEvent(c, sample, "HermesMatrixNoSuchEvent")
}

// renameEvent is the sample naming the event name instead of its own.
func renameEvent(c matrixCaller, sample []byte, name string) []byte {
	var obj map[string]any
	if err := json.Unmarshal(sample, &obj); err != nil {
		panic(err)
	}
	key := c.agent.EventKey
	for k, v := range obj {
		if v == c.event {
			key = k // the field that names the event (a host's own)
		}
	}
	obj[key] = name
	out, _ := json.Marshal(obj)
	return out
}

// observerEvent is the sample naming an event of the agent's that refuses
// nothing (the call was installed for a gating one): the sample unchanged
// when the agent has none.
func observerEvent(c matrixCaller, sample []byte) []byte {
	for _, name := range c.agent.AgentEvents() {
		if ev, ok := c.agent.Canonical(name); ok && !ev.Gating() {
			return renameEvent(c, sample, name)
		}
	}
	return sample
}

// unreadableSettings writes the user's Claude Code settings (settings, a
// JSON document) and a config naming them.
func unreadableSettings(e *env, settings string) {
	e.write("userhome/.claude/settings.json", settings, 0o644)
	e.write("home/config.yaml", "hooks: {}\nclaude_settings: [../userhome/.claude/settings.json]\n", 0o644)
}
