package consent

import (
	"fmt"
	"sort"

	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
)

// Screen is a look at the allowlist taken once per firing, before any
// hook's matcher runs: it tells which of a repository's hooks Decide would
// skip as not approved whatever the firing, so that they cost nothing —
// no matcher, no resolving of what they run, no hashing. A repository
// can list hundreds of hooks with costly matchers; only the ones you
// approved may make a dispatch wait.
//
// A Screen refuses only what Decide would certainly skip: a repository's
// hook that is approved neither in the allowlist nor in this process,
// while no accept channel (--accept-hooks) or TTY prompt could approve it
// and the allowlist was read. Safe mode, a missing store and an allowlist
// that cannot be read or is corrupt refuse nothing here, so Decide still
// says why (and a fail_closed guard still blocks on a broken allowlist).
type Screen struct {
	p    *Policy
	snap *snapshot
}

// Screen returns the screen of the allowlist as it is now. The zero Screen
// refuses nothing.
func (p *Policy) Screen() Screen {
	if p.SafeMode || p.Store == nil || p.Accept || (p.Prompter != nil && p.Prompter.IsTTY) {
		return Screen{}
	}
	s := p.current()
	if s.broken {
		return Screen{}
	}
	return Screen{p: p, snap: s}
}

// Refuses reports whether Decide would skip the hook (event as declared,
// command, scope) as a repository's hook nobody approved. Global hooks are
// never refused: hooks_auto_accept and HERMES_ACCEPT_HOOKS may approve
// them, and an unapproved one of the user's own is reported where it
// matches.
func (s Screen) Refuses(event, command string, scope Scope) bool {
	if s.p == nil || scope.Global() {
		return false
	}
	if _, ok := s.snap.projectIndex()[pair{event, command, scope}]; ok {
		return false
	}
	if s.snap.mayTravel(event, command, scope) {
		return false
	}
	s.p.mu.Lock()
	_, ok := s.p.session[pair{event, command, scope}]
	s.p.mu.Unlock()
	return !ok
}

// Refused tells the user about the hooks Refuses refused in one firing:
// one warning per file the hooks are written in (a repository's hooks file,
// or a rule file it includes: the file a person opens to review them),
// through the policy's warnings (each said once until the allowlist
// changes). A single hook gets Decide's own message; several are counted,
// so that a repository listing hundreds of hooks makes one line per file
// (a hooks file includes at most hookconfig.MaxRuleFiles), not hundreds.
func (s Screen) Refused(hooks []Request) {
	if s.p == nil || len(hooks) == 0 {
		return
	}
	type origin struct {
		scope Scope
		file  string
	}
	byFile := map[origin][]Request{}
	for i := range hooks {
		o := origin{hooks[i].Scope, hooks[i].writtenIn()}
		byFile[o] = append(byFile[o], hooks[i])
	}
	origins := make([]origin, 0, len(byFile))
	for o := range byFile {
		origins = append(origins, o)
	}
	sort.Slice(origins, func(i, j int) bool {
		if origins[i].scope.Source != origins[j].scope.Source {
			return origins[i].scope.Source < origins[j].scope.Source
		}
		return origins[i].file < origins[j].file
	})
	for _, o := range origins {
		list := byFile[o]
		if len(list) == 1 {
			s.p.warn(projectNotApprovedMessage(list[0].Event, list[0].Command, o.scope, o.file))
			continue
		}
		s.p.warn(projectHooksNotApprovedMessage(len(list), list[0].Event, o.scope, o.file))
	}
}

// projectHooksNotApprovedMessage is the warning for n hooks written in
// file, of one repository, declared under event, that nobody approved.
func projectHooksNotApprovedMessage(n int, event string, scope Scope, file string) string {
	return fmt.Sprintf("%d hooks for %s from %s not approved — skipped. A repository's hooks run only once you approve them for that repository (hooks_auto_accept and HERMES_ACCEPT_HOOKS do not approve them): review and approve them with: hermes-hooks approve --project %s",
		n, event, file, shquote.Quote(scope.Project))
}

// projectIndex is the set of the snapshot's valid project approvals, built
// at its first use: a screen asks about every repository hook of an event
// at every firing, and a list scan per hook would cost what the screen
// saves.
func (s *snapshot) projectIndex() map[pair]struct{} {
	s.projOnce.Do(func() {
		s.projects = make(map[pair]struct{}, len(s.file.Projects))
		for _, e := range s.file.Projects {
			if e.matchesIn(e.Event, e.Command, e.Scope) {
				s.projects[pair{e.Event, e.Command, e.Scope}] = struct{}{}
			}
		}
	})
	return s.projects
}

// UnapprovedNotice is the one line an agent shows the person when n of a
// repository's hooks did not run because nobody approved them as they are
// now (issue 32, item 2). It holds the count and a fixed command only:
// nothing a repository wrote (a hook's name, its command) reaches it.
func UnapprovedNotice(n int) string {
	if n == 1 {
		return "1 hook from this repository is not approved: review it, then run `hermes-hooks approve --project` yourself"
	}
	return fmt.Sprintf("%d hooks from this repository are not approved: review them, then run `hermes-hooks approve --project` yourself", n)
}
