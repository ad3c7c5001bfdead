package agents

import (
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// A host that reads several agents' hook files (VS Code: Copilot's and
// Claude Code's) calls `hook AGENT` once from each file that registers it
// for an event: the entries of those files it runs itself, but the hooks
// no agent's file declares (the Hermes config's, a project's hooks file)
// must run in one of those calls only. The call made from the first agent
// of Host.RunsFilesOf whose file the host also runs us from is that one;
// the later calls leave them to it.

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

// OwnPrograms returns the programs of the commands install wrote for agent
// a (the path an absolute form runs, or ProgramName for the PATH form,
// which the shell finds on PATH) that its hook file data registers for ev: whom
// the agent, or a host reading that file, calls on that event.
// A file that does not parse registers nothing.
func (a *Agent) OwnPrograms(data []byte, ev *protocol.Event) []string {
	v, err := pyjson.DecodeOrdered(pyjson.SkipBOM(data))
	doc, ok := v.(pyjson.OrderedObject)
	if err != nil || !ok {
		return nil
	}
	hooks, _ := get(doc, "hooks").(pyjson.OrderedObject)
	var out []string
	for _, kv := range hooks {
		if e, ok := a.SourceEvent(kv.Key); !ok || e != ev {
			continue
		}
		list, _ := kv.Value.([]any)
		for _, h := range a.handlers(list) {
			c, _ := get(h.obj, "command").(string)
			if l, ok := parseOwn(c); ok && l.agent == a.Name {
				if l.exe == "" {
					l.exe = ProgramName // looked up on PATH
				}
				out = append(out, l.exe)
			}
		}
	}
	return out
}
