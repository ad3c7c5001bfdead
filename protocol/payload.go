package protocol

import (
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// PayloadEnv is what payload building needs to know about the dispatcher's
// surroundings; protocol itself reads nothing from the process.
type PayloadEnv struct {
	// Cwd is the dispatcher's working directory, used when the host sends no
	// "cwd" field.
	Cwd string
	// Profile is the Hermes profile name ("" means "default").
	Profile string
	// Tools translates tool names between dialects (nil: the defaults).
	Tools *ToolTable
}

// hermesPromoted are the host fields the Hermes payload lifts out of extra.
// cwd and profile are promoted too, when they are strings: a host that runs
// hermes-hooks as a separate process knows its own working directory and
// profile better than we do.
var hermesPromoted = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"tool_name": true, "args": true, "tool_input": true,
		"session_id": true, "parent_session_id": true,
	}
})

// gatewayPromoted are the fields a gateway event's Hermes payload lifts
// out of extra: the session only.
var gatewayPromoted = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"session_id": true, "parent_session_id": true}
})

// SessionValue is the session a payload names, as the host sent it:
// session_id when truthy, else parent_session_id when truthy, else "".
// A payload passes a non-string id through; Firing.Session is the string.
func SessionValue(fields map[string]any) any {
	return sessionValue(fields)
}

// SessionID is the session a firing belongs to (Firing.Session): the
// session value when it is a string, else "".
func SessionID(fields map[string]any) string {
	s, _ := sessionValue(fields).(string)
	return s
}

func sessionValue(fields map[string]any) any {
	if v := fields["session_id"]; truthy(v) {
		return v
	}
	if v := fields["parent_session_id"]; truthy(v) {
		return v
	}
	return ""
}

func stringField(fields map[string]any, key, fallback string) string {
	if s, ok := fields[key].(string); ok {
		return s
	}
	return fallback
}

// HermesPayload builds the Hermes wire payload: hook_event_name, tool_name,
// tool_input (the args only when they are a mapping), session_id (with the
// parent_session_id fallback), cwd, profile, and every other host field
// under extra (sorted by key).
func HermesPayload(ev *Event, fields map[string]any, env PayloadEnv) Object {
	var toolName any
	if v, ok := fields["tool_name"]; ok && !ev.Gateway {
		toolName = v
		if s, ok := v.(string); ok {
			toolName = env.Tools.Hermes(s)
		}
	}
	promoted := hermesPromoted()
	if ev.Gateway {
		// A gateway event's context is no tool call's: its "args" are a
		// slash command's (command:*), and stay with the other fields.
		promoted = gatewayPromoted()
	}
	var toolInput any
	if a := NewFiring(ev, "", fields).Args; a != nil && !ev.Gateway {
		if m, ok := a.(map[string]any); ok {
			toolInput = m
		}
	}
	profile := env.Profile
	if profile == "" {
		profile = "default"
	}
	profile = stringField(fields, "profile", profile)
	cwd := stringField(fields, "cwd", env.Cwd)

	extra := make(Object, 0, len(fields))
	for _, k := range sortedKeys(fields) {
		if promoted[k] || hermesOmitted()[k] {
			continue
		}
		if _, isStr := fields[k].(string); isStr && (k == "cwd" || k == "profile") {
			continue
		}
		extra = append(extra, KV{k, fields[k]})
	}
	obj := Object{
		{"hook_event_name", ev.Name},
		{"tool_name", toolName},
		{"tool_input", toolInput},
		{"session_id", sessionValue(fields)},
		{"cwd", cwd},
	}
	if _, hostSaid := fields["profile"].(string); hostSaid || env.Profile != "" {
		// Hermes sends its active profile; a host that has none (or an
		// older Hermes) sends no such key, and neither do we.
		obj = append(obj, KV{"profile", profile})
	}
	return append(obj, KV{"extra", extra})
}

// hermesOmitted are fields a Hermes-dialect payload never carries: Claude's
// stop_hook_active (the dispatcher adds it for Claude stop hooks; Hermes
// has no such key).
var hermesOmitted = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"stop_hook_active": true}
})

// ClaudePayload builds the Claude Code stdin object: the common fields
// (session_id, transcript_path, cwd, permission_mode, hook_event_name in
// Claude naming), the event's own fields (derived from Hermes-host fields
// when the host did not send Claude's), then every other host field at top
// level, sorted, as Claude Code scripts ignore keys they do not know.
func ClaudePayload(ev *Event, fields map[string]any, env PayloadEnv) Object {
	obj := make(Object, 0, 8+len(fields))
	done := map[string]bool{"args": true, "tool_input": true}
	add := func(k string, v any) {
		obj = append(obj, KV{k, v})
		done[k] = true
	}
	add("session_id", sessionValue(fields))
	add("transcript_path", stringField(fields, "transcript_path", ""))
	add("cwd", stringField(fields, "cwd", env.Cwd))
	add("permission_mode", stringField(fields, "permission_mode", "default"))
	add("hook_event_name", ev.ClaudeName())
	// Claude Code's newer common fields, in its order, when the host has
	// them (a Claude Code host always does; a Hermes host may).
	for _, k := range []string{"prompt_id", "effort", "agent_id", "agent_type"} {
		if v, ok := fields[k]; ok {
			add(k, v)
		}
	}

	if ev.Tool {
		toolName := fields["tool_name"]
		if s, ok := toolName.(string); ok {
			toolName = env.Tools.Claude(s)
		}
		add("tool_name", toolName)
		input := map[string]any{}
		if f := NewFiring(ev, "", fields); f.ArgsMap() != nil {
			input = f.ArgsMap()
		}
		add("tool_input", claudeToolInput(toolName, input))
		if v, ok := fields["tool_use_id"]; ok {
			add("tool_use_id", v)
		} else if v, ok := fields["tool_call_id"]; ok {
			add("tool_use_id", v)
		}
	}
	for _, f := range ev.ClaudeFields {
		leaveOutAliases(fields, f, done)
		if done[f.Name] {
			continue // a common field the host sent (agent_id, agent_type)
		}
		if v, ok := claudeField(ev, fields, f.Name); ok {
			add(f.Name, v)
		}
	}
	for _, k := range sortedKeys(fields) {
		if !done[k] {
			obj = append(obj, KV{k, fields[k]})
		}
	}
	return obj
}

// leaveOutAliases marks done the Hermes fields f is derived from that
// hold what the host sent as f itself: the names an agent's decode adds
// beside Claude Code's fields for Hermes-dialect hooks (user_message
// beside prompt, final_response beside last_assistant_message), which a
// Claude Code script never gets from Claude Code. A Hermes host's field
// with a value of its own stays.
func leaveOutAliases(fields map[string]any, f ClaudeField, done map[string]bool) {
	v, ok := fields[f.Name].(string)
	if !ok {
		return
	}
	for _, from := range f.From {
		if s, isStr := fields[from].(string); isStr && s == v {
			done[from] = true
		}
	}
}

// claudeFileTools are the Claude tools whose input names the file
// "file_path" where the Hermes twins say "path".
var claudeFileTools = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"Read": true, "Write": true, "Edit": true, "MultiEdit": true}
})

// ClaudeToolInput gives a Hermes host's file-tool arguments the name
// Claude scripts and rules read (tool_input.file_path), keeping "path".
func ClaudeToolInput(toolName string, input map[string]any) map[string]any {
	return claudeToolInput(toolName, input)
}

// claudeToolInput gives a Hermes host's file-tool arguments the name Claude
// scripts read (tool_input.file_path), keeping "path" as it was.
func claudeToolInput(toolName any, input map[string]any) map[string]any {
	name, _ := toolName.(string)
	if !claudeFileTools()[name] {
		return input
	}
	p, ok := input["path"]
	if _, has := input["file_path"]; has || !ok {
		return input
	}
	out := make(map[string]any, len(input)+1)
	for k, v := range input {
		out[k] = v
	}
	out["file_path"] = p
	return out
}

// HostArgs maps a Claude hook's updatedInput back to the host's argument
// names: when the host's own arguments said "path" (a Hermes host), a
// "file_path" in the update becomes "path" again.
func HostArgs(original any, updated map[string]any) map[string]any {
	orig, ok := original.(map[string]any)
	if !ok {
		return updated
	}
	_, hostPath := orig["path"]
	_, hostFilePath := orig["file_path"]
	fp, ok := updated["file_path"]
	if !hostPath || hostFilePath || !ok {
		return updated
	}
	out := make(map[string]any, len(updated))
	for k, v := range updated {
		if k != "file_path" {
			out[k] = v
		}
	}
	out["path"] = fp
	return out
}

// claudeField returns the Claude field key for ev: the host's own value when
// it sent one, else the value derived from Hermes-host fields as the
// event's catalog row says (Event.ClaudeFields). It is used both for
// payloads and for what a Claude matcher compares against.
func claudeField(ev *Event, fields map[string]any, key string) (any, bool) {
	if v, ok := fields[key]; ok {
		return v, true
	}
	for _, f := range ev.ClaudeFields {
		if f.Name != key {
			continue
		}
		conv := claudeFieldFrom()[key]
		for _, k := range f.From {
			v, ok := fields[k]
			if !ok {
				continue
			}
			if conv != nil {
				if v, ok = conv(v); ok {
					return v, true
				}
			} else if v != nil {
				return v, true
			}
		}
		if f.Default != nil {
			return f.Default, true
		}
	}
	return nil, false
}

// ClaudeFieldValue is the Claude field key of a firing of ev, as a Claude
// payload shows it (claudeField): for a codec that feeds one hook's change
// to the next (Sequencer).
func ClaudeFieldValue(ev *Event, fields map[string]any, key string) (any, bool) {
	return claudeField(ev, fields, key)
}

// claudeFieldFrom converts a Hermes host's value into a Claude field's
// shape, for the fields whose shapes differ (keyed by the Claude field).
var claudeFieldFrom = sync.OnceValue(func() map[string]func(any) (any, bool) {
	return map[string]func(any) (any, bool){
		// Hermes' result is a string; Claude's tool_response is the tool's
		// JSON value when the string holds one.
		"tool_response": func(v any) (any, bool) {
			if s, ok := v.(string); ok {
				if d, err := pyjson.Decode([]byte(s)); err == nil {
					return d, true
				}
				return s, true
			}
			return v, v != nil
		},
		// Hermes' user_message may be a list of content parts; Claude's prompt
		// is text.
		"prompt": func(v any) (any, bool) { return userMessageText(v), true },
	}
})

// userMessageText flattens a Hermes user_message (a string, or a list of
// content parts) into the prompt text Claude hooks expect.
func userMessageText(v any) any {
	parts, ok := v.([]any)
	if !ok {
		return v
	}
	var texts []string
	for _, p := range parts {
		switch x := p.(type) {
		case string:
			texts = append(texts, x)
		case map[string]any:
			if t, ok := x["text"].(string); ok {
				texts = append(texts, t)
			}
		}
	}
	return strings.Join(texts, "\n")
}

// ClaudeMatchQuery returns what a Claude-dialect matcher is compared against
// for ev (Claude reference §2.2): the Claude tool name on tool events, the
// session source, the end reason, the agent type, the base name of a changed
// file, …. ok is false for events whose matchers Claude Code ignores.
func ClaudeMatchQuery(ev *Event, fields map[string]any, tools *ToolTable) (string, bool) {
	switch ev.ClaudeMatchOn {
	case "":
		return "", false
	case "tool_name":
		return tools.Claude(NewFiring(ev, "", fields).HostTool), true
	case "file_path":
		s, _ := fields["file_path"].(string)
		if s == "" {
			return "", true
		}
		return path.Base(s), true
	}
	v, _ := claudeField(ev, fields, ev.ClaudeMatchOn)
	s, _ := v.(string)
	return s, true
}

// EncodePayload encodes a payload the way the dialect's own host writes it:
// Hermes as Python's json.dumps (", "/": " separators, raw UTF-8, no trailing
// newline), Claude as JSON.stringify plus one "\n".
func EncodePayload(d Dialect, payload Object) []byte {
	if d == Claude {
		return append(pyjson.Append(nil, payload, pyjson.Compact), '\n')
	}
	return pyjson.Append(nil, payload, pyjson.Python)
}

// BuildPayload is the payload object for the dialect, encoded.
func BuildPayload(d Dialect, ev *Event, fields map[string]any, env PayloadEnv) []byte {
	if d == Claude {
		return EncodePayload(d, ClaudePayload(ev, fields, env))
	}
	return EncodePayload(d, HermesPayload(ev, fields, env))
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// IsClaudeNameList reports whether a Claude Code matcher is a list of exact
// names (only letters, digits, "_", "|", ",", "-" and spaces), split on "|"
// and ","; any other matcher is a JavaScript regex. Event.ClaudeNameList is
// the rule of one event.
func IsClaudeNameList(m string) bool { return nameList(m, false) }

// ClaudeNameList is IsClaudeNameList as Claude Code applies it on e: where
// it kept its older, narrower set (ClaudeNarrowNames) a "-", "," or space
// makes the matcher a regex.
func (e *Event) ClaudeNameList(m string) bool { return nameList(m, e != nil && e.ClaudeNarrowNames) }

func nameList(m string, narrow bool) bool {
	for _, r := range m {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case r == '_', r == '|':
		case !narrow && (r == ',' || r == '-' || r == ' '):
		default:
			return false
		}
	}
	return true
}
