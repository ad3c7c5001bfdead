package hookconfig

import (
	"strconv"
	"time"
)

// Hook kinds. An entry's Spec says what kind of hook it is and holds what
// only that kind needs; everything an entry of any kind has (event,
// matcher, timeout, scope, …) stays on Entry. The config readers set it
// (parseEntry: command or worker; a Claude Code handler's type through
// handlerTypes; a Cursor hook's type), and the dispatcher maps it once to
// the code that runs it (dispatcher/kind*.go). A new kind is one Spec
// type, one parse case and one handler file there.

// Spec is the kind-specific part of an entry.
type Spec interface {
	// Kind is the kind's name as a config writes it: "command", "http",
	// or a handler type that cannot run here ("prompt", "mcp_tool").
	Kind() string
	// Label is what the entry is listed and approved by when that is not
	// its Command ("" when it is: commands and workers): an http hook's
	// URL, a summary of a handler that cannot run here.
	Label() string
}

// Claude Code handler types beyond "command".
const (
	TypeCommand = "command"
	TypeHTTP    = "http"
)

// CommandSpec is a command: Entry.Command, run through a shell or, in the
// exec form, without one.
type CommandSpec struct {
	// Args is the exec form: the program and its arguments, run without a
	// shell (Entry.Command is them quoted, the approval's key).
	Args []string
	// Shell "bash" runs a shell-form command with bash instead of
	// /bin/sh, "powershell" with PowerShell (pwsh, else powershell.exe).
	Shell string
	// Env are variables the hook's file sets for it over the environment
	// (Gemini CLI's per-hook "env"); the approval pins them (the
	// dispatcher's Target.Spec), as they change what the hook does.
	Env map[string]string
}

// Kind implements Spec.
func (*CommandSpec) Kind() string { return TypeCommand }

// Label implements Spec: a command is its Command.
func (*CommandSpec) Label() string { return "" }

// WorkerSpec is a command whose process is kept alive between events
// (worker: true): one JSON payload per line in, one reply per line out
// (see WorkerEnv).
type WorkerSpec struct {
	CommandSpec
	// Workers is its pool size (0: the default, 1; at most MaxWorkers).
	Workers int
	// Idle is how long an idle worker is kept (0: DefaultWorkerIdle).
	Idle time.Duration
}

// Kind implements Spec: a worker is written as a command.
func (*WorkerSpec) Kind() string { return TypeCommand }

// HTTPSpec is a Claude Code http handler: the payload is POSTed to URL.
type HTTPSpec struct {
	URL string
	// Headers are sent with the request; their values may name the
	// variables AllowedEnvVars lists.
	Headers        map[string]string
	AllowedEnvVars []string
}

// Kind implements Spec.
func (*HTTPSpec) Kind() string { return TypeHTTP }

// Label implements Spec: an http hook is listed and approved by its URL,
// shown as ShownURL shows it. The approval pins the whole URL (the
// dispatcher's httpSpec), so a changed password or token needs a new
// approval.
func (s *HTTPSpec) Label() string { return ShownURL(s.URL) }

// SameKey is what an entry is the same hook as another by (with its
// event, matcher and scope: Config.finish; alone, for the dispatcher's
// once per firing): its text, except where the text hides part of what
// runs. An http hook's or an opa entry's URL is shown with its secrets
// redacted (ShownURL); two that differ only there are two hooks, as Claude
// Code keeps http hooks apart by URL. It may hold a secret: never shown.
func (e *Entry) SameKey() string {
	switch s := e.Spec.(type) {
	case *HTTPSpec:
		return TypeHTTP + "\x00" + s.URL
	case *OPASpec:
		return TypeOPA + "\x00" + s.URL + SentText(s.Headers, s.AllowedEnvVars)
	}
	return e.Text()
}

// RuleSpec is a policy rule decided in-process (rule: in an entry): when
// its expression over the firing is true, the entry contributes Decision
// with Message. The dispatcher compiles and evaluates it (internal/rule);
// hookconfig keeps its text.
type RuleSpec struct {
	// Source is the expression as written.
	Source string
	// Decision is "block", "ask" or "context".
	Decision string
	// Message is the block or ask reason, or the context text.
	Message string
	// ID is the rule's id: key ("" when it has none; see Identity).
	ID string
	// Line is the line of the rule's first line in its file (Entry.Source),
	// for errors that name where a rule is wrong; 0 when not read from a
	// file.
	Line int
	// DoubleQuoted: the rule was written as a double-quoted YAML string,
	// which reads its own \ escapes before expr does (rule: "… \\s …"
	// reaches expr as \s), what a compile error's advice must say.
	DoubleQuoted bool
	// Comment is the YAML comment after a plain (unquoted) rule on its
	// line: YAML ends a plain scalar at ` #`, so a rule's own # (expr's
	// placeholder: any(…, # matches "…")) cuts it there, and a compile
	// error's advice must say so rather than "unexpected token EOF".
	Comment string
}

// Rule decisions.
const (
	RuleBlock   = "block"
	RuleAsk     = "ask"
	RuleContext = "context"
)

// Identity names the rule in the journal and in what is exported from it
// (a security team's query for "which rule blocked"): its id: when it has
// one, else the file and line it was read from.
func (r *RuleSpec) Identity(source string) string {
	if r.ID != "" {
		return r.ID
	}
	if r.Line > 0 {
		return source + ":" + strconv.Itoa(r.Line)
	}
	return source
}

// TypeRule is a rule entry's kind.
const TypeRule = "rule"

// Kind implements Spec.
func (*RuleSpec) Kind() string { return TypeRule }

// Label implements Spec: a rule is listed and approved by its expression.
func (s *RuleSpec) Label() string { return "rule: " + s.Source }

// UnsupportedSpec is a handler that cannot run here (prompt, agent and
// mcp_tool handlers, a shell other than sh and bash): it is kept, so that
// list shows it and a guard among such handlers is never skipped silently.
type UnsupportedSpec struct {
	// Type is the handler's type as written.
	Type string
	// Why says why it cannot run here.
	Why string
	// Text is what it is listed and approved by ("": its Command).
	Text string
}

// Kind implements Spec.
func (s *UnsupportedSpec) Kind() string { return s.Type }

// Label implements Spec.
func (s *UnsupportedSpec) Label() string { return s.Text }

// Refusal is what a gating event that an entry of this spec matches is
// told as it blocks: the handler cannot run here, and on that event it was
// meant as a guard. text is the entry's Text, runBy the agent it was
// written for (Entry.RunByTitle). The spec says it, so that the dispatcher
// words no kind of handler itself.
func (s *UnsupportedSpec) Refusal(text, runBy string) string {
	if s.Type == TypeUnreadable {
		// Its fix is not the one every other handler's is: the entry is
		// to be fixed, not removed or replaced.
		return "hook " + text + " " + s.Why + "; it says fail_closed, so this tool call is blocked rather than let it through unguarded; fix the entry (hermes-hooks validate names it)"
	}
	return "hook " + text + " cannot run outside " + runBy + " (" + s.Why + "), so this tool call is blocked rather than let an unchecked guard through; remove or replace that handler to allow it"
}

// Text is what the entry is listed, reported and approved by: its
// command, an http hook's URL, a summary of a handler that cannot run
// here.
func (e *Entry) Text() string {
	if e.Spec != nil {
		if l := e.Spec.Label(); l != "" {
			if e.shownNth > 1 {
				// A word of its own (not " #2", which a shell reads
				// as a comment: approve's SameCommand would take
				// "URL #2" for the first URL too).
				return l + " [" + strconv.Itoa(e.shownNth) + "]"
			}
			return l
		}
	}
	return e.Command
}

// RunsCommand reports an entry that starts a local command (a command or
// a worker): what it runs can be resolved, checked and pinned. An http
// hook runs no file; a handler that cannot run here runs nothing.
func (e *Entry) RunsCommand() bool {
	switch e.Spec.(type) {
	case nil, *CommandSpec, *WorkerSpec:
		return true
	}
	return false
}

// CannotRun says why the entry cannot run here ("" when it can).
func (e *Entry) CannotRun() string {
	if u, ok := e.Spec.(*UnsupportedSpec); ok {
		return u.Why
	}
	return ""
}

// Worker is the entry's worker spec (nil unless worker: true).
func (e *Entry) Worker() *WorkerSpec {
	w, _ := e.Spec.(*WorkerSpec)
	return w
}

// Exec is how a command or worker entry's Command is started: its exec
// form and shell (the zero CommandSpec for other kinds).
func (e *Entry) Exec() CommandSpec {
	switch s := e.Spec.(type) {
	case *CommandSpec:
		return *s
	case *WorkerSpec:
		return s.CommandSpec
	}
	return CommandSpec{}
}
