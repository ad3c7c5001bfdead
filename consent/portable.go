package consent

// Approvals that travel with the content (issue 32, item 3). A repository's
// hook approved in one checkout holds in every other checkout of the same
// repository — a clone, a git worktree, the same clone moved — as long as
// it runs the same content: an approval records, besides the checkout's own
// paths (which keep matching there as before), the repository's identity
// (package repoid), the source file as a path relative to the worktree's
// root with its digest, the project root's place in the worktree, and every
// file inside the worktree as a relative path. In another checkout those
// paths are re-rooted and every digest must match again; a changed file
// needs a new approval there, as in the checkout it was approved in.
//
// The identity only finds the approval; it proves nothing (a directory can
// claim any repository with a .git file or a config). What makes running
// safe is the content check, so what an approval cannot pin never travels:
// an approval by text only (make, a pipeline) stays with its checkout.
// What still differs between checkouts with identical pinned files is what
// the hook reads without running it: data files, a Makefile read by a
// pinned script, the environment. That residual risk is the same one a
// hook has in its own checkout after a git pull of such a file.

import (
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/internal/repoid"
)

// JSON keys of an entry's repository link (all ours; Hermes never reads
// project approvals).
const (
	keyRepository   = "repository"
	keyRepoIDs      = "ids"
	keyRepoSource   = "source"
	keyRepoSourceSH = "source_sha256"
	keyRepoProject  = "project"
	// keyInRepo, in a file record, is the file's path relative to the
	// worktree's root, for a file inside it.
	keyInRepo = "in_repository"
)

// RepoLink is what makes a project approval hold in other checkouts of its
// repository. The zero RepoLink (a non-git project, an approval by text
// only, one written before links existed) keeps the approval to the paths
// it was given for.
type RepoLink struct {
	// IDs identify the repository (repoid.Repo.IDs).
	IDs []string
	// Source is the hooks file, relative to the worktree's root
	// (slash-separated); SourceSHA256 its content's digest.
	Source       string
	SourceSHA256 string
	// Project is the project root relative to the worktree's root ("."
	// when they are one).
	Project string
}

// Linked reports whether the approval may hold in other checkouts.
func (l RepoLink) Linked() bool { return len(l.IDs) > 0 }

// repos caches each project directory's repository identity for the
// process: the gate asks at every event.
var repos repoid.Cache

// relIn is p relative to top, slash-separated, or false when p is not
// inside top.
func relIn(top, p string) (string, bool) {
	rel, err := filepath.Rel(top, p)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// localRel reports whether a relative path read from the allowlist stays
// inside the worktree it is re-rooted at.
func localRel(rel string) bool {
	return rel != "" && !strings.ContainsRune(rel, 0) && filepath.IsLocal(filepath.FromSlash(rel))
}

// where is a hook's place in its repository: the repository and the link
// an approval of it would record (without the digest: see linkFor).
func where(scope Scope) (repoid.Repo, RepoLink, bool) {
	if scope.Global() {
		return repoid.Repo{}, RepoLink{}, false
	}
	r, ok := repos.Find(scope.Project)
	if !ok {
		return r, RepoLink{}, false
	}
	src, ok1 := relIn(r.Top, scope.Source)
	proj, ok2 := relIn(r.Top, scope.Project)
	if !ok1 || !ok2 {
		return r, RepoLink{}, false
	}
	return r, RepoLink{IDs: r.IDs, Source: src, Project: proj}, true
}

// linkFor is where, with the source file's digest.
func linkFor(scope Scope, hashes *cmdpin.Cache) (repoid.Repo, RepoLink, bool) {
	r, link, ok := where(scope)
	if !ok {
		return r, link, false
	}
	sum, err := hashes.Sum(scope.Source)
	if err != nil {
		return r, RepoLink{}, false
	}
	link.SourceSHA256 = sum
	return r, link, true
}

// link adds the repository link to an approval about to be recorded, and
// each file's path inside the worktree. An approval by text only is not
// linked: it pins nothing that could be compared in another checkout —
// except a rule's, whose text (Target.Spec, pinned by its digest) is all it
// does: it reads nothing but the tool call, so the same text decides the
// same way in every checkout.
func link(e *Entry, scope Scope, t *cmdpin.Target) {
	if (t.Opaque != "" && !wholeBySpec(t)) || e.Files == nil {
		return
	}
	r, l, ok := linkFor(scope, &defaultHashes)
	if !ok {
		return
	}
	e.Repo = l
	for i := range e.Files {
		if rel, ok := relIn(r.Top, e.Files[i].Path); ok {
			e.Files[i].InRepo = rel
		}
	}
}

// travels reports whether e, an approval given in some checkout, may be
// compared with a hook declared under (event, command) elsewhere.
func (e Entry) travels(event, command string) bool {
	return e.valid && !e.nonObject && e.Repo.Linked() && e.Files != nil && (!e.TextOnly || e.pinnedBySpec()) &&
		e.Event == event && e.Command == command
}

// wholeBySpec reports whether t's Spec is everything it does: a rule
// (the dispatcher's ruleSpec text), which runs no file and reads nothing
// outside the tool call. An http or opa hook's Spec pins what it sends, not
// the server's answer, so those approvals stay with their checkout.
func wholeBySpec(t *cmdpin.Target) bool {
	return len(t.Files) == 0 && strings.HasPrefix(t.Spec, ruleSpecPrefix)
}

// pinnedBySpec is wholeBySpec for a recorded approval: by text, no file,
// its Spec's digest recorded (compare checks it against the hook's Spec
// now, so a linked approval covers only the same rule text). Only link
// writes a repository link on such an approval, and only for a rule.
func (e Entry) pinnedBySpec() bool {
	return e.TextOnly && len(e.Files) == 0 && e.SpecSHA256 != "" && !strings.HasPrefix(e.SpecSHA256, "\x00")
}

// elsewhere returns the approvals of h given in other checkouts of its
// repository, newest first, each with its files re-rooted at h's checkout:
// same repository (a shared ID), same source file and project root
// inside it, the same source content, and the same event and command. The
// caller still compares every file's digest (compare).
func (f *File) elsewhere(h *Request, hashes *cmdpin.Cache) []Entry {
	if f == nil || h.Scope.Global() {
		return nil
	}
	var cands []Entry
	for i := len(f.Projects) - 1; i >= 0; i-- {
		if e := f.Projects[i]; e.Scope != h.Scope && e.travels(h.Event, h.Command) {
			cands = append(cands, e)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	r, here, ok := linkFor(h.Scope, hashes)
	if !ok {
		return nil
	}
	out := cands[:0]
	for _, e := range cands {
		if e.Repo.Source == here.Source && e.Repo.Project == here.Project &&
			strings.EqualFold(e.Repo.SourceSHA256, here.SourceSHA256) && r.Shares(e.Repo.IDs) {
			out = append(out, e.reroot(r.Top))
		}
	}
	return out
}

// reroot is e with its files inside the worktree placed under top.
func (e Entry) reroot(top string) Entry {
	files := make([]FileRecord, len(e.Files))
	for i, f := range e.Files {
		if f.InRepo != "" {
			f.Path = filepath.Join(top, filepath.FromSlash(f.InRepo))
		}
		files[i] = f
	}
	e.Files = files
	return e
}

// approvalFor compares what a hook runs now (t, hashed in pins) with its
// approvals: exact, the one given for this checkout (nil for none), first,
// then those others returns (given in other checkouts, computed only when
// needed). The first the hook matches wins; when none does, the drift is
// exact's, or the newest other's. moved says the approval used was given
// in another checkout.
func approvalFor(exact *Entry, others func() []Entry, h *Request, t *cmdpin.Target, pins *cmdpin.Pins) (e Entry, d Drift, moved, ok bool) {
	if exact != nil {
		e, d, ok = *exact, compare(*exact, h, t, pins), true
		if d.Kind != DriftHash {
			return e, d, false, true
		}
	}
	for _, o := range others() {
		od := compare(o, h, t, pins)
		if od.Kind != DriftHash {
			return o, od, true, true
		}
		if !ok {
			e, d, moved, ok = o, od, true, true
		}
	}
	return e, d, moved, ok
}

// portableIndex is the set of (event, command, place, repository ID) the
// snapshot's linked approvals cover, built at its first use, for Screen.
func (s *snapshot) portableIndex() map[string]struct{} {
	s.portOnce.Do(func() {
		s.portable = map[string]struct{}{}
		for _, e := range s.file.Projects {
			if !e.travels(e.Event, e.Command) {
				continue
			}
			for _, id := range e.Repo.IDs {
				s.portable[portKey(e.Event, e.Command, e.Repo, id)] = struct{}{}
			}
		}
	})
	return s.portable
}

func portKey(event, command string, l RepoLink, id string) string {
	return event + "\x00" + command + "\x00" + l.Project + "\x00" + l.Source + "\x00" + id
}

// mayTravel reports whether an approval given in another checkout could
// cover the hook (event, command, scope): the cheap part of elsewhere,
// without hashing anything.
func (s *snapshot) mayTravel(event, command string, scope Scope) bool {
	idx := s.portableIndex()
	if len(idx) == 0 {
		return false
	}
	_, here, ok := where(scope)
	if !ok {
		return false
	}
	for _, id := range here.IDs {
		if _, ok := idx[portKey(event, command, here, id)]; ok {
			return true
		}
	}
	return false
}

// HasProject reports whether f holds an approval of a hook of the project
// rooted at root, given there or in another checkout of its repository
// that travels to it: whether a hook of that project could run (see
// Policy.MayRunIn; doctor and validate ask it of a project whose hooks
// file does not load, which refuses tool calls only then).
func (f *File) HasProject(root string) bool {
	if f == nil {
		return false
	}
	for _, e := range f.Projects {
		if e.Scope.Project == root {
			return true
		}
	}
	return f.linkedTo(root)
}

// OfProject reports whether e approves a hook of the project rooted at
// root: given there, or given in another checkout of its repository
// whose approvals travel to it (the same repository and the same place of
// the project in it; its files are not compared: revoke asks, and an
// approval that could hold there is one the person means to take). A
// global entry is no project's.
func (e Entry) OfProject(root string) bool {
	if e.Scope.Global() {
		return false
	}
	if e.Scope.Project == root {
		return true
	}
	if !e.travels(e.Event, e.Command) {
		return false
	}
	r, ok := repos.Find(root)
	if !ok {
		return false
	}
	proj, ok := relIn(r.Top, root)
	return ok && e.Repo.Project == proj && r.Shares(e.Repo.IDs)
}

// linkedTo reports whether f holds an approval that may travel to the
// project rooted at root.
func (f *File) linkedTo(root string) bool {
	if f == nil {
		return false
	}
	var r repoid.Repo
	var proj string
	found := false
	for _, e := range f.Projects {
		if !e.travels(e.Event, e.Command) {
			continue
		}
		if !found {
			var ok bool
			if r, ok = repos.Find(root); !ok {
				return false
			}
			if proj, ok = relIn(r.Top, root); !ok {
				return false
			}
			found = true
		}
		if e.Repo.Project == proj && r.Shares(e.Repo.IDs) {
			return true
		}
	}
	return false
}
