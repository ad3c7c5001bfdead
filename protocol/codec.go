package protocol

// Codec is how the hook scripts of an agent's own hook file talk when the
// agent's protocol is neither the Hermes nor the Claude dialect: Cursor's
// or Gemini CLI's event and tool names, their replies. Such a file's
// entries (read in Claude Code's shape, or as an event's flat list of
// hooks: Cursor's) are run as Claude-dialect entries are — through the
// shell, in the session's directory, their matchers read by Claude Code's
// rule — except for what the codec decides: the payload, how the reply
// reads, what the matcher is compared with and the variables naming the
// project (and, with [EventRules], which firings an event stands for).
// Package agents provides them (agents.Source.Codec); hookconfig and the
// dispatcher call them for the entries that carry one, without knowing the
// agent.
type Codec interface {
	// Dialect names the scripts' dialect in list, the journal and messages.
	Dialect() Dialect
	// Payload is the stdin of a hook declared under the agent's event
	// declared, for a firing of its canonical event ev.
	Payload(declared string, ev *Event, fields map[string]any, env PayloadEnv) []byte
	// ReadReply reads one run of such a hook as the agent would (r.Event
	// is ev), with what the parser knew beside the note
	// (Read.Foreign): every codec says whether a reply refused in words it
	// does not read — the Claude dialect's through ReadReply, an agent's
	// own through CodecRead, from the words it declares (ReplyWords) —
	// so that a fail_closed guard refuses for it and any other hook is
	// reported failed, whichever agent's file it comes from.
	ReplyReader
	// MatchSubject is what the entry's matcher is compared with for this
	// firing; ok is false when the agent ignores matchers on the event
	// (every firing fits).
	MatchSubject(declared string, ev *Event, fields map[string]any, tools *ToolTable) (subject string, ok bool)
	// ProjectVars are the environment variables the agent sets to the
	// project directory for its hooks.
	ProjectVars() []string
}

// ReplyReader reads a codec's reply with what the parser knew beside the
// note (Read.Foreign), which the note's text cannot say. Every Codec is
// one.
type ReplyReader interface {
	ReadReply(declared string, r Reply) Read
}

// ReplyWords is what an agent's own dialect reads in a reply to one of its
// events: the codec's declaration, from which CodecRead finds a refusal in
// words it does not read, as the Hermes and Claude dialects' parsers do
// (reply_foreign.go). One table of other dialects' words serves them all.
type ReplyWords struct {
	// Keys are the top-level keys of refusal (refusalWords: decision,
	// continue, permission, cancel …) the codec's parser reads on the
	// event, spelt as it reads them: there it decided already. Any other
	// of them, and these in another case, it does not read. Listing
	// hookSpecificOutput says the parser reads it as the Claude dialect
	// does (its keys in another case are then named as such).
	Keys []string
	// Refusal is how a hook of the event refuses in the agent's own words
	// (`reply {"permission": "deny", …}`, `exit 2 with the reason on
	// stderr`), the fix messages name; "" where the agent's hooks cannot
	// refuse, where nothing is searched.
	Refusal string
}

// EventRules is what a Codec also implements when its agent's events do
// not stand one for one for their canonical events: Cursor's
// beforeShellExecution is pre_tool_call for shell commands only, and its
// stop hooks cannot refuse. The config reader and the dispatcher ask it
// for an entry whose Codec has it; the entries of other codecs follow the
// Claude dialect's rules here.
type EventRules interface {
	// Covers reports whether a firing of the canonical event is one the
	// agent's event declared stands for: a hook declared under it sees
	// only those, whatever its matcher.
	Covers(declared string, fields map[string]any, tools *ToolTable) bool
	// Refuses reports whether the hooks of declared can refuse what it
	// announces: where a fail-closed hook blocks when it fails.
	Refuses(declared string) bool
	// MatcherIgnored is why a matcher on declared (a firing of ev) is
	// ignored, for the config's warning; "" when the agent reads it.
	MatcherIgnored(declared string, ev *Event) string
}

// MatchAliases is what a Codec also implements when its agent compares an
// entry's matcher with more names than the subject (Codec.MatchSubject)
// for some firings: Codex matches its apply_patch call as apply_patch,
// Write and Edit. The matcher fits when it fits one of them.
type MatchAliases interface {
	// MatchAliases are the names a matcher is compared with for a firing
	// whose subject is subject, subject first; nil when it is the subject
	// alone.
	MatchAliases(declared string, subject string) []string
}

// ArgsReader is what a Codec also implements when the tool input its hooks
// see is not the firing's arguments for some calls (Codex's apply_patch:
// {"command": <patch>} for the patch tool's {mode: "patch", patch}).
type ArgsReader interface {
	// ReadArgs is a hook's rewrite (updatedInput, in the input's shape the
	// hook saw) as the firing's arguments.
	ReadArgs(declared string, ev *Event, fields map[string]any, tools *ToolTable, updated map[string]any) map[string]any
}

// Sequencer is what a Codec also implements when its agent can run an
// event's hooks one after another, each fed what the ones before it
// changed (Gemini CLI's `sequential: true`: once any hook selected for a
// firing asks for it, all of them run in order, and a hook that exited 0
// with a rewrite or context changes the next one's input). Without it a
// guard after a rewriting hook judged the call as the agent sent it, and
// the rewritten call the agent then ran was never judged.
type Sequencer interface {
	// NextFields are fields as the next hook of a sequence sees them,
	// after one declared under declared that exited 0 and whose reply
	// read as c.
	NextFields(declared string, ev *Event, fields map[string]any, c *Contribution) map[string]any
}

// CommandExpander is what a Codec also implements when its agent rewrites
// a hook's command text before its shell runs it, and sets variables of
// the firing for its hooks beside ProjectVars (Gemini CLI's expandCommand:
// '$GEMINI_PROJECT_DIR/…' names the script even in single quotes). The
// dispatcher expands the text once, and the consent gate resolves and
// pins the expanded text: what is approved is what runs.
type CommandExpander interface {
	// ExpandCommand is text as the agent hands it to its shell.
	ExpandCommand(text string, v HookVars) string
	// HookEnv are the firing's variables the agent sets for its hooks.
	HookEnv(v HookVars) map[string]string
}

// HookVars are what a CommandExpander fills in for one hook run.
type HookVars struct {
	// Project is the directory the entry's ProjectVars are set to.
	Project string
	// Session is the firing's session id ("" when none is known).
	Session string
	// PlansDir is the agent's plans folder ("" when not known).
	PlansDir string
	// PowerShell: the command runs through PowerShell, whose quoting the
	// expansion then uses.
	PowerShell bool
}
