package agents

import (
	"encoding/json"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

const codexEnvelope = "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n"

// codexApplyPatchFields are a Codex apply_patch call as decodeCodex gives
// it to the dispatcher (the canonical patch tool, patch mode).
func codexApplyPatchFields(t *testing.T) map[string]any {
	t.Helper()
	ev, _ := protocol.Lookup("pre_tool_call")
	return decodeCodex("PreToolUse", ev, map[string]any{
		"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": "/p", "tool_use_id": "u1",
		"tool_name": "apply_patch", "tool_input": map[string]any{"command": codexEnvelope},
	})
}

// TestCodexCodecPresentsApplyPatch: a Codex hooks file's hook sees a
// patch in patch mode as Codex gives it its apply_patch call — tool_name
// apply_patch, the envelope in tool_input.command — and its matcher is
// compared with apply_patch (Codex's matcher aliases Write and Edit fit
// too: MatchAliases); other calls stay as the Claude dialect gives them.
func TestCodexCodecPresentsApplyPatch(t *testing.T) {
	pre, _ := protocol.Lookup("pre_tool_call")
	cases := []struct {
		name      string
		fields    map[string]any
		wantName  string
		wantInput string
		aliases   []string
	}{
		{"Codex's apply_patch", codexApplyPatchFields(t), "apply_patch",
			`{"command":"*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n"}`, []string{"apply_patch", "Write", "Edit"}},
		{"Hermes' patch in patch mode", map[string]any{"tool_name": "patch",
			"args": map[string]any{"mode": "patch", "patch": codexEnvelope}}, "apply_patch",
			`{"command":"*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n"}`, []string{"apply_patch", "Write", "Edit"}},
		{"Hermes' patch in replace mode stays Edit", map[string]any{"tool_name": "patch",
			"args": map[string]any{"mode": "replace", "path": "a", "old_string": "x", "new_string": "y"}}, "Edit",
			`{"file_path":"a","mode":"replace","new_string":"y","old_string":"x","path":"a"}`, nil},
		{"Claude's Write stays Write", map[string]any{"tool_name": "Write",
			"tool_input": map[string]any{"file_path": "a", "content": "x"}}, "Write", `{"content":"x","file_path":"a"}`, nil},
		{"Bash stays Bash", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"}}, "Bash",
			`{"command":"ls"}`, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got struct {
				ToolName  string          `json:"tool_name"`
				ToolInput json.RawMessage `json:"tool_input"`
			}
			raw := codexCodec{}.Payload("PreToolUse", pre, tc.fields, protocol.PayloadEnv{Cwd: "/p"})
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatalf("payload %s: %v", raw, err)
			}
			if got.ToolName != tc.wantName || string(got.ToolInput) != tc.wantInput {
				t.Errorf("payload tool = %s %s, want %s %s", got.ToolName, got.ToolInput, tc.wantName, tc.wantInput)
			}
			s, ok := codexCodec{}.MatchSubject("PreToolUse", pre, tc.fields, nil)
			if !ok || s != tc.wantName {
				t.Errorf("MatchSubject = %q %v, want %q", s, ok, tc.wantName)
			}
			if a := matchAliasesOf(s); !equalStrings(a, tc.aliases) {
				t.Errorf("MatchAliases(%q) = %q, want %q", s, a, tc.aliases)
			}
		})
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// matchAliasesOf is the codec's MatchAliases, nil when it has none.
func matchAliasesOf(subject string) []string {
	if a, ok := any(codexCodec{}).(protocol.MatchAliases); ok {
		return a.MatchAliases("PreToolUse", subject)
	}
	return nil
}

// TestCodexCodecReadsPatchRewrite: a Codex hook's rewrite of an apply_patch
// call ({"command": <patch>}, the input it saw) is the patch tool's
// arguments again, {mode: "patch", patch}, whichever host made the call;
// other rewrites pass as they are.
func TestCodexCodecReadsPatchRewrite(t *testing.T) {
	pre, _ := protocol.Lookup("pre_tool_call")
	hermesPatch := map[string]any{"tool_name": "patch", "args": map[string]any{"mode": "patch", "patch": codexEnvelope}}
	cases := []struct {
		name    string
		fields  map[string]any
		updated map[string]any
		want    string
	}{
		{"Codex's apply_patch", codexApplyPatchFields(t), map[string]any{"command": "P2"}, `{"mode":"patch","patch":"P2"}`},
		{"Hermes' patch", hermesPatch, map[string]any{"command": "P2"}, `{"mode":"patch","patch":"P2"}`},
		{"already the patch tool's", hermesPatch, map[string]any{"mode": "patch", "patch": "P2"}, `{"mode":"patch","patch":"P2"}`},
		{"Bash", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}},
			map[string]any{"command": "true"}, `{"command":"true"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, ok := any(codexCodec{}).(protocol.ArgsReader)
			if !ok {
				t.Fatal("codexCodec is no protocol.ArgsReader")
			}
			got, _ := json.Marshal(m.ReadArgs("PreToolUse", pre, tc.fields, nil, tc.updated))
			if string(got) != tc.want {
				t.Errorf("ReadArgs = %s, want %s", got, tc.want)
			}
		})
	}
}
