package agents

import (
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
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
// is a rewrite; the approval stays the agent's own. And a patch in patch
// mode is Codex's apply_patch call, as Codex gives it to its hooks: named
// apply_patch, the envelope in tool_input.command, matched as apply_patch,
// Write and Edit. Everything else is the Claude dialect's: the payload,
// the matcher's subject, the project variable.
type codexCodec struct{}

// Dialect: the scripts speak Claude Code's protocol (list, the journal and
// approvals name them so).
func (codexCodec) Dialect() protocol.Dialect { return protocol.Claude }

func (codexCodec) ProjectVars() []string { return []string{"CLAUDE_PROJECT_DIR"} }

// Payload is the Claude dialect's, but for a patch in patch mode (Codex's
// own apply_patch call, or any agent's envelope: codexPatchText), which a
// Codex hook sees as Codex gives it its apply_patch call: tool_name
// apply_patch, the envelope as tool_input.command.
func (codexCodec) Payload(_ string, ev *protocol.Event, fields map[string]any, env protocol.PayloadEnv) []byte {
	obj := protocol.ClaudePayload(ev, fields, env)
	if patch, ok := codexPatchText(ev, fields, env.Tools); ok {
		for i := range obj {
			switch obj[i].Key {
			case "tool_name":
				obj[i].Value = codexApplyPatch
			case "tool_input":
				obj[i].Value = map[string]any{"command": patch}
			}
		}
	}
	return protocol.EncodePayload(protocol.Claude, obj)
}

// MatchSubject is the Claude dialect's, but apply_patch for the calls
// Codex presents as its apply_patch (Payload).
func (codexCodec) MatchSubject(_ string, ev *protocol.Event, fields map[string]any, tools *protocol.ToolTable) (string, bool) {
	if ev.ClaudeMatchOn == "tool_name" {
		if _, ok := codexPatchText(ev, fields, tools); ok {
			return codexApplyPatch, true
		}
	}
	return protocol.ClaudeMatchQuery(ev, fields, tools)
}

// codexApplyPatchNames are what Codex compares a hook's matcher with for an
// apply_patch call: the name and its matcher aliases
// (codex-rs HookToolName::apply_patch: Write and Edit).
var codexApplyPatchNames = []string{codexApplyPatch, "Write", "Edit"}

// MatchAliases: an apply_patch call fits a matcher of apply_patch, Write
// or Edit, as in Codex (protocol.MatchAliases).
func (codexCodec) MatchAliases(_ string, subject string) []string {
	if subject == codexApplyPatch {
		return codexApplyPatchNames
	}
	return nil
}

const codexApplyPatch = "apply_patch"

// ReadArgs: a rewrite of a call the hook saw as apply_patch,
// {"command": <patch>}, is the patch tool's arguments again (the host's:
// encodeCodex turns them back into Codex's); any other passes as it is
// (protocol.ArgsReader).
func (codexCodec) ReadArgs(_ string, ev *protocol.Event, fields map[string]any, tools *protocol.ToolTable, updated map[string]any) map[string]any {
	patch, ok := updated["command"].(string)
	if _, was := codexPatchText(ev, fields, tools); !ok || !was || len(updated) != 1 {
		return updated
	}
	return map[string]any{"mode": "patch", "patch": patch}
}

// codexPatchText is the envelope of a tool firing Codex would present as
// its apply_patch call: the canonical patch tool (decodeCodex's
// codexPatchTool) in its patch mode, {mode: "patch", patch: <envelope>}.
// Any other call (a Claude Edit, Hermes' patch in replace mode) has no
// apply_patch form and keeps the Claude dialect's.
func codexPatchText(ev *protocol.Event, fields map[string]any, tools *protocol.ToolTable) (string, bool) {
	if ev == nil || !ev.Tool {
		return "", false
	}
	f := protocol.NewFiring(ev, "", fields)
	if !f.HasTool || tools.Hermes(f.HostTool) != codexPatchTool {
		return "", false
	}
	args, _ := f.Args.(map[string]any)
	if mode, _ := args["mode"].(string); mode != "patch" {
		return "", false
	}
	patch, ok := args["patch"].(string)
	return patch, ok
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
		rd.Contribution, rd.Note = nil, textutil.JoinNonEmpty("; ", rd.Note, codexNoApproval)
		return rd
	}
	// A rewrite, not an approval.
	c.Decision, c.Message = "", ""
	return rd
}
