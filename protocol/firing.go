package protocol

import (
	"maps"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// Firing is one event fired with the host's fields, read once: what
// matching, `if` rules, gating, the runner and the journal need of the
// host's map, typed. NewFiring is the only code that reads the keys it
// types (tool_name, args, tool_input, session_id, cwd) from a host's map
// (internal/layout's TestFieldsReadByTheFiringOnly holds that); payloads
// keep the raw Fields, so what a hook is shown passes through with the
// host's own keys and values.
//
// A Firing is a value: it lives on the dispatch's stack, and building one
// allocates nothing.
type Firing struct {
	Event *Event
	// Name is the name it was fired under: an alias, a gateway member
	// (command:model), or Event.Name.
	Name string
	// Fields are the host's fields as sent (for a gateway member such as
	// command:model fired without its command field, a copy with it set:
	// Event.MemberFields). Payloads and the journal pass them through.
	Fields map[string]any

	// HostTool is tool_name as the host spelt it; HasTool says the host
	// sent one as a string (a Hermes matcher with no tool name to compare
	// matches nothing; "" is a name). Tool and ClaudeTool are its Hermes
	// (canonical) and Claude Code names under the tool table Bind was
	// given: equal to HostTool until then.
	HostTool   string
	HasTool    bool
	Tool       string
	ClaudeTool string

	// Args are the tool's arguments: "args", else its alias "tool_input";
	// HasArgs says the host sent either key.
	Args    any
	HasArgs bool
	// argsSent and inputSent say which of the two keys the host sent,
	// the keys WithArgs writes; inputText that tool_input is a string.
	argsSent, inputSent, inputText bool

	// Session is session_id when truthy, else parent_session_id when
	// truthy, and "" when that value is no string.
	Session string

	// HostCwd is the host's cwd field when it is a non-empty string; Cwd
	// is the firing's working directory, set by Bind (see there for the
	// rule).
	HostCwd string
	Cwd     string
}

// NewFiring reads the host's fields of a firing of ev under the name
// fired (an alias, or a gateway member such as command:model; "" for ev's
// own name). It reads only: nothing of the process, no file. Bind then
// sets what depends on the dispatcher that runs it.
func NewFiring(ev *Event, fired string, fields map[string]any) Firing {
	if fired != "" {
		fields = ev.MemberFields(fired, fields)
	} else if ev != nil {
		fired = ev.Name
	}
	f := Firing{Event: ev, Name: fired, Fields: fields}
	if s, ok := fields["tool_name"].(string); ok {
		f.HostTool, f.HasTool = s, true
	}
	f.Tool, f.ClaudeTool = f.HostTool, f.HostTool
	if v, ok := fields["args"]; ok {
		f.Args, f.HasArgs, f.argsSent = v, true, true
		var in any
		in, f.inputSent = fields["tool_input"]
		_, f.inputText = in.(string)
	} else if v, ok := fields["tool_input"]; ok {
		f.Args, f.HasArgs, f.inputSent = v, true, true
		_, f.inputText = v.(string)
	}
	f.Session = SessionID(fields)
	if s, ok := fields["cwd"].(string); ok {
		f.HostCwd = s
	}
	return f
}

// Bind sets what the firing means to the dispatcher that runs it: the
// tool's names under its tool table (nil: the defaults), and the firing's
// working directory by the one rule every user of it shares (where a
// Claude-shaped hook runs, what an `if` rule's relative paths are relative
// to, the project the CLI loads, the journal's cwd): the host's cwd when
// it names a directory (isDir), else fallback, the dispatcher's own. A
// host's cwd that is no directory (a path that does not exist, a file)
// cannot be where the agent works: trusting it would run a guard's rule
// against one place and the hook in another, or load another project's
// hooks (none) than the one the agent is in. isDir is only asked when the
// host sent a cwd, so a firing without one touches no file.
//
// The payload a hook reads still shows the host's cwd field as sent: it
// is the host's word, passed through.
func (f *Firing) Bind(tools *ToolTable, fallback string, isDir func(string) bool) {
	if f.HasTool {
		f.Tool, f.ClaudeTool = tools.Hermes(f.HostTool), tools.Claude(f.HostTool)
	}
	f.Cwd = fallback
	if f.HostCwd != "" && isDir != nil && isDir(f.HostCwd) {
		f.Cwd = f.HostCwd
	}
}

// ArgsMap is the tool's arguments when they are a JSON object, else nil.
func (f *Firing) ArgsMap() map[string]any {
	m, _ := f.Args.(map[string]any)
	return m
}

// WithArgs is the firing's fields with the tool's arguments replaced by
// args, under each key the host sent them in (args when it sent none, the
// key NewFiring reads first): the call as a hook's rewrite makes it, for
// the rules that judge that call again (a payload that shows the rewritten
// arguments where the host's were). Every key, not only the one Args were
// read from: a Cursor host's fields hold its tool_input beside the args
// read from it, a Copilot CLI host's its toolArgs beside the tool_input,
// and a rule reading either judged the call as sent. Each keeps the form
// it came in: the JSON text of the object when the host sent text (Cursor's
// MCP tool_input, Copilot's toolArgs), so fromJSON(payload.toolArgs) reads
// the rewrite rather than failing on an object. A shallow copy: Fields is
// not changed.
func (f *Firing) WithArgs(args map[string]any) map[string]any {
	out := make(map[string]any, len(f.Fields)+1)
	maps.Copy(out, f.Fields)
	// A text tool_input keeps its form below, and NewFiring reads args
	// first: without args, the rewritten call's args were the text and a
	// rule reading args.command erred on it instead of judging.
	if f.argsSent || !f.inputSent || f.inputText {
		out["args"] = args
	}
	var text string // args' JSON text, made once if a host sent text
	for _, k := range echoKeys {
		v, ok := f.Fields[k]
		if !ok {
			continue
		}
		if _, isText := v.(string); !isText {
			out[k] = args
			continue
		}
		if text == "" {
			text = string(pyjson.Encode(args, pyjson.Compact))
		}
		out[k] = text
	}
	return out
}

// echoKeys are the keys besides args a host sends a tool's whole arguments
// under, as an object or its JSON text: Claude Code's (and Cursor's, Kiro's
// …) tool_input, and GitHub Copilot CLI's toolArgs, which its adapter
// decodes into tool_input and leaves in place for a hook or rule written
// against Copilot's own payload.
var echoKeys = [...]string{"tool_input", "toolArgs"}

// MergeFields sets extra's fields over into, as a person's fields go over
// a made-up payload (`test --payload-file`). A tool_input in extra with no
// args beside it is the call's arguments, set as args too: NewFiring reads
// args first, so into's own args would otherwise stand and the tool_input
// be a field beside them (the payload test prints names the arguments
// tool_input, as a hook reads them). inputAsArgs says it was.
func MergeFields(into, extra map[string]any) (inputAsArgs bool) {
	x := NewFiring(nil, "", extra)
	maps.Copy(into, extra)
	if x.inputSent && !x.argsSent {
		into["args"] = x.Args
		return true
	}
	return false
}
