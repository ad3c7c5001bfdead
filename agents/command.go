package agents

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
)

// ProgramName is the name a hook file in a project runs hermes-hooks by,
// found on PATH: a project's files are committed and shared, and an
// absolute path is one machine's (another user, a moved or upgraded
// binary, gets "command not found", which most agents read as "no
// objection").
const ProgramName = "hermes-hooks"

// MissingReason is the refusal a gating event gets from a project's hook
// file where hermes-hooks is not on PATH: its guards cannot be asked.
const MissingReason = "hermes-hooks is not on PATH, so the guards of this project cannot check this call: it is refused. " +
	"Install hermes-hooks and put it on PATH (https://github.com/hermes-hooks/hermes-hooks#install)."

// MissingProgramReason is the refusal a gating event gets from a command
// line that runs hermes-hooks by its absolute path (a user's file, the
// managed layer) when no executable file is there any more: the package
// was removed, or an upgrade is half done. Its guards cannot be asked,
// and an agent reads the shell's "not found" as "no objection". No
// parentheses or % ! ^ & | < >: cmd.exe's echo prints it as it is.
const MissingProgramReason = "the hermes-hooks program this hook runs is missing or not executable, so the guards cannot check this call: it is refused. " +
	"Reinstall hermes-hooks at that path, or run hermes-hooks install again."

// second spells an agent's timeout where its file has no other use for
// package time.
const second = time.Second

// AgentTimeoutFlag is the flag of `hermes-hooks hook` that install writes
// into a command line: how long the agent waits for that hook.
const AgentTimeoutFlag = "--agent-timeout"

// HookCommand is the command line a's hook file runs for event (the
// agent's name for it). With exe "", it runs hermes-hooks by name from
// PATH, after a POSIX prologue that answers when it is not there: the
// agent's own refusal of a gating event (MissingReason), nothing for the
// others. With exe (an absolute path, for files of one user and the
// managed layer), it runs that program, single-quoted, after a prologue
// that answers the same way when no executable file is there
// (MissingProgramReason): a removed package or a half-done upgrade would
// otherwise make sh exit 127, which every agent reads as no objection.
// Every agent whose file install writes runs its commands through a POSIX
// shell (sh -c, bash -c) or, for a Scripts layout, as the body of a
// #!/bin/sh script. The agent's deadline for the hook is passed with
// AgentTimeoutFlag when it is known (Timeout).
func (a *Agent) HookCommand(exe, event string) string {
	args := " hook " + a.Name + " " + event
	if t := a.Timeout(event); t > 0 {
		args += " " + AgentTimeoutFlag + " " + FormatSeconds(t)
	}
	if exe != "" {
		// -f: a folder is "executable" to -x; either test failing
		// answers, and the path tested is the path exec'd.
		q := shquote.Quote(exe)
		return "[ -f " + q + " ] && [ -x " + q + " ] || " + a.missingBody(event, MissingProgramReason) + "; exec " + q + args
	}
	return "command -v " + ProgramName + " >/dev/null 2>&1 || " + a.missingBody(event, MissingReason) + "; exec " + ProgramName + args
}

// MissingReply is what an install's command line answers for event when
// hermes-hooks cannot be run there (reason says why): the agent's refusal
// of a gating event for any caller (DenyAnyCaller), of a call with no
// payload; nothing for the other events.
func (a *Agent) MissingReply(event, reason string) Reply {
	return a.DenyAnyCaller(&Call{Agent: a, AgentEvent: event, Event: a.event(event), Fields: map[string]any{}}, reason)
}

// missingBody is a prologue's answer for event when hermes-hooks cannot be
// run: the bytes and exit code of a.DenyAnyCaller with reason, written by
// printf.
func (a *Agent) missingBody(event, reason string) string {
	r := a.MissingReply(event, reason)
	if r.Exit == 0 && len(r.Stdout) == 0 && len(r.Stderr) == 0 {
		return "exit 0"
	}
	var b strings.Builder
	b.WriteString("{ ")
	for _, out := range []struct {
		data     []byte
		redirect string
	}{{r.Stdout, ""}, {r.Stderr, " >&2"}} {
		if len(out.data) == 0 {
			continue
		}
		format, text := "'%s'", string(out.data)
		if t, ok := strings.CutSuffix(text, "\n"); ok {
			format, text = `'%s\n'`, t
		}
		b.WriteString("printf " + format + " " + shquote.Quote(text) + out.redirect + "; ")
	}
	b.WriteString("exit " + strconv.Itoa(r.Exit) + "; }")
	return b.String()
}

// FormatSeconds writes d in seconds, as the flag reads it ("600", "1.5").
func FormatSeconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

// Timeout is how long a waits for its hook on event before it goes on
// without the answer (0: not known): what install wrote into its file for
// that event (HookFile.Extra, EventExtra), else the agent's documented
// default (Agent.DefaultTimeout, EventTimeouts).
func (a *Agent) Timeout(event string) time.Duration {
	if t := a.HookFile.written(event); t > 0 {
		return t
	}
	return a.DefaultTimeout(event)
}

// DefaultTimeout is a's own timeout for a hook of event when its file sets
// none (0: not documented).
func (a *Agent) DefaultTimeout(event string) time.Duration {
	if t, ok := a.EventTimeouts[event]; ok {
		return t
	}
	return a.HookTimeout
}

// written is the timeout install writes for event (0: none).
func (hf *HookFile) written(event string) time.Duration {
	extra, ok := hf.EventExtra[event]
	if !ok {
		extra = hf.Extra
	}
	for _, m := range extra {
		n, ok := m.Value.(int64)
		if !ok {
			continue
		}
		switch {
		case m.Key == "timeout_ms", m.Key == "timeout" && hf.TimeoutMS:
			return time.Duration(n) * time.Millisecond
		case m.Key == "timeout", m.Key == "timeoutSec":
			return time.Duration(n) * time.Second
		}
	}
	return 0
}

// ownCommand matches the command lines install writes (HookCommand), in
// every form it ever wrote: the PATH prologue; the absolute path behind
// its own prologue (today's); a bare single-quoted absolute path (older
// installs, still ours to refresh or remove). A prologue's answer is only
// printf of quoted text and exit, so that nothing else hides in it; then
// "hook", the agent, optionally its event and the agent's timeout. The
// binary's name is not checked in the absolute forms: a renamed or
// versioned copy is still ours, and nobody else's hook reads this way.
// The prologue's text is not compared with today's: an entry written by
// an older version is still ours. A quoted word here ends only where a
// space follows its closing quote, as sh reads it, so the words captured
// are the words sh runs; that the three paths of the guarded form are one
// is checked by parseOwn (RE2 has no back-references).
// Compiled at first use, not at every start of the one-shot binary.
var ownCommand = sync.OnceValue(func() *regexp.Regexp {
	const quoted = `'(?:[^']|'\\'')*'`
	const abs = `'(?:/|[A-Za-z]:/)(?:[^']|'\\'')*'`
	const body = `(?:exit 0|\{ (?:printf '%s(?:\\n)?' ` + quoted + `(?: >&2)?; )*exit [0-9]+; \})`
	return regexp.MustCompile(`^(?:(?P<bare>` + abs + `)` +
		`|command -v hermes-hooks >/dev/null 2>&1 \|\| ` + body + `; exec hermes-hooks` +
		`|\[ -f (?P<f>` + abs + `) \] && \[ -x (?P<x>` + abs + `) \] \|\| ` + body + `; exec (?P<exe>` + abs + `)` +
		`) hook (?P<agent>` + agentWord + `)(?: (?P<event>[A-Za-z_]+))?(?: ` + AgentTimeoutFlag + ` (?P<secs>[0-9.]+))?$`)
})

// agentWord is the agent's name in a line of ours: letters, digits, '_'
// and '-', which no shell install writes for (sh, cmd.exe, PowerShell)
// reads as anything but themselves. Any other word (a "$(…)", a "`…`", a
// "%VAR%", a "&") is shell text that runs before or beside hermes-hooks,
// and a line holding it is a repository's, not ours.
const agentWord = `[A-Za-z0-9_-]+`

// ownLine is a command line of ours, read: the agent it is for, the
// event it names ("" in older forms), the program it runs (an absolute
// path; "" for hermes-hooks from PATH) and the agent's deadline it passes
// (AgentTimeoutFlag's seconds, "" when it passes none).
type ownLine struct{ agent, event, exe, secs string }

// parseOwn reads command as a line install writes (ownCommand).
func parseOwn(command string) (ownLine, bool) {
	re := ownCommand()
	m := re.FindStringSubmatch(command)
	if m == nil {
		return ownLine{}, false
	}
	g := func(name string) string { return m[re.SubexpIndex(name)] }
	l := ownLine{agent: g("agent"), event: g("event"), secs: g("secs")}
	switch {
	case g("bare") != "":
		l.exe = g("bare")
	case g("exe") != "":
		// The path tested must be the path run: a line that checks one
		// file and runs another is not ours.
		if g("f") != g("exe") || g("x") != g("exe") {
			return ownLine{}, false
		}
		l.exe = g("exe")
	}
	if l.exe != "" {
		l.exe = strings.ReplaceAll(l.exe[1:len(l.exe)-1], `'\''`, "'")
	}
	return l, true
}

// IsOwnCommand reports whether command is one install wrote for agent
// (for any agent when agent is "").
func IsOwnCommand(command, agent string) bool {
	l, ok := parseOwn(command)
	return ok && (agent == "" || l.agent == agent)
}

// OwnProgram is the absolute path of the program that command, a line
// install wrote (IsOwnCommand), runs; "" for the PATH form, which runs
// hermes-hooks from PATH. ok is false for any other line.
func OwnProgram(command string) (exe string, ok bool) {
	l, ok := parseOwn(command)
	return l.exe, ok
}

// Guarded reports whether command, a line install wrote, begins with one
// of HookCommand's prologues, which answer when the program cannot be run
// and end in exec themselves (a script holds it as it is): the PATH form
// and today's absolute form, not an older install's bare path.
func Guarded(command string) bool {
	return strings.HasPrefix(command, "command -v ") || strings.HasPrefix(command, "[ -f ")
}
