package agents

import (
	"bytes"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// failureChannel is how an agent shows the user a hook of its own that
// failed without deciding anything (exited non-zero, timed out, printed a
// reply that is not one): the hooks hermes-hooks runs for it must fail as
// visibly as the agent's own (issue 31, item 10; facts in
// docs/agent-protocols.md).
type failureChannel uint8

const (
	// failExit: a non-zero exit other than 2 is the agent's "hook failed"
	// (Codex's "Failed", VS Code's and Kiro CLI's warning), its stderr
	// shown. A reply with nothing else to say takes that form; one that
	// says something keeps it and adds the failures as its systemMessage
	// where the agent reads one (sysMsg), else on stderr.
	failExit failureChannel = iota
	// failSystemMessage: the failures are the reply's systemMessage, shown
	// to the user (Gemini CLI shows a hook's exit-1 text that way). Claude
	// Code shows its own failed hook from its exit 1 and stderr, but `hook
	// claude` is also what OpenCode's plugin runs, where any exit but 0 and
	// 2 refuses the call: its systemMessage warning says the same at exit 0.
	failSystemMessage
	// failStdout: the agent shows a hook's stdout to the user and reads
	// only the exit code (Windsurf, with show_output, which install sets).
	failStdout
	// failStderr: the agent logs a failed hook's stderr and shows nothing
	// else (Copilot CLI, Cursor's hooks output, Cline): stderr, the reply
	// unchanged.
	failStderr
)

// failureShown is each agent's and host's channel, by name. An agent
// without one is a test failure (TestEveryAgentShowsFailures).
var failureShown = map[string]struct {
	channel failureChannel
	sysMsg  bool // failExit: the agent reads a JSON reply's systemMessage
}{
	"vscode": {failExit, true}, "codex": {failExit, true}, "kiro": {failExit, false},
	"claude": {failSystemMessage, true}, "gemini": {failSystemMessage, true},
	"qwen": {failSystemMessage, true}, "factory": {failSystemMessage, true},
	"windsurf": {failStdout, false},
	"copilot":  {failStderr, false}, "cursor": {failStderr, false}, "cline": {failStderr, false},
}

// showFailures makes the outcome's failed hooks visible in r, the reply
// encoded for it, the way the caller shows its own hooks' failures.
func (a *Agent) showFailures(c *Call, o *protocol.Outcome, r Reply) Reply {
	lines := o.Failures()
	if len(lines) == 0 {
		return r
	}
	name := a.Name
	if c.Host != nil {
		name = c.Host.Name
	}
	text := strings.Join(lines, "\n")
	how := failureShown[name]
	quiet := r.Exit == 0 && len(r.Stdout) == 0 && len(r.Stderr) == 0
	switch {
	case how.channel == failExit && quiet:
		return Reply{Exit: 1, Stderr: []byte(text + "\n")}
	case r.Exit == 2:
		// A refusal: it is what the user and the model see, and its
		// reason stays the guard's.
		return r
	case how.sysMsg && !c.Event.PlainResult:
		// (Where stdout is the event's result, WorktreeCreate's path, a
		// JSON systemMessage there would be read as that: stderr.)
		withMsg := *o
		withMsg.SystemMessage = text
		if o.SystemMessage != "" {
			withMsg.SystemMessage = o.SystemMessage + "\n" + text
		}
		// The agent reads a systemMessage on this event when the reply
		// carrying one differs (some events drop it: then stderr).
		if shown := a.encodeFor(c, &withMsg); !bytes.Equal(shown.Stdout, r.Stdout) {
			return shown
		}
	case how.channel == failStdout && r.Exit == 0:
		r.Stdout = append(r.Stdout, text+"\n"...)
		return r
	}
	r.Stderr = append(r.Stderr, text+"\n"...)
	return r
}
