package agents

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Agent is one agent's hook protocol.
type Agent struct {
	// Name is what `hermes-hooks hook NAME` and `install NAME` take.
	Name string
	// Title is the agent as people call it, for messages and docs.
	Title string
	// EventKey is the payload field that names the event ("" when the
	// agent does not send one: the event comes from the command line).
	EventKey string
	// Events maps the agent's event names to canonical event names. An
	// event missing here is not one hermes-hooks serves for this agent.
	Events map[string]string
	// HookFile is the agent's own hook configuration, which install edits.
	HookFile HookFile
	// HookTimeout is how long the agent waits for a command hook whose
	// entry sets no timeout, by its documentation or code (0: not
	// documented); EventTimeouts are the events that differ. Past it the
	// agent goes on without the answer: `hook AGENT` must answer before
	// (Timeout).
	HookTimeout   time.Duration
	EventTimeouts map[string]time.Duration
	// Source is how its hook files are named as hook sources of
	// hermes-hooks (the config key, the command-line flag).
	Source Source
	// ProjectEnv names the variable in which the agent tells its hooks
	// its project directory (CLAUDE_PROJECT_DIR), "" when it has none:
	// that project's hooks apply even when the payload's cwd has left it.
	ProjectEnv string
	// StartFolderOnly: the agent reads its project hook file (its project
	// settings) in the folder it starts in only, never in one above it,
	// git repository or not (e2e TestDoctorSubfolder: Claude Code's debug
	// log names <cwd>/.claude/settings.json and nothing above; Gemini CLI
	// and Qwen Code run no hook of the root's file from a subfolder). A
	// project's file then guards the sessions started in its folder alone.
	StartFolderOnly bool
	// NoBOM: the agent does not read its JSON files past a leading UTF-8
	// byte order mark (e2e TestBOMAgentFiles): Gemini CLI refuses such a
	// settings file ("not valid JSON") and exits; Copilot CLI ignores such
	// a hook file, its hooks unrun. SkipBOM consults it.
	NoBOM bool
	// EnvFileEnv names the variable holding the file in which the agent
	// collects its hooks' exports for the session (CLAUDE_ENV_FILE), ""
	// when it has none: hook AGENT appends the outcome's Env to it.
	EnvFileEnv string
	// CapsStopBlocks: the agent ends a turn itself after its own count of
	// consecutive stop-hook blocks (Claude Code since 2.1.143: 8, or
	// CLAUDE_CODE_STOP_HOOK_BLOCK_CAP, 0 for none; the count reset by a
	// continuation that ran a tool, which hermes-hooks cannot see). Its
	// calls leave the cap to it (protocol.HostCapsStops): hermes-hooks'
	// own, which knows neither the reset nor the variable, would end turns
	// the agent lets go on. Not for a Host that runs the agent's files.
	CapsStopBlocks bool
	// roots lists the project directories a payload names (Cursor's
	// workspace_roots); nil when the agent's payloads name none.
	roots func(payload map[string]any) []string
	// decode turns the agent's payload for one of its events into host
	// fields (the payload is the caller's to keep: decode copies).
	decode func(agentEvent string, ev *protocol.Event, payload map[string]any) map[string]any
	// encode turns an outcome into the agent's reply; a refusal (Deny) is
	// the encoding of a block.
	encode func(c *Call, o *protocol.Outcome) Reply
	// shapes are the agent's tools whose input guards read in another
	// shape, by the agent's name of the tool (shapes.go).
	shapes map[string]toolShape
	// textReplies: the agent reads a reply's exit code and plain text,
	// not JSON (Kiro CLI), and a failed hook's stderr is its warning to
	// the user (exit 1).
	textReplies bool
	// hosts are other programs that run this agent's hook file and so
	// call `hook AGENT` with payloads of their own (VS Code runs Claude
	// Code's settings); Decode tells them by their payload.
	hosts []*Host
	// notice is where the agent shows the person a line of hermes-hooks'
	// own (EncodeNotice).
	notice noticeChannel
	// skip reports a payload of a served event that is not dispatched
	// (nil: none is): Qwen Code's second TodoCreated for an item, sent
	// after the list is written, where nothing can refuse it any more.
	skip func(agentEvent string, payload map[string]any) bool
}

// Host is a program other than the agent that runs the agent's hook file
// itself and calls `hermes-hooks hook AGENT` from it with a payload of its
// own shape, reading the reply in a shape of its own.
type Host struct {
	Name, Title string
	// EventKey is the payload field that names the event.
	EventKey string
	// Timeout is how long the host waits for a hook whose entry sets
	// none (0: as the agent): it may be shorter than the agent's own.
	Timeout time.Duration
	// RunsFilesOf lists the agents whose hook files the host runs itself:
	// their entries are skipped when it calls (each hook runs once).
	RunsFilesOf []string
	// FileSettings are the files of a project (globs under its root) whose
	// settings may choose which hook files the host reads, and FileSetting
	// that setting's name: where one may name it (ChoosesFiles), the
	// host's call from another agent's file cannot be counted on.
	FileSettings []string
	FileSetting  string
	// is tells the host's payload from the agent's.
	is     func(payload map[string]any) bool
	decode func(agentEvent string, ev *protocol.Event, payload map[string]any) map[string]any
	encode func(c *Call, o *protocol.Outcome) Reply
	shapes map[string]toolShape
	notice noticeChannel
}

// Source is an agent's hook file read as a hook source of hermes-hooks:
// how it is named (the config key that lists such files, claude_settings:;
// the command-line flag that adds one, --claude-settings; how messages call
// them) and how it reads. hermes-hooks' config reader applies these rules
// (package agents does no I/O); the entries it reads are run by the agent
// itself, so `hermes-hooks hook AGENT` skips them.
type Source struct {
	ConfigKey, Flag, What string
	// FlagHelp is the flag's help text.
	FlagHelp string
	// Flat: the file is {"version": 1, "hooks": {EVENT: [hook …]}}, an
	// event's flat list of hooks, each with its own matcher (Cursor's
	// hooks.json), not Claude Code's settings shape (an event's list of
	// matcher groups {matcher, hooks: [handlers]}). Its hooks speak the
	// agent's own protocol: Codec is set.
	Flat bool
	// ProjectMarker is the folder of the agent's files in a project
	// (".claude"), found at most ProjectLevels directories above a file:
	// its parent is the project whose hooks they are ("" for the user's
	// own, in the home directory).
	ProjectMarker string
	ProjectLevels int
	// FlatToo: an event's list may hold handlers directly, each with its
	// own matcher, beside matcher groups (Copilot).
	FlatToo bool
	// Dir: a source named may be a folder of executables, each named
	// after the event it is the one hook of (Cline's hooks folder); each
	// such file is read as that event's one handler, the file run as it is.
	Dir bool
	// DirWindows is how the agent finds and starts the files of its hooks
	// folder on Windows (see DirRule; nil: a file named after its event
	// with a %PATHEXT% extension, started as a program).
	DirWindows *DirRule
	// Switches: the file's disableAllHooks and allowManagedHooksOnly apply
	// (Claude Code's settings).
	Switches bool
	// OnceIgnored: the agent ignores a handler's once in this file and
	// runs the hook on every event (Claude Code honours once only in a
	// skill's frontmatter: "ignored in settings files and agent
	// frontmatter", its hooks reference).
	OnceIgnored bool
	// StopGrace: the agent stops a hook of this file that passed its
	// timeout with SIGTERM to its tree and SIGKILL this long after (Claude
	// Code: 1.5 s), so a script that traps TERM can clean up; 0: SIGKILL.
	StopGrace time.Duration
	// Handler turns one of the file's handlers into a Claude Code handler
	// (nil: it is one); warn reports what cannot be kept. It returns nil
	// for a handler the agent itself discards (warn says why).
	Handler func(event string, h map[string]any, warn func(string)) map[string]any
	// Env reads the variables one of the file's handlers sets for its hook
	// (Gemini CLI's per-hook "env", merged over the agent's environment);
	// nil: the file's handlers set none. warn reports what cannot be kept.
	Env func(h map[string]any, warn func(string)) map[string]string
	// Matcher turns a matcher of the file into a Claude Code matcher (nil:
	// it is one).
	Matcher func(event, m string) string
	// UnknownEvent is the warning for an event name the agent has that
	// hermes-hooks does not serve (nil: the default wording).
	UnknownEvent func(name string) string
	// Event resolves an event name of the file (nil: the agent's own
	// names, Agent.Canonical).
	Event func(name string) (*protocol.Event, bool)
	// Document prepares the decoded file before its hooks are read (nil:
	// as it is): the hooks the agent's own switches turn off are taken
	// out (Gemini CLI's hooksConfig); warn reports what was.
	Document func(root map[string]any, warn func(path, msg string)) map[string]any
	// Sequential reports whether a matcher group of the file asks for its
	// hooks to run one after another (Gemini CLI's sequential: true); nil:
	// the file has no such key. Its entries are then hookconfig.Entry's
	// Sequential, and Codec is a protocol.Sequencer.
	Sequential func(group map[string]any) bool
	// Codec, when set, is how the file's hook scripts talk: the agent's own
	// protocol, not Claude Code's (Gemini CLI). Handler and Matcher make
	// the file's handlers and matchers Claude Code's; the entries then run
	// with the codec's payload, reply reading and matcher subject.
	Codec protocol.Codec
}

// SourceEvent resolves an event name of a's hook file.
func (a *Agent) SourceEvent(name string) (*protocol.Event, bool) {
	if a.Source.Event != nil {
		return a.Source.Event(name)
	}
	return a.Canonical(name)
}

// UnknownEventWarning is the warning for an event name of a's hook file that
// hermes-hooks does not serve.
func (a *Agent) UnknownEventWarning(name string) string {
	if a.Source.UnknownEvent != nil {
		return a.Source.UnknownEvent(name)
	}
	return "'" + name + "' is not a " + a.Title + " event hermes-hooks serves; skipped"
}

// Call is one hook invocation by an agent, decoded.
type Call struct {
	Agent *Agent
	// AgentEvent is the event as the agent named it.
	AgentEvent string
	// Event is its canonical event; nil when hermes-hooks has none for it.
	Event *protocol.Event
	// Fields are the host fields to dispatch with.
	Fields map[string]any
	// Sent is the payload as the agent sent it (not to be modified).
	Sent map[string]any
	// Roots are the project directories the payload names besides its
	// cwd (Cursor's workspace_roots).
	Roots []string
	// Host is the program that called when it is not the agent itself
	// (VS Code running Claude Code's settings); nil for the agent.
	Host *Host
	// refused, when set, receives why the encoding refused a call the
	// outcome did not block (refuses: Delivered's probe of an encoding).
	refused *string
}

// RunBy lists the agents whose hook files the caller runs itself, so that
// the dispatch skips their entries: the agent's own, or, for a host, every
// agent's whose files the host reads.
func (c *Call) RunBy() []string {
	if c.Host != nil {
		return c.Host.RunsFilesOf
	}
	return []string{c.Agent.Name}
}

// Reply is what the agent reads back: the exit code, stdout and stderr.
type Reply struct {
	Exit   int
	Stdout []byte
	Stderr []byte
}

// Quiet is the empty reply: exit 0, nothing printed. It is the answer to
// everything hermes-hooks has no opinion on.
var Quiet = Reply{}

// registry lists every agent, in the order docs show them. It is built at
// first use: a dispatch that serves no agent (the one-shot front's
// dispatch command) does not pay for the agents' tables at start.
var registry = sync.OnceValue(func() []*Agent {
	return []*Agent{newClaude(), newCodex(), newCopilot(), newCursor(), newFactory(), newGemini(), newKiro(), newQwen(), newWindsurf(), newCline()}
})

// Lookup returns the agent called name.
func Lookup(name string) (*Agent, bool) {
	for _, a := range registry() {
		if a.Name == name {
			return a, true
		}
	}
	return nil, false
}

// Names lists the agents' names.
// All lists every agent, in the order docs show them and their hook files
// load.
func All() []*Agent { return registry() }

// Names lists every agent's name, in the same order.
func Names() []string {
	out := make([]string, len(registry()))
	for i, a := range registry() {
		out[i] = a.Name
	}
	return out
}

// AgentEvents lists the agent's event names that hermes-hooks serves,
// sorted: what `install` registers.
func (a *Agent) AgentEvents() []string {
	out := make([]string, 0, len(a.Events))
	for n := range a.Events {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// ErrNotJSON is returned by Decode for a payload that is not one JSON object.
var ErrNotJSON = errors.New("the hook payload on stdin is not a JSON object")

// Decode reads the agent's payload. The event is the payload's own
// (EventKey), else eventArg (the command line's, for agents that do not
// send it); when both are given the payload wins. A payload that is not a
// JSON object is an error wrapping ErrNotJSON, returned with the Call of
// eventArg so the caller can still answer for that event.
func (a *Agent) Decode(payload []byte, eventArg string) (*Call, error) {
	c := &Call{Agent: a, AgentEvent: eventArg}
	// Past any leading byte order mark: Cursor's Windows CLI writes one
	// before the JSON (forum.cursor.com, "Hooks not firing, cannot have
	// guardrails"), and a payload read as no JSON is one whose guards
	// never run. No agent's payload means anything by it.
	for rest := pyjson.SkipBOM(payload); len(rest) < len(payload); rest = pyjson.SkipBOM(payload) {
		payload = rest
	}
	v, err := pyjson.DecodePayload(payload)
	obj, isObj := v.(map[string]any)
	if err != nil || !isObj {
		c.Event = a.event(eventArg)
		switch {
		case len(bytes.TrimSpace(payload)) == 0:
			// Run by hand at a terminal, or an agent that sent nothing:
			// say so rather than the decoder's bare "EOF".
			err = errors.New("stdin is empty (the agent sends the event's JSON there; by hand, pipe one in)")
		case err == nil:
			err = errors.New("not an object")
		}
		return c, fmt.Errorf("%w: %v", ErrNotJSON, err)
	}
	key, decode := a.EventKey, a.decode
	for _, h := range a.hosts {
		if h.is(obj) {
			c.Host, key, decode = h, h.EventKey, h.decode
			break
		}
	}
	if key != "" {
		if s, ok := obj[key].(string); ok && s != "" {
			c.AgentEvent = s
		}
	}
	c.Event = a.event(c.AgentEvent)
	if c.Event != nil && a.skip != nil && a.skip(c.AgentEvent, obj) {
		c.Event = nil
	}
	if c.Event == nil {
		return c, nil
	}
	c.Fields, c.Sent = decode(c.AgentEvent, c.Event, obj), obj
	if err := argsUnreadable(c.Fields); err != nil {
		return c, err
	}
	if a.roots != nil {
		c.Roots = a.roots(obj)
	}
	return c, nil
}

// Canonical returns the catalog event of one of the agent's event names
// (nil, false for a name the agent has no canonical twin for): how a hook
// file of the agent's is read as a hook source.
func (a *Agent) Canonical(name string) (*protocol.Event, bool) {
	ev := a.event(name)
	return ev, ev != nil
}

func (a *Agent) event(name string) *protocol.Event {
	canon, ok := a.Events[name]
	if !ok {
		return nil
	}
	ev, _ := protocol.Lookup(canon)
	return ev
}

// Encode turns the outcome of c's dispatch into the agent's reply, which
// shows the hooks that failed as the agent shows its own (showFailures).
func (a *Agent) Encode(c *Call, o *protocol.Outcome) Reply {
	if c == nil || c.Event == nil || o == nil {
		return Quiet
	}
	return a.showFailures(c, o, a.encodeFor(c, o))
}

// encodeFor is the reply in the caller's shape: the host's, or the agent's.
func (a *Agent) encodeFor(c *Call, o *protocol.Outcome) Reply {
	if c.Host != nil {
		return c.Host.encode(c, hostArgs(c, o, c.Host.Title))
	}
	return a.encode(c, hostArgs(c, o, a.Title))
}

// Deny is the agent's refusal of c's event with reason, for a gating event
// whose hooks could not be asked (a fail-closed guard and a payload that
// cannot be read). On events the agent cannot refuse it is Quiet.
func (a *Agent) Deny(c *Call, reason string) Reply {
	if c == nil || c.Event == nil || !c.Event.Gating() {
		return Quiet
	}
	return a.encodeFor(c, &protocol.Outcome{Event: c.Event.Name, Decision: protocol.DecisionBlock, Message: reason})
}

// DenyAnyCaller is the refusal of c's event when who calls cannot be told:
// the payload cannot be read, or no hermes-hooks runs to read it (the
// prologue of a command line install wrote). It is the agent's own
// refusal, which, where a host also runs the agent's hook file (VS Code
// runs Claude Code's and Copilot's), exits 2 with the reason on stderr as
// well: on a gating event exit 2 refuses for the agent and its hosts
// alike, while JSON in the agent's shape may mean nothing to a host.
func (a *Agent) DenyAnyCaller(c *Call, reason string) Reply {
	r := a.Deny(c, reason)
	if len(a.hosts) == 0 || r.Exit != 0 || len(r.Stdout) == 0 {
		return r
	}
	r.Exit = 2
	r.Stderr = append(append([]byte(nil), r.Stderr...), reason+"\n"...)
	return r
}

// copyFields returns a shallow copy of the payload, the base of every
// agent's host fields.
func copyFields(payload map[string]any, extra int) map[string]any {
	out := make(map[string]any, len(payload)+extra)
	for k, v := range payload {
		out[k] = v
	}
	return out
}

// alias sets to = the value of from when from is present and to is not.
func alias(fields map[string]any, from, to string) {
	if v, ok := fields[from]; ok {
		if _, set := fields[to]; !set {
			fields[to] = v
		}
	}
}

// jsonReply is exit 0 with obj on stdout (nothing when obj is empty).
func jsonReply(obj protocol.Object) Reply {
	if len(obj) == 0 {
		return Quiet
	}
	return Reply{Stdout: append(pyjson.Encode(obj, pyjson.Compact), '\n')}
}

// rewriteRefusal is the refusal of a call a hook rewrote, for an agent
// (title) that runs a call as announced or not at all: the model gets the
// rewritten arguments to retry with.
func rewriteRefusal(c *Call, title string, o *protocol.Outcome) string {
	c.refuses(title + " cannot run rewritten arguments; this call is refused")
	return "hermes-hooks: a hook rewrote this call, and " + title + " cannot run rewritten arguments; it is refused. Retry with: " +
		string(pyjson.Encode(o.Args, pyjson.Compact))
}

// askRefused is the refusal of an ask that the agent cannot put to a
// person where c was made (cannot: what it cannot do, and what happens
// instead): the hook's question, then why no one was asked, so a rule's
// "ask before pushing to main" does not read as a ban no approval lifts.
func askRefused(c *Call, o *protocol.Outcome, cannot string) string {
	c.refuses(cannot)
	return firstNonEmpty(o.Message, "A hook asks for a person's approval") + " (hermes-hooks: " + cannot + ")"
}

// refuses notes, for Delivered, that the encoding of c refuses the call
// where the outcome asked for something else (an ask, a rewrite, a stop
// the agent cannot carry out there), and why: what the agent cannot do and
// what it does instead. Every encoder calls it where it turns such an
// outcome into a refusal; the first reason stands.
func (c *Call) refuses(why string) {
	if c.refused != nil && *c.refused == "" {
		*c.refused = why
	}
}
