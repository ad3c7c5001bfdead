package rule

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// InputOf is what a rule sees of a bound firing: its event, the tool by
// its canonical (Hermes) name and as the host named it (an agent's in Claude
// Code's spelling), the arguments
// (nil unless they are a JSON object), the session, the working directory
// the firing was bound to, the calling agent ("" when unknown) and the
// host's fields as sent (payload), their numbers as numbers (numbers).
func InputOf(f *protocol.Firing, agent string) *Input {
	payload, _ := numbers(f.Fields)
	args := argsIn(f.ArgsMap(), f.Fields, payload.(map[string]any))
	// An agent's call (hook AGENT) names its tool as Claude Code does,
	// whichever spelling the agent's adapter gave it: Cursor's, Windsurf's
	// and Cline's adapters give Hermes' (terminal), the others Claude
	// Code's (Gemini's run_shell_command is Bash). Read as the adapter
	// gave it, a Claude Code rule's tool_name == "Bash" (validate calls it
	// fine) let every Cursor, Windsurf and Cline shell command through.
	toolName := f.HostTool
	if agent != "" && f.HasTool {
		toolName = f.ClaudeTool
	}
	in := &Input{
		Tool:      f.Tool,
		ToolName:  toolName,
		Args:      args,
		SessionID: f.Session,
		Cwd:       f.Cwd,
		Agent:     agent,
		Payload:   payload.(map[string]any),
	}
	if f.Event != nil {
		in.Event = f.Event.Name
	}
	return in
}

// With is in with its payload's key set to v (v's numbers made numbers,
// as InputOf makes them): what InputOf gives for the same fields with key
// set, without reading the rest of a large payload again. Its args are
// in's, so key must not be a key the host sends its arguments under.
func (in *Input) With(key string, v any) *Input {
	out := *in
	out.Payload = maps.Clone(in.Payload)
	out.Payload[key], _ = numbers(v)
	return &out
}

// numbers is v with every json.Number in it made a number, as Python's
// json and a rule's examples (read from YAML) give it: an integer that
// fits as an int, any other as a float64. The host's fields are decoded
// with json.Number so that what is passed on keeps the host's bytes; to
// expr a json.Number is a string type, so `args.timeout > 600` failed and
// `args.timeout == 601` was false. What holds no number is v itself (no
// copy: a firing's large strings are not copied per rule pass); changed
// says whether anything was converted.
func numbers(v any) (out any, changed bool) {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil && int64(int(i)) == i {
			return int(i), true
		}
		f, _ := x.Float64() // out of range: ±Inf, as Python reads 1e400
		return f, true
	case map[string]any:
		var m map[string]any
		for k, e := range x {
			if n, ok := numbers(e); ok {
				if m == nil {
					m = maps.Clone(x)
				}
				m[k] = n
			}
		}
		if m != nil {
			return m, true
		}
	case []any:
		var s []any
		for i, e := range x {
			if n, ok := numbers(e); ok {
				if s == nil {
					s = slices.Clone(x)
				}
				s[i] = n
			}
		}
		if s != nil {
			return s, true
		}
	}
	return v, false
}

// argsIn is args with its numbers made numbers: the copy numbers made of
// it in the payload when the host sent it as a field (tool_input, args),
// so that a payload of many numbers is not copied twice.
func argsIn(args, fields, payload map[string]any) map[string]any {
	if args == nil {
		return nil
	}
	for k, v := range fields {
		if m, ok := v.(map[string]any); ok && len(m) == len(args) && reflect.ValueOf(m).UnsafePointer() == reflect.ValueOf(args).UnsafePointer() {
			if c, ok := payload[k].(map[string]any); ok {
				return c
			}
		}
	}
	c, _ := numbers(args)
	return c.(map[string]any)
}
