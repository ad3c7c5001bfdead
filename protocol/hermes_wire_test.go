package protocol

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// A rewrite reaches Hermes as a modify that Hermes merges over the
// arguments it sent: a key the rewrite dropped would come back, so the
// call Hermes ran would not be the one the outcome (and the rules that
// judged it again) holds.
func TestHermesWireOverSentArgs(t *testing.T) {
	sent := map[string]any{"command": "rm -rf /", "workdir": "/"}
	cases := []struct {
		name string
		args map[string]any
		want string // the wire, or a part of the refusal
	}{
		{"every_key_kept", map[string]any{"command": "ls", "workdir": "/tmp"}, `{"action":"modify","args":{"command":"ls","workdir":"/tmp"}}`},
		{"key_added", map[string]any{"command": "ls", "workdir": "/", "timeout": 5.0}, `{"action":"modify","args":{"command":"ls","timeout":5,"workdir":"/"}}`},
		{"key_dropped", map[string]any{"command": "ls"}, "the ones the rewrite dropped (workdir) would come back"},
		{"emptied", map[string]any{}, "Hermes ignores a rewrite to no arguments"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := Outcome{Event: "pre_tool_call", Decision: DecisionAllow, Args: tc.args}
			got := string(pyjson.Encode(o.HermesWireOver(sent), pyjson.Compact))
			if strings.HasPrefix(tc.want, "{") {
				if got != tc.want {
					t.Errorf("got %s, want %s", got, tc.want)
				}
				return
			}
			if !strings.HasPrefix(got, `{"action":"block","message":"hermes-hooks: a hook rewrote`) || !strings.Contains(got, tc.want) {
				t.Errorf("got %s, want a block saying %q", got, tc.want)
			}
		})
	}
	// Without the sent arguments only what no merge can carry is told.
	o := Outcome{Event: "pre_tool_call", Args: map[string]any{"command": "ls"}}
	if got := string(pyjson.Encode(o.HermesWire(), pyjson.Compact)); got != `{"action":"modify","args":{"command":"ls"}}` {
		t.Errorf("HermesWire() = %s", got)
	}
}
