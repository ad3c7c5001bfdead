package agents

import (
	"bytes"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// noticeChannel is where an agent shows the person a line of hermes-hooks'
// own that is no hook's answer: that a repository's hooks did not run
// because nobody approved them (issue 32, item 2). A warning on stderr
// reaches a debug log at best inside an agent. Every agent and host
// declares one (TestEveryAgentDeclaresANoticeChannel); the facts are in
// docs/agent-protocols.md.
type noticeChannel uint8

const (
	// noticeUndeclared is the zero value: a test failure, so that a new
	// agent cannot leave the person uninformed by omission.
	noticeUndeclared noticeChannel = iota
	// noticeSystemMessage: the reply's systemMessage, shown to the user,
	// not the model (Claude Code, Codex, Gemini CLI, Qwen Code, Factory
	// Droid, VS Code) — on the events whose reply carries one: where the
	// reply with it is the reply without it (Codex's SessionEnd, Claude
	// Code's events that drop it), it has no place.
	noticeSystemMessage
	// noticeStdout: stdout, which the agent shows the user and reads
	// nothing else from at exit 0 (Windsurf, with show_output).
	noticeStdout
	// noticeNone: no channel for the user besides the one a refusal or a
	// failed hook uses (Copilot CLI, Cursor, Cline, Kiro CLI). Making the
	// reply a failure or a refusal to carry a line would change what the
	// agent does, so the line goes to stderr, which the agent logs.
	noticeNone
)

// noticeOf is the channel of c's caller: its host's, or the agent's.
func (a *Agent) noticeOf(c *Call) noticeChannel {
	if c.Host != nil {
		return c.Host.notice
	}
	return a.notice
}

// EncodeNotice is Encode with notice, one line for the person, added where
// the caller shows the user such lines (its noticeChannel). shown is false
// when this reply has no such place: the caller then writes the line to
// stderr (and may try again on a later event). What the agent does with
// the reply — the decision, the exit code, what the model reads — is what
// Encode makes it; no hook reply can suppress the line, which the encoder
// escapes like any text (the caller puts nothing in it that a hook or a
// repository wrote).
func (a *Agent) EncodeNotice(c *Call, o *protocol.Outcome, notice string) (r Reply, shown bool) {
	plain := a.Encode(c, o)
	if c == nil || c.Event == nil || o == nil || notice == "" || plain.Exit == 2 {
		// A refusal by exit code is read by the model; its reason stays
		// the guard's.
		return plain, false
	}
	switch a.noticeOf(c) {
	case noticeSystemMessage:
		with := *o
		with.SystemMessage = notice
		if o.SystemMessage != "" {
			with.SystemMessage = o.SystemMessage + "\n" + notice
		}
		r := a.Encode(c, &with)
		// A quiet reply that showed a failed hook by exit 1 says it in
		// the systemMessage at exit 0 once it carries the notice
		// (showFailures): both are "go on", as is the same exit code.
		sameExit := r.Exit == plain.Exit || plain.Exit == 1 && r.Exit == 0
		if sameExit && !bytes.Equal(r.Stdout, plain.Stdout) {
			return r, true
		}
	case noticeStdout:
		if plain.Exit == 0 {
			plain.Stdout = append(append([]byte(nil), plain.Stdout...), notice+"\n"...)
			return plain, true
		}
	}
	return plain, false
}
