package hookconfig

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// TestCodexFileMatchesApplyPatch: Codex compares a PreToolUse matcher with
// apply_patch and its matcher aliases Write and Edit for an apply_patch
// call (HookToolName::apply_patch in codex-rs), so a Codex hooks file's
// entry naming any of them runs for it; a Claude settings entry sees the
// call as Edit, as documented, and a Hermes one as patch.
func TestCodexFileMatchesApplyPatch(t *testing.T) {
	codex, _ := agents.Lookup("codex")
	call, err := codex.Decode([]byte(`{"hook_event_name":"PreToolUse","session_id":"s1","cwd":"/p","tool_use_id":"u1",`+
		`"tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n"}}`), "")
	if err != nil {
		t.Fatal(err)
	}
	tools := protocol.DefaultTools()
	cases := []struct {
		matcher string
		codex   bool // a Codex hooks file's entry runs
		claude  bool // a Claude settings entry runs
	}{
		{"apply_patch", true, false},
		{"^apply_patch$", true, false},
		{"Write", true, false},
		{"Edit", true, true},
		{"Edit|Write", true, true},
		{"^(Write|Edit)$", true, true},
		{"apply_.*", true, false},
		{"Bash", false, false},
		{"patch", false, false},
	}
	for _, tc := range cases {
		t.Run(tc.matcher, func(t *testing.T) {
			doc := `{"hooks":{"PreToolUse":[{"matcher":` + quoteJSON(tc.matcher) + `,"hooks":[{"type":"command","command":"./h.sh"}]}]}}`
			for _, f := range []struct {
				kind  string
				parse func([]byte, string, int) ([]*Entry, []Warning, error)
				want  bool
			}{{"codex", parseCodexHooks, tc.codex}, {"claude", parserOf("claude"), tc.claude}} {
				entries, _, err := f.parse([]byte(doc), "/p/hooks.json", 0)
				if err != nil || len(entries) != 1 {
					t.Fatalf("%s: %d entries, %v", f.kind, len(entries), err)
				}
				if got := entries[0].Matches(call.Fields, tools); got != f.want {
					t.Errorf("%s file, matcher %q: matches = %v, want %v", f.kind, tc.matcher, got, f.want)
				}
				// A name the file's agent matches is not called one that
				// never matches.
				for _, w := range (&Config{Entries: entries, Tools: tools}).Advice() {
					if strings.Contains(w.Message, "never matches") && f.kind == "codex" && tc.codex {
						t.Errorf("codex file, matcher %q: advice %q", tc.matcher, w.Message)
					}
				}
			}
		})
	}
}

func quoteJSON(s string) string {
	out := []byte{'"'}
	for _, r := range []byte(s) {
		if r == '"' || r == '\\' {
			out = append(out, '\\')
		}
		out = append(out, r)
	}
	return string(append(out, '"'))
}
