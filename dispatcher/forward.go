package dispatcher

import (
	"reflect"
	"slices"
	"sort"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Entries an event runs although declared under another (Event.AlsoRuns,
// protocol/forward.go): PreSkillShellCommand runs the pre_tool_call
// entries whose matcher fits the shell tool, so a terminal guard sees a
// skill's shell command. They are selected with the event's own, in
// priority then config order, get their own event's payload, and their
// replies are read by its rules, then held to the firing event's
// (Event.Adopt). An own entry with the same command selected in the same
// firing stands for one (it runs once). The agent whose hook file declared
// one runs it on its own event only, so it runs here even when that agent
// calls.

// alsoRunLists builds, per event that also runs another's entries, those
// entries less the ones that opted out (skill_commands: false), in run
// order (byEvent is sorted).
func alsoRunLists(byEvent map[string][]*hookconfig.Entry) map[string][]*hookconfig.Entry {
	out := map[string][]*hookconfig.Entry{}
	for _, ev := range protocol.Events() {
		for _, e := range byEvent[ev.AlsoRuns] {
			if ev.AlsoRuns != "" && !e.OwnEventOnly {
				out[ev.Name] = append(out[ev.Name], e)
			}
		}
	}
	return out
}

// forwarded reports whether e runs on ev as another event's entry.
func forwarded(ev *protocol.Event, e *hookconfig.Entry) bool { return ev.Forwards(e.Event) }

// runEvent is the event whose payload e gets and whose rules read its
// reply on a firing of ev: its own, when forwarded.
func runEvent(ev *protocol.Event, e *hookconfig.Entry) *protocol.Event {
	if forwarded(ev, e) {
		return e.Event
	}
	return ev
}

// standsFor reports whether an entry already selected runs e's command in
// e's dialect and may stand for it (mayStandFor). Only a managed entry
// stands for a managed one: another file's copy of its command
// (unapproved, perhaps) must not shadow it.
func standsFor(selected []*hookconfig.Entry, e *hookconfig.Entry) bool {
	for _, s := range selected {
		if copyKey(s) == copyKey(e) && s.Dialect == e.Dialect && (s.Scope.Managed || !e.Scope.Managed) && mayStandFor(s, e) {
			return true
		}
	}
	return false
}

// mayStandFor reports whether s, selected for a firing, may run in place
// of e, an entry with the same text: it comes from where e does (the
// managed layer's stands for any) — a repository's or a bundle's copy of
// your guard, approved as harmless, must not be what decides for it; nor
// may your copy stand for a repository's, at selection: they are approved
// apart, so the gate may skip yours (not re-approved since its script
// changed) where it runs the other, and your user settings' copy gets the
// agent's project (else the session's directory) as $CLAUDE_PROJECT_DIR
// where the project's gets the project's (projectOf,
// claude_dedup_project_dir.txtar); nor may a repository's copy
// from one of its files stand for one from another: each file's hooks are
// approved apart, with its digest, so a clone where one file changed skips
// that copy only (claude_dedup_clone_changed.txtar); such copies run once only
// when the gate has let both run the same process (twinRan) — and it
// decides as e would (decidesAs).
func mayStandFor(s, e *hookconfig.Entry) bool {
	if !s.Scope.Managed && (s.Scope.Project != e.Scope.Project || s.Scope.Bundle != e.Scope.Bundle || !e.Scope.Global() && s.Scope.Source != e.Scope.Source) {
		return false
	}
	return decidesAs(s, e)
}

// decidesAs reports whether s decides as e would: the same mode,
// fail_closed if e is, the same once and async (a Claude handler), and for
// a rule the same decision and message. A shadow copy decides nothing; a
// copy that fails open, runs once a session, answers in the background or
// only adds context would leave e's block unsaid.
func decidesAs(s, e *hookconfig.Entry) bool {
	if s.Shadow != e.Shadow || e.FailClosed && !s.FailClosed || s.Once != e.Once || s.Async != e.Async || s.AsyncRewake != e.AsyncRewake {
		return false
	}
	if sr, er := s.Rule(), e.Rule(); sr != nil && er != nil && (sr.Decision != er.Decision || sr.Message != er.Message) {
		return false
	}
	return true
}

// runOrder sorts entries by priority, then config order.
func runOrder(list []*hookconfig.Entry) {
	sort.SliceStable(list, func(i, j int) bool {
		// The managed layer first, whatever priority another file gives
		// its hooks: none of them can run, or rewrite, before it.
		if mi, mj := list[i].Scope.Managed, list[j].Scope.Managed; mi != mj {
			return mi
		}
		if list[i].Priority != list[j].Priority {
			return list[i].Priority < list[j].Priority
		}
		return list[i].Order() < list[j].Order()
	})
}

// claudeCopies is Claude Code's rule that a command runs once per firing,
// for one firing (selectEntries): the Claude entries selected so far, by
// copyKey. A managed entry is never the copy left out for another file's.
type claudeCopies map[string][]*hookconfig.Entry

// copyKey is what two entries must share to be copies of one hook in a
// firing: the hook (SameKey) and its `if` rule. Claude Code keys its dedup
// by (source root, shell, command, args, if): one command under two if
// rules that both fit a call runs twice, once per rule (each may be there
// to see a different call; the spec's §5, "Dedup").
func copyKey(e *hookconfig.Entry) string { return e.SameKey() + "\x00" + e.If }

// admit reports whether e, which the firing selects (decided: its matcher
// said so), runs: not when a copy already selected may stand for it
// (mayStandFor; a copy whose matcher could not tell fails to start, so it
// stands only for another such). A copy selected before e that e may
// stand for gives way to it instead (a fail_closed copy listed after one
// that fails open runs, once) and is taken out of out (and of sf's
// undecided entries).
func (c *claudeCopies) admit(e *hookconfig.Entry, decided bool, out []*hookconfig.Entry, sf *firing) ([]*hookconfig.Entry, bool) {
	key := copyKey(e)
	if e.Scope.Managed {
		key = "\x00managed\x00" + key
	}
	sure := func(s *hookconfig.Entry) bool { return !slices.Contains(sf.undecided, s) }
	seen := (*c)[key]
	if slices.ContainsFunc(seen, func(s *hookconfig.Entry) bool { return mayStandFor(s, e) && (sure(s) || !decided) }) {
		return out, false
	}
	var given []*hookconfig.Entry
	for _, s := range seen {
		if mayStandFor(e, s) && (decided || !sure(s)) {
			given = append(given, s)
		}
	}
	if given != nil {
		gone := func(x *hookconfig.Entry) bool { return slices.Contains(given, x) }
		out = slices.DeleteFunc(out, gone)
		sf.undecided = slices.DeleteFunc(sf.undecided, gone)
		seen = slices.DeleteFunc(seen, gone)
	}
	for _, s := range seen {
		// Your copy and a project's (neither a bundle's: Claude Code
		// keeps a plugin's copy apart too) that decide alike: both are
		// selected, and the gate phase runs one if it lets both run the
		// same process (twinRan).
		if s.Scope.Bundle == "" && e.Scope.Bundle == "" && decided && sure(s) && decidesAs(s, e) && decidesAs(e, s) {
			sf.twins = append(sf.twins, [2]*hookconfig.Entry{s, e})
		}
	}
	if *c == nil {
		*c = claudeCopies{}
	}
	(*c)[key] = append(seen, e)
	return out, true
}

// twinRan returns the index of the entry run in round r whose twin (see
// claudeCopies.admit) the entry selected[i] is, when the two are one
// process: the same files started the same way in the same directory with
// the same environment ($CLAUDE_PROJECT_DIR), both matchers sure, the one
// run with no shorter timeout; -1 if none. Claude Code runs such copies
// once; the gate has let both run, so neither stands for a copy it may not.
func (r *round) twinRan(i int, f *firing) int {
	h := &r.hooks[i]
	for _, t := range f.twins {
		if t[1] != r.selected[i] {
			continue
		}
		for _, j := range r.runnable {
			o := &r.hooks[j]
			if r.selected[j] == t[0] && o.Dir == h.Dir && o.ProjectDir == h.ProjectDir && o.undecided == "" && h.undecided == "" &&
				o.Entry.Timeout >= h.Entry.Timeout && slices.Equal(o.Env, h.Env) && reflect.DeepEqual(o.target, h.target) {
				return j
			}
		}
	}
	return -1
}
