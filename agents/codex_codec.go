package agents

import (
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// codexCodec is how the hooks of a Codex hooks.json (codex_hooks:) talk:
// Claude Code's payload and reply, read as Codex 0.169 reads the reply. It
// differs from the Claude dialect in one way that matters wherever the
// hook runs: Codex has no plain approval before a tool. A PreToolUse reply
// with permissionDecision "allow" and no updatedInput (or the legacy
// decision "approve") fails its schema — the hook fails and the normal
// approval follows — so such a hook must not auto-approve a call under
// another agent either (issue 31, item 10). Its "allow" with updatedInput
// is a rewrite; the approval stays the agent's own. Everything else is the
// Claude dialect's: the payload, the matcher's subject, the project
// variable.
type codexCodec struct{}

// Dialect: the scripts speak Claude Code's protocol (list, the journal and
// approvals name them so).
func (codexCodec) Dialect() protocol.Dialect { return protocol.Claude }

func (codexCodec) ProjectVars() []string { return []string{"CLAUDE_PROJECT_DIR"} }

func (codexCodec) Payload(_ string, ev *protocol.Event, fields map[string]any, env protocol.PayloadEnv) []byte {
	return protocol.BuildPayload(protocol.Claude, ev, fields, env)
}

func (codexCodec) MatchSubject(_ string, ev *protocol.Event, fields map[string]any, tools *protocol.ToolTable) (string, bool) {
	return protocol.ClaudeMatchQuery(ev, fields, tools)
}

// codexNoApproval is the note of a PreToolUse reply Codex rejects for
// approving: its wording makes the report a failed hook (HookReport.Failure).
const codexNoApproval = `hook output failed validation: Codex rejects permissionDecision "allow" without updatedInput (and decision "approve") on PreToolUse; the hook fails and the normal approval follows`

// ReadReply reads one run of such a hook as the Claude dialect does, with
// what the parser knew beside the note (protocol.ReplyReader).
func (codexCodec) ReadReply(declared string, r protocol.Reply) protocol.Read {
	r.Dialect = protocol.Claude
	rd := protocol.ReadReply(r)
	c := rd.Contribution
	if c == nil || c.Decision != protocol.DecisionAllow || codexEvents()[declared].reply != codexPreTool {
		return rd
	}
	if c.Args == nil {
		rd.Contribution, rd.Note = nil, joinNote(rd.Note, codexNoApproval)
		return rd
	}
	// A rewrite, not an approval.
	c.Decision, c.Message = "", ""
	return rd
}

func joinNote(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}
