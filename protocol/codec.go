package protocol

// Codec is how the hook scripts of an agent's own hook file talk when the
// agent's protocol is none of the dialects above: Gemini CLI's event and
// tool names, its replies. Such a file is read in Claude Code's shape (its
// matcher groups and handlers), so its entries are run as Claude-dialect
// entries are — through the shell, in the session's directory — except for
// what the codec decides: the payload, how the reply reads, what the
// matcher is compared with and the variables naming the project. Package
// agents provides them (agents.Source.Codec); the dispatcher calls them
// for the entries that carry one, without knowing the agent.
type Codec interface {
	// Dialect names the scripts' dialect in list, the journal and messages.
	Dialect() Dialect
	// Payload is the stdin of a hook declared under the agent's event
	// declared, for a firing of its canonical event ev.
	Payload(declared string, ev *Event, fields map[string]any, env PayloadEnv) []byte
	// ParseReply reads one run of such a hook as the agent would; r.Event
	// is ev.
	ParseReply(declared string, r Reply) (*Contribution, string)
	// MatchSubject is what the entry's matcher is compared with for this
	// firing; ok is false when the agent ignores matchers on the event
	// (every firing fits).
	MatchSubject(declared string, ev *Event, fields map[string]any, tools *ToolTable) (subject string, ok bool)
	// ProjectVars are the environment variables the agent sets to the
	// project directory for its hooks.
	ProjectVars() []string
}
