package dispatcher

import (
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Per-dialect choices the dispatcher makes. Hermes and Claude payloads and
// replies are package protocol's; an agent's own dialect (an entry's
// Codec: Cursor's, Gemini CLI's …) is the agent's to build and read.

// projectVars are the project-directory variables an entry's agent gives
// its hooks: CLAUDE_PROJECT_DIR for the Claude dialect; a Codec's own
// (Cursor's two, Gemini's three). Hermes hooks get none.
func projectVars(e *hookconfig.Entry) []string {
	switch {
	case e.Codec != nil:
		return e.Codec.ProjectVars()
	case e.Dialect == protocol.Claude:
		return []string{"CLAUDE_PROJECT_DIR"}
	}
	return nil
}

// projectEnv sets the entry's project variables (projectVars) to project.
func projectEnv(e *hookconfig.Entry, env []string, project string) []string {
	for _, v := range projectVars(e) {
		env = withEnv(env, v, project)
	}
	return env
}

// projectOf is the project directory a hook of e is given, run in dir with
// the base environment env: the entry's own (a project's file: that
// project's root); else the one the agent that started us names in env
// (Claude Code sets CLAUDE_PROJECT_DIR to the root the session was
// launched in, which stays put when the session's cwd moves: `hook claude`
// passes its environment through to the hooks), when it is a directory;
// else dir. A Hermes host names no project: the session's directory stands
// in, as before. Under serve, env is the server's (docs/security.md: hooks
// run with the server's environment).
func projectOf(e *hookconfig.Entry, env []string, dir string) string {
	if e.ProjectDir != "" {
		return e.ProjectDir
	}
	for _, v := range projectVars(e) {
		if p, ok := cmdpin.Getenv(env, v); ok && filepath.IsAbs(p) && isDir(p) {
			return p
		}
	}
	return dir
}

// payloadOf is the entry's stdin for this firing, in its dialect.
func (d *Dispatcher) payloadOf(e *hookconfig.Entry, ev *protocol.Event, fields map[string]any) []byte {
	if e.Codec != nil {
		return e.Codec.Payload(e.DeclaredAs, ev, fields, d.payload)
	}
	return protocol.BuildPayload(e.Dialect, ev, fields, d.payload)
}

// parseReply reads the entry's reply in its dialect; foreign: the note
// holds a refusal in words the dialect does not read (protocol.Read).
func parseReply(e *hookconfig.Entry, r protocol.Reply) (_ *protocol.Contribution, _ string, foreign bool) {
	rules, hasRules := e.Codec.(protocol.EventRules)
	// A reply the output cap cut, or an ambiguous one, refuses where a
	// gate is guarded.
	gate := r.Event.FailsClosed() && (!hasRules || rules.Refuses(e.DeclaredAs))
	// Where the dialect's own fail_closed applies: any event a block or a
	// stop refuses for Claude's and a codec's (narrowed by its event rules),
	// the gating ones for Hermes'. Without a codec hasRules is false, so
	// the first formula is already Claude's.
	refuses := r.Event.Can(protocol.CapBlock|protocol.CapContinue) && (!hasRules || rules.Refuses(e.DeclaredAs))
	if e.Codec == nil && e.Dialect != protocol.Claude {
		refuses = r.Event.FailsClosed()
	}
	var c *protocol.Contribution
	var note string
	if e.Codec != nil {
		// Each codec reads a reply as its agent does, and says whether it
		// refused in words the agent does not read (Read.Foreign); a
		// fail_closed guard's failure blocks in every dialect.
		rd := e.Codec.ReadReply(e.DeclaredAs, r)
		c, note, foreign = rd.Contribution, rd.Note, rd.Foreign != ""
		c, note = protocol.FailClosedFloor(r, refuses, c, note)
	} else {
		rd := protocol.ReadReply(r)
		c, note, foreign = rd.Contribution, rd.Note, rd.Foreign != ""
	}
	c, note = protocol.CutReply(r, gate, c, note)
	c, note = protocol.AmbiguousReply(r, gate, c, note)
	c, note = protocol.NotAnHTTPReply(r, refuses, c, note)
	return c, note, foreign
}
