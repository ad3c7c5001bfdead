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

// second spells an agent's timeout where its file has no other use for
// package time.
const second = time.Second

// AgentTimeoutFlag is the flag of `hermes-hooks hook` that install writes
// into a command line: how long the agent waits for that hook.
const AgentTimeoutFlag = "--agent-timeout"

// HookCommand is the command line a's hook file runs for event (the
// agent's name for it). With exe (an absolute path), the command runs
// that program, single-quoted: for files of one user only. With exe "",
// it runs hermes-hooks by name from PATH, after a POSIX prologue that
// answers when it is not there: the agent's own refusal of a gating
// event (MissingReason), nothing for the others. Every agent whose file
// install writes runs its commands through a POSIX shell (sh -c, bash -c)
// or, for a Scripts layout, as the body of a #!/bin/sh script.
// The agent's deadline for the hook is passed with AgentTimeoutFlag when
// it is known (Timeout).
func (a *Agent) HookCommand(exe, event string) string {
	args := " hook " + a.Name + " " + event
	if t := a.Timeout(event); t > 0 {
		args += " " + AgentTimeoutFlag + " " + FormatSeconds(t)
	}
	if exe != "" {
		return shquote.Quote(exe) + args
	}
	return "command -v " + ProgramName + " >/dev/null 2>&1 || " + a.missingBody(event) + "; exec " + ProgramName + args
}

// missingBody is the prologue's answer for event when hermes-hooks is not
// on PATH: the bytes and exit code of a.DenyAnyCaller, written by printf.
func (a *Agent) missingBody(event string) string {
	r := a.DenyAnyCaller(&Call{Agent: a, AgentEvent: event, Event: a.event(event), Fields: map[string]any{}}, MissingReason)
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

// ownCommand matches the command lines install writes (HookCommand): a
// single-quoted absolute path, or the PATH prologue (whose answer is only
// printf of quoted text and exit, so that nothing else hides in it), then
// "hook", the agent, optionally its event and the agent's timeout. The
// binary's name is not checked in the absolute form: a renamed or
// versioned copy is still ours, and nobody else's hook reads this way.
// The prologue's text is not compared with today's: an entry written by
// an older version is still ours, to refresh or remove.
// Compiled at first use, not at every start of the one-shot binary.
var ownCommand = sync.OnceValue(func() *regexp.Regexp {
	const quoted = `'(?:[^']|'\\'')*'`
	const prologue = `command -v hermes-hooks >/dev/null 2>&1 \|\| (?:exit 0|\{ (?:printf '%s(?:\\n)?' ` + quoted + `(?: >&2)?; )*exit [0-9]+; \}); exec hermes-hooks`
	return regexp.MustCompile(`^(?:'(?:/|[A-Za-z]:/)(?:[^']|'\\'')*'|` + prologue + `) hook (\S+)(?: [A-Za-z_]+)?(?: ` + AgentTimeoutFlag + ` [0-9.]+)?$`)
})

// IsOwnCommand reports whether command is one install wrote for agent
// (for any agent when agent is "").
func IsOwnCommand(command, agent string) bool {
	m := ownCommand().FindStringSubmatch(command)
	return m != nil && (agent == "" || m[1] == agent)
}

// byName reports whether command is the PATH form of HookCommand.
func byName(command string) bool { return strings.HasPrefix(command, "command -v ") }
