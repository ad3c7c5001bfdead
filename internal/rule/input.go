package rule

import "github.com/hermes-hooks/hermes-hooks/protocol"

// InputOf is what a rule sees of a bound firing: its event, the tool by
// its canonical (Hermes) name and as the host named it, the arguments
// (nil unless they are a JSON object), the session, the working directory
// the firing was bound to, the calling agent ("" when unknown) and the
// host's fields as sent (payload).
func InputOf(f *protocol.Firing, agent string) *Input {
	in := &Input{
		Tool:      f.Tool,
		ToolName:  f.HostTool,
		Args:      f.ArgsMap(),
		SessionID: f.Session,
		Cwd:       f.Cwd,
		Agent:     agent,
		Payload:   f.Fields,
	}
	if f.Event != nil {
		in.Event = f.Event.Name
	}
	return in
}
