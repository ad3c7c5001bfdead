package report

import (
	"slices"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Coverage: proving that each entry of an installed file fires says
// nothing of the entries that are not there. An agent's file whose
// PreToolUse entry was taken out (or whose file is gone) runs no guard on
// tool calls, while every entry left fires. So where an agent is installed
// for the project doctor runs in, or for the user (doctor found its file,
// or the registry of installations records one), each of its gating
// events that the config guards needs an entry that calls hermes-hooks in
// one of the agent's files read there. Where no agent is installed,
// nothing is asked: the config may serve dispatch or serve alone.
//
// And the converse: a project's file the agent does not read where doctor
// runs (NotReadHere) guards nothing there, unless the user's own file of
// the agent runs the same guards (guardedHere).

// GuardsOf says, for doctor's coverage, whether cfg holds an entry that
// an agent's call of ev must run: an entry of ev, or of the event whose
// entries ev runs too (protocol.Event.AlsoRuns, unless the entry opts
// out), other than those of the agent's own hook file that it runs
// itself (Entry.RunBy: `hook AGENT` skips them on their own event).
func GuardsOf(cfg *hookconfig.Config) func(agent string, ev *protocol.Event) bool {
	return func(agent string, ev *protocol.Event) bool {
		for _, e := range cfg.Entries {
			if e.Event == ev && e.RunBy != agent || ev.Forwards(e.Event) && !e.OwnEventOnly {
				return true
			}
		}
		return false
	}
}

// coverage sets Uncovered on one file of each agent installed for
// o.Project or for the user: the gating events of the agent (those its
// installed release knows, by versions) that o.Guards guards and that no
// entry install writes, in any of its files there, calls hermes-hooks for.
// An entry of ours that does not fire counts as calling it (it is a
// problem of its own already); an install-like line does not: doctor
// cannot prove it, and it may run nothing on another machine.
func coverage(checks []InstallCheck, o ProbeOptions, versions map[string]string) {
	if o.Guards == nil {
		return
	}
	here := map[string][]int{} // an agent's checks that apply here
	var order []string
	for i := range checks {
		c := &checks[i]
		if c.Scope != "user" && c.Root != o.Project {
			continue
		}
		if _, seen := here[c.Agent]; !seen {
			order = append(order, c.Agent)
		}
		here[c.Agent] = append(here[c.Agent], i)
	}
	for _, name := range order {
		a, ok := agents.Lookup(name)
		if !ok {
			continue
		}
		called := map[string]bool{}
		for _, i := range here[name] {
			for _, e := range checks[i].Entries {
				if e.Status != FireNotOurs && e.Status != FireInstallLike {
					called[e.Event] = true
				}
			}
		}
		var missing []string
		for _, ev := range coveredEvents(a) {
			canon, ok := a.Canonical(ev)
			if ok && guardedThere(a, ev, canon) && !called[ev] && knows(a, versions[name], ev) && o.Guards(name, canon) {
				missing = append(missing, ev)
			}
		}
		if len(missing) > 0 {
			checks[coverageFile(checks, here[name])].Uncovered = missing
		}
	}
}

// coveredEvents are the events of a whose guards doctor asks an entry
// for: those install writes, then the others a names (Claude Code's
// TaskCompleted, ConfigChange …), which it calls hermes-hooks for only
// from an entry its files name, and install writes none: a guard of one
// of them never runs under a, unless its file was given such an entry.
// An event of the same catalog event as one install writes is not asked
// for: another spelling of it (Copilot CLI's and Kiro's preToolUse beside
// PreToolUse, Cline's tool_call), or one the agent fires for calls the
// written one covers too (Cursor's beforeShellExecution, which install
// leaves out so that no guard runs twice per command).
func coveredEvents(a *agents.Agent) []string {
	out := slices.Clone(a.HookFile.Events)
	written := map[*protocol.Event]bool{}
	for _, ev := range out {
		if canon, ok := a.Canonical(ev); ok {
			written[canon] = true
		}
	}
	for _, ev := range a.AgentEvents() {
		if canon, ok := a.Canonical(ev); ok && written[canon] {
			continue
		}
		if !slices.Contains(out, ev) {
			out = append(out, ev)
		}
	}
	return out
}

// guardedThere: a guard of ev, canon in the catalog, refuses something
// the agent does: a tool call (Gating), or, for an event install writes
// no entry for, anything its hook may block (a task's completion, a
// config change): such a guard is there to refuse, and refuses nothing
// when it never runs.
func guardedThere(a *agents.Agent, ev string, canon *protocol.Event) bool {
	return canon.Gating() || !slices.Contains(a.HookFile.Events, ev) && canon.Can(protocol.CapBlock)
}

// coverageFile is the check among at that an agent's missing events are
// told on: the project's shared file, else its checkout-only one, else
// the user's (install writes the one first named by default).
func coverageFile(checks []InstallCheck, at []int) int {
	for _, scope := range []string{"project", "local"} {
		for _, i := range at {
			if checks[i].Scope == scope {
				return i
			}
		}
	}
	return at[0]
}

// guardedHere sets GuardedHereBy on each check the agent does not read
// where doctor runs when a user's file of the same agent runs hermes-hooks
// there for every gating event of ours the check has.
func guardedHere(checks []InstallCheck) {
	for i := range checks {
		c := &checks[i]
		if c.NotReadHere == "" {
			continue
		}
		for j := range checks {
			if u := &checks[j]; u.Scope == "user" && u.Agent == c.Agent && firesFor(u, c) {
				c.GuardedHereBy = u.File
				break
			}
		}
	}
}

// firesFor reports whether u, a user's file, runs hermes-hooks for every
// gating event c has an entry of ours for (c has one at least): each has
// an entry in u that
// fires (or that --no-run lists unproved, as it lists c's), and nothing
// doctor found keeps the agent from running u's hooks.
func firesFor(u, c *InstallCheck) bool {
	if u.Error != "" || u.SwitchedOff != nil || u.NotReadHere != "" || len(u.RepoEnv) > 0 || len(u.Stripped) > 0 || u.loadedBeforeHook() {
		return false
	}
	guards := false
	for _, e := range c.Entries {
		if !e.Gating || e.Status == FireNotOurs || e.Status == FireInstallLike {
			continue
		}
		fires := slices.ContainsFunc(u.Entries, func(f FireCheck) bool {
			return f.Event == e.Event && (f.Status == FireOK || f.Status == FireNotRun)
		})
		if !fires || slices.Contains(u.Unreviewed, e.Event) {
			return false
		}
		guards = true
	}
	return guards
}
