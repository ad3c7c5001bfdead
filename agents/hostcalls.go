package agents

import (
	"runtime"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// A host that reads several agents' hook files (VS Code: Copilot's and
// Claude Code's) calls `hook AGENT` once from each file that registers it
// for an event: the entries of those files it runs itself, but the hooks
// no agent's file declares (the Hermes config's, a project's hooks file)
// must run in one of those calls only. The call made from the first agent
// of Host.RunsFilesOf whose file the host certainly runs us from is that
// one; the later calls leave them to it.

// PreferredCallers lists, for a call a host made from the calling agent's
// hook file, the agents before it in the host's RunsFilesOf: when the host
// also calls `hook X` for this event from X's file, that call runs the
// hooks of no agent's file, and this one must skip them. Nil for a call the
// agent itself made.
func (c *Call) PreferredCallers() []*Agent {
	if c.Host == nil {
		return nil
	}
	var out []*Agent
	for _, n := range c.Host.RunsFilesOf {
		if n == c.Agent.Name {
			return out
		}
		if a, ok := Lookup(n); ok {
			out = append(out, a)
		}
	}
	return nil // not one of the host's files: nobody else runs them
}

// OwnPrograms returns the programs (the path an absolute form runs, or
// ProgramName for the PATH form, which the shell finds on PATH) that VS
// Code, reading agent a's hook file data on this system, certainly runs
// on ev through the very line install writes: whom its call from that
// file reaches. It is what lets another call skip the hooks of no agent's
// file, so it reads the file as VS Code does and says nothing when in
// doubt (vscodeOwnLines): a program it names when VS Code would run
// something else, or this line differently, would leave the user's
// guards run by nobody. A file that does not parse registers nothing.
func (a *Agent) OwnPrograms(data []byte, ev *protocol.Event) []string {
	return a.vscodeOwnLines(data, ev, runtime.GOOS)
}
