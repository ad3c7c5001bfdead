package agents

import (
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// copilotIsCamel reports whether a Copilot hook file declared the event in
// camelCase (preToolUse, agentStop …), Copilot's primary spelling, whose
// hooks Copilot CLI 1.0.102 sends its camelCase payload; a PascalCase name
// (PreToolUse …) gets Claude Code's snake_case one.
func copilotIsCamel(declared string) bool {
	return declared != "" && !protocol.IsClaudeName(declared)
}

// copilotSnake maps the snake_case (Claude) field names to Copilot's
// camelCase ones: the inverse of copilotCamel, so the two directions
// cannot drift apart.
var copilotSnake = sync.OnceValue(func() map[string]string {
	m := make(map[string]string, len(copilotCamel()))
	for camel, snake := range copilotCamel() {
		m[snake] = camel
	}
	return m
})

// copilotPayload is the camelCase payload Copilot CLI sends a hook declared
// under declared (camelCase): Claude Code's payload, built from the same
// fields, with Copilot's names — sessionId, timestamp (epoch ms), toolName
// (Copilot's runtime name: bash, view, edit …; others keep theirs),
// toolArgs (the JSON text of the arguments), toolResult {resultType,
// textResultForLlm}, transcriptPath … — and no event name but on
// notification. Copilot sends no permission_mode. Keys keep Claude's
// payload order, so the journal's payload is deterministic.
func copilotPayload(declared string, ev *protocol.Event, fields map[string]any, env protocol.PayloadEnv) []byte {
	claude := protocol.ClaudePayload(ev, fields, env)
	out := make(protocol.Object, 0, len(claude)+1)
	seen := make(map[string]bool, len(claude)+1)
	add := func(k string, v any) {
		if !seen[k] {
			seen[k] = true
			out = append(out, protocol.KV{Key: k, Value: v})
		}
	}
	tool := ""
	for _, kv := range claude {
		switch kv.Key {
		case "session_id":
			add("sessionId", kv.Value)
			add("timestamp", copilotTimestamp(fields["timestamp"]))
		case "timestamp", "permission_mode":
		case "hook_event_name":
			if declared == "notification" {
				add(kv.Key, kv.Value)
			}
		case "tool_name":
			v := kv.Value
			if s, ok := v.(string); ok {
				if r, ok := copilotRuntimeTools()[s]; ok {
					s = r
				}
				tool, v = s, s
			}
			add("toolName", v)
		case "tool_input":
			in, _ := kv.Value.(map[string]any)
			add("toolArgs", string(pyjson.Encode(copilotArgs(tool, in), pyjson.Compact)))
		case "tool_response":
			add("toolResult", protocol.Object{{Key: "resultType", Value: "success"},
				{Key: "textResultForLlm", Value: copilotResultText(fields["result"], kv.Value)}})
		default:
			if c, ok := copilotSnake()[kv.Key]; ok {
				add(c, kv.Value)
			} else {
				add(kv.Key, kv.Value)
			}
		}
	}
	return protocol.EncodePayload(protocol.Claude, out)
}

// copilotArgs are a call's arguments as Copilot's own tools name them
// beside the names they came with: its view, create and edit take path,
// file_text, old_str and new_str where Claude Code's Read, Write and Edit
// take file_path, content, old_string and new_string, so a guard written
// for Copilot reads the file it is about.
func copilotArgs(tool string, in map[string]any) map[string]any {
	if in == nil {
		return map[string]any{}
	}
	switch tool {
	case "view", "create", "edit":
	default:
		return in
	}
	var out map[string]any
	for own, from := range copilotFileArgs {
		v, ok := in[from]
		if _, has := in[own]; has || !ok {
			continue
		}
		if out == nil {
			out = make(map[string]any, len(in)+len(copilotFileArgs))
			for k, x := range in {
				out[k] = x
			}
		}
		out[own] = v
	}
	if out == nil {
		return in
	}
	return out
}

// copilotFileArgs are the argument names of Copilot's view, create and
// edit (path …) and the Claude Code names they stand for (file_path …).
var copilotFileArgs = map[string]string{"path": "file_path", "file_text": "content", "old_str": "old_string", "new_str": "new_string"}

// copilotReplyArgs are a camelCase hook's modifiedArgs in the host's
// names: the toolArgs it was sent hold both names of a file argument
// (copilotArgs), and a guard written for Copilot edits Copilot's, so where
// both come back Copilot's value is the one meant; left as they came, the
// stale file_path would undo a redirected path (protocol.HostArgs reads
// file_path). A name only one of them has is kept as it is.
func copilotReplyArgs(m map[string]any) map[string]any {
	var out map[string]any
	for own, from := range copilotFileArgs {
		v, ok := m[own]
		if _, has := m[from]; !ok || !has {
			continue
		}
		if out == nil {
			out = make(map[string]any, len(m))
			for k, x := range m {
				out[k] = x
			}
		}
		out[from] = v
		delete(out, own)
	}
	if out == nil {
		return m
	}
	return out
}

// copilotResultText is a tool result as text for the model: a Hermes
// host's result string, else Claude Code's tool_response (its JSON text
// when it is not a string).
func copilotResultText(result, response any) string {
	if s, ok := result.(string); ok {
		return s
	}
	if s, ok := response.(string); ok {
		return s
	}
	if response == nil {
		return ""
	}
	return string(pyjson.Encode(response, pyjson.Compact))
}

// copilotTimestamp is the call's time in epoch milliseconds, as Copilot's
// camelCase payload gives it: the host's own timestamp (a number as it
// is, an RFC 3339 time converted), else 0 — payloads are built from the
// host's fields alone, so that the same call gives the same payload.
func copilotTimestamp(v any) any {
	switch x := v.(type) {
	case json.Number:
		return x
	case float64, int64, int:
		return x
	case string:
		if t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(x)); err == nil {
			return t.UnixMilli()
		}
	}
	return int64(0)
}
