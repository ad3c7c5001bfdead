package dispatcher

import (
	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Per-dialect choices the dispatcher makes. Hermes and Claude payloads and
// replies are package protocol's; the Cursor dialect's depend on the Cursor
// event an entry is declared under, whose table is package agents', so
// they are built and read there.

// viaShell reports an entry whose command runs through /bin/sh -c, in the
// session's directory, with the agent's project-directory variable: the
// Claude and Cursor dialects (both agents run hook commands that way).
func (e *Entry) viaShell() bool {
	return e.Dialect == protocol.Claude || e.Dialect == protocol.Cursor
}

// projectEnv sets the project-directory variables an entry's agent gives
// its hooks: CLAUDE_PROJECT_DIR for the Claude dialect; CURSOR_PROJECT_DIR
// and, for the Claude-compatible scripts Cursor also runs,
// CLAUDE_PROJECT_DIR for the Cursor dialect. Hermes hooks get none.
func projectEnv(e *Entry, env []string, project string) []string {
	switch e.Dialect {
	case protocol.Claude:
		return withEnv(env, "CLAUDE_PROJECT_DIR", project)
	case protocol.Cursor:
		return withEnv(withEnv(env, "CURSOR_PROJECT_DIR", project), "CLAUDE_PROJECT_DIR", project)
	}
	return env
}

// payloadOf is the entry's stdin for this firing, in its dialect.
func (d *Dispatcher) payloadOf(e *Entry, ev *protocol.Event, fields map[string]any) []byte {
	if e.Dialect == protocol.Cursor {
		return protocol.CursorPayload(e.DeclaredAs, ev, fields, d.payload)
	}
	return protocol.BuildPayload(e.Dialect, ev, fields, d.payload)
}

// parseReply reads the entry's reply in its dialect.
func parseReply(e *Entry, r protocol.Reply) (*protocol.Contribution, string) {
	if e.Dialect == protocol.Cursor {
		return protocol.ParseCursorReply(e.DeclaredAs, r)
	}
	return protocol.ParseReply(r)
}

// cursorFits reports whether a Cursor-dialect entry's Cursor event stands
// for this firing of its canonical event (beforeShellExecution: shell
// commands only); entries of other dialects fit every firing.
func (e *Entry) cursorFits(fields map[string]any, tools *protocol.ToolTable) bool {
	return e.Dialect != protocol.Cursor || protocol.CursorFits(e.DeclaredAs, fields, tools)
}

// agentTitle names the agent an entry was written for, for messages
// ("Claude Code" for Claude handlers pasted into the YAML, RunBy "").
func agentTitle(runBy string) string {
	if a, ok := agents.Lookup(runBy); ok {
		return a.Title
	}
	return "Claude Code"
}
