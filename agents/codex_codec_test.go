package agents

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// TestCodexCodecReadsApprovalsAsCodex: a Codex hooks file's PreToolUse
// reply is read as Codex 0.169 reads it — no plain approval — and
// otherwise as the Claude dialect reads it.
func TestCodexCodecReadsApprovalsAsCodex(t *testing.T) {
	pre, _ := protocol.Lookup("pre_tool_call")
	perm, _ := protocol.Lookup("PermissionRequest")
	cases := []struct {
		name, declared string
		ev             *protocol.Event
		stdout         string
		want           string // the contribution's JSON, "" for none
		failed         bool   // the report is a failed hook
	}{
		{"allow alone fails", "PreToolUse", pre,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"ok"}}`, "", true},
		{"legacy approve fails", "PreToolUse", pre, `{"decision":"approve"}`, "", true},
		{"allow with updatedInput is a rewrite", "PreToolUse", pre,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"}}}`,
			`{"args":{"command":"ls"},"replace_args":true}`, false},
		{"deny is a deny", "PreToolUse", pre,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`,
			`{"decision":"block","message":"no"}`, false},
		{"PermissionRequest's allow is Codex's", "PermissionRequest", perm,
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`,
			`{"decision":"allow"}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			zero := 0
			c, note := parseReply(codexCodec{}, tc.declared, protocol.Reply{Event: tc.ev, Command: "./h.sh", Stdout: []byte(tc.stdout)})
			got := ""
			if c != nil {
				got = string(pyjson.Encode(c, pyjson.Compact))
			}
			if got != tc.want {
				t.Errorf("contribution = %s, want %s (note %q)", got, tc.want, note)
			}
			rep := protocol.HookReport{Ran: true, ExitCode: &zero, Note: note, Contribution: c}
			if failed := rep.Failure() != ""; failed != tc.failed {
				t.Errorf("failed = %v, want %v (note %q)", failed, tc.failed, note)
			}
		})
	}
}

// FuzzCodexCodecParseReply: no reply, on any event Codex has, makes a
// Codex hooks file's PreToolUse hook approve a call.
func FuzzCodexCodecParseReply(f *testing.F) {
	for _, s := range []string{`{"decision":"approve"}`, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`,
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{}}}`, `{oops`, ``} {
		f.Add(s, "PreToolUse", 0)
	}
	codex, _ := Lookup("codex")
	f.Fuzz(func(t *testing.T, stdout, declared string, exit int) {
		ev, ok := codex.Canonical(declared)
		if !ok {
			return
		}
		c, _ := parseReply(codexCodec{}, declared, protocol.Reply{Event: ev, Command: "x", ExitCode: exit, Stdout: []byte(stdout)})
		if c != nil && c.Decision == protocol.DecisionAllow && strings.EqualFold(declared, "PreToolUse") {
			t.Fatalf("PreToolUse reply %q approves: %+v", stdout, c)
		}
	})
}

// The codecs that read through the Claude dialect say, beside the note,
// that a reply refused in words it does not read (protocol.ReplyReader):
// the dispatcher marks the hook failed by that, not by the note's text.
func TestClaudeCodecsReadForeignRefusal(t *testing.T) {
	ev, _ := protocol.Lookup("pre_tool_call")
	r := protocol.Reply{Event: ev, Command: "./h.sh", Stdout: []byte(`{"permission":"deny"}`)}
	for _, c := range []protocol.Codec{codexCodec{}, claudeRenamed{dialect: "qwen"}} {
		rr, ok := c.(protocol.ReplyReader)
		if !ok {
			t.Fatalf("%s: no ReadReply", c.Dialect())
		}
		if rd := rr.ReadReply("PreToolUse", r); rd.Foreign == "" || !strings.Contains(rd.Note, rd.Foreign) {
			t.Errorf("%s: Foreign = %q, note %q: want the refusal, in the note", c.Dialect(), rd.Foreign, rd.Note)
		}
	}
}
