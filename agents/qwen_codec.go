package agents

import (
	"maps"
	"strings"
	"unicode"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// qwenReadReply reads one run of a hook of a Qwen settings file as Qwen
// Code 0.24 reads it (HookRunner's command hook, then the output class of
// the event), rather than as Claude Code would:
//
//   - the text read is stderr at exit 2, else stdout, or stderr when stdout
//     is empty; JSON there (or JSON in a JSON string) is the reply whatever
//     the exit code. Text starting with "{" that is not JSON is ignored (at
//     an exit other than 2); other text is, by exit code: 0 a message (on
//     SessionStart, UserPromptSubmit, UserPromptExpansion: context), 2 a
//     refusal with the text as its reason, anything else a warning;
//   - hookSpecificOutput is read without hookEventName;
//   - a top-level decision "deny" or "block" refuses on every event that
//     reads decision; on PreToolUse "ask" asks and "allow"/"approve"
//     allows, hookSpecificOutput.permissionDecision (allow, deny, ask)
//     taking precedence, its permissionDecisionReason else reason the
//     reason.
//
// The object Qwen reads is then written in Claude Code's words and read by
// the Claude dialect, which knows each event's fields.
func qwenReadReply(declared string, r protocol.Reply) protocol.Read {
	if r.Event == nil || r.SpawnError != "" || r.TimedOut || r.HTTP != nil || r.StdoutTruncated {
		r.Dialect = protocol.Claude
		return protocol.ReadReply(r)
	}
	out, note := qwenOutput(declared, r)
	if out == nil {
		rd := protocol.Read{Note: note}
		if r.FailClosed && note != "" && r.Event.Can(protocol.CapBlock|protocol.CapContinue) {
			rd.Contribution = protocol.FailedClosed(r.Command, note)
		}
		return rd
	}
	claude, extra, foreign := qwenAsClaude(declared, r.Event, out)
	cr := r
	cr.Dialect, cr.ExitCode, cr.Stderr = protocol.Claude, 0, nil
	cr.Stdout = pyjson.Encode(claude, pyjson.Compact)
	rd := protocol.ReadReply(cr)
	rd.Note = textutil.JoinNonEmpty("; ", textutil.JoinNonEmpty("; ", note, extra), rd.Note)
	if foreign != "" && rd.Foreign == "" {
		// A refusal Qwen does not read here: a fail_closed guard meant
		// one, and refuses.
		rd.Foreign = foreign
		if r.FailClosed && r.Event.Can(protocol.CapBlock|protocol.CapContinue) && (rd.Contribution == nil || rd.Contribution.Decision != protocol.DecisionBlock) {
			rd.Contribution = protocol.FailedClosed(r.Command, extra)
		}
	}
	return rd
}

// qwenTrim is JavaScript's String.prototype.trim.
func qwenTrim(b []byte) string {
	return strings.TrimFunc(string(b), func(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' })
}

// qwenOutput is the output object Qwen takes from a run (nil: none, note
// why when it is not simply silent).
func qwenOutput(declared string, r protocol.Reply) (map[string]any, string) {
	stdout := qwenTrim(r.Stdout)
	text, fromStdout := stdout, stdout != ""
	if r.ExitCode == 2 || stdout == "" {
		text, fromStdout = qwenTrim(r.Stderr), false
	}
	if text == "" {
		if r.ExitCode == 2 {
			// Qwen reads no output, and so no refusal.
			return nil, "hook exited with status 2 and nothing on stderr: Qwen Code reads no reply"
		}
		if r.ExitCode != 0 {
			return nil, "hook " + protocol.ExitText(r.ExitCode) + " with no output"
		}
		return nil, ""
	}
	out, isJSON, amb := geminiJSON(text)
	var note string
	if amb != "" {
		note = protocol.AmbiguousNote(amb, text)
	}
	switch {
	case out != nil:
		return out, note
	case amb == "" && !isJSON && r.ExitCode != 2 && strings.HasPrefix(text, "{"):
		return nil, "hook output starts like a JSON object but is not valid JSON; ignored"
	}
	switch r.ExitCode {
	case 0:
		if fromStdout && qwenPlainTextContext[declared] {
			return map[string]any{"hookSpecificOutput": map[string]any{"additionalContext": text}}, note
		}
		return map[string]any{"systemMessage": text}, note
	case 2:
		return map[string]any{"decision": "deny", "reason": text}, note
	}
	return map[string]any{"systemMessage": "Warning: " + text}, note
}

// qwenPlainTextContext are the events where text on stdout at exit 0 is
// context for the model (Qwen's PLAIN_TEXT_CONTEXT_EVENTS), not a message.
var qwenPlainTextContext = map[string]bool{"SessionStart": true, "UserPromptSubmit": true, "UserPromptExpansion": true}

// qwenAsClaude writes the object Qwen read in the words Claude Code reads
// for the same effect (extra: what had none; foreign: a refusal among it).
func qwenAsClaude(declared string, ev *protocol.Event, out map[string]any) (_ map[string]any, extra, foreign string) {
	c := maps.Clone(out)
	hso, _ := out["hookSpecificOutput"].(map[string]any)
	hso = maps.Clone(hso)
	d, _ := out["decision"].(string)
	delete(c, "decision")
	if qwenEvents()[declared].reply == qwenPreTool {
		perm, reason := qwenPermissionDecision(out, hso)
		delete(c, "reason")
		delete(hso, "permissionDecision")
		delete(hso, "permissionDecisionReason")
		if perm != "" {
			if hso == nil {
				hso = map[string]any{}
			}
			hso["permissionDecision"] = perm
			if reason != "" {
				hso["permissionDecisionReason"] = reason
			}
		}
	} else {
		shape := qwenEvents()[declared].reply
		reads := shape == qwenClaude || shape == qwenStop || shape == qwenTodo
		switch {
		case d == "":
		case reads && (d == "deny" || d == "block"):
			c["decision"] = "block"
		default:
			extra = "decision \"" + d + "\" has no effect on " + declared + " in Qwen Code"
			if d == "deny" || d == "block" {
				foreign = "decision \"" + d + "\""
			}
		}
	}
	if hso != nil {
		hso["hookEventName"] = ev.ClaudeName()
		c["hookSpecificOutput"] = hso
	}
	return c, extra, foreign
}

// qwenPermissionDecision is PreToolUseHookOutput's getPermissionDecision and
// getPermissionDecisionReason ("" for none).
func qwenPermissionDecision(out, hso map[string]any) (decision, reason string) {
	reason, _ = out["reason"].(string)
	if s, ok := hso["permissionDecisionReason"].(string); ok {
		reason = s
	}
	switch p, _ := hso["permissionDecision"].(string); p {
	case "allow", "deny", "ask":
		return p, reason
	}
	switch d, _ := out["decision"].(string); d {
	case "allow", "approve":
		return "allow", reason
	case "deny", "block":
		return "deny", reason
	case "ask":
		return "ask", reason
	}
	return "", reason
}

// qwenCodec is Qwen Code's codec: Claude Code's protocol with Qwen's
// names and reading (claudeRenamed), and its sequential groups.
type qwenCodec struct{ claudeRenamed }

// NextFields is what the next hook of a sequential run sees after one
// that exited 0 with reply c, as Qwen Code 0.24 feeds it
// (applyHookOutputToInput; qwenFeeds).
func (qwenCodec) NextFields(declared string, ev *protocol.Event, fields map[string]any, c *protocol.Contribution) map[string]any {
	feed, ok := qwenFeeds[declared]
	if !ok || c == nil || ev == nil {
		return fields
	}
	return feed(ev, fields, c)
}

// qwenFeeds are what a hook of a sequential run feeds the next, per Qwen
// event: PreToolUse's tool_input merged with the hook's
// hookSpecificOutput.tool_input (not its updatedInput, which decides the
// call), the prompt events' prompt with its additionalContext after a
// blank line. The other events feed nothing.
var qwenFeeds = map[string]func(ev *protocol.Event, fields map[string]any, c *protocol.Contribution) map[string]any{
	"PreToolUse": func(ev *protocol.Event, fields map[string]any, c *protocol.Contribution) map[string]any {
		in, _ := c.HookSpecific["tool_input"].(map[string]any)
		return withMergedArgs(ev, fields, in)
	},
	"UserPromptSubmit":    feedPromptContext,
	"UserPromptExpansion": feedPromptContext,
}

func feedPromptContext(ev *protocol.Event, fields map[string]any, c *protocol.Contribution) map[string]any {
	return withPromptContext(ev, fields, c.Context)
}
