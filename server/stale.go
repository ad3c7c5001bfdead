package server

import (
	"strconv"
	"time"
)

// A call forwarded by `hermes-hooks hook AGENT` (inputs=1) must be answered
// from the config that process would read itself now, never from an older
// one: the server keeps its last good config while a changed one settles,
// while a writer holds it open, and when the new one does not load — and
// the one-shot reads the file on disk at once (a new guard decides; a broken
// config refuses every tool call). So before a forwarded call is answered,
// the stat identity of every file the config in service was read from (the
// config, the agent hook files, rule files, project and managed hooks files,
// bundle indexes, missing ones too) is compared with what it was just
// before that read; any difference, or a last reload that failed, is a 409
// and the caller dispatches by itself. The server checks rather than the
// caller because only the loaded config knows the whole set of files
// (rule files and agent hook files named inside it); the caller would have
// to parse the config to name them, which is the cost serve saves.
// It is a 409 too while a rule of g is disabled (past its time bound, its
// evaluation still running here): the caller's process decides the rule.
//
// A caller that stated no inputs (curl, a Go host) has no dispatch of its
// own to fall back on, and is still answered by the config in service.

// diskView is the stat identities (statIdentity) of files, taken before
// the config in service was read from them.
type diskView struct {
	gen   int64
	files []string
	ids   []string
}

// statIDs returns the stat identity of each file.
func statIDs(files []string) []string {
	now := time.Now()
	ids := make([]string, len(files))
	for i, f := range files {
		ids[i], _ = statIdentity(f, now)
	}
	return ids
}

// changedFile returns the first of files whose stat identity is not the
// one in ids, and whether there is one. (Shared by the check of a
// forwarded call and the check that a reload's files were not touched
// while they were read.)
//
// A file whose own identity changed is named before a marked entry
// (folders.go) that changed with it: a hooks file created names itself,
// not the folder made for it.
func changedFile(files, ids []string) (string, bool) {
	now := time.Now()
	first, changed := "", false
	for i, f := range files {
		if id, _ := statIdentity(f, now); id != ids[i] {
			if !marked(f) {
				return f, true
			}
			if !changed {
				first, changed = entryPath(f), true
			}
		}
	}
	return first, changed
}

// staleConflict says why g, the config about to answer a forwarded call,
// may not be the one that call's process would read now ("" when it is).
// The recorded view must be g's own: one of another generation (a reload
// that landed in between) vouches for nothing about g.
//
// A file changed with no reload started (no file event comes of a hard
// link made elsewhere, which changes the ctime; a missed event) would
// otherwise refuse every forwarded call until some unrelated event: each
// would pay a warning, a journal note and its own dispatch. So a mismatch
// starts a refresh in the background (one at a time), which reloads, or
// records the new identities when nothing the loader reads changed.
func (s *Server) staleConflict(g *generation) string {
	if e := s.reloadErr.Load(); e != nil {
		return "this server's config on disk does not load (" + *e + "); the server still runs its last good config (generation " +
			strconv.FormatInt(g.n, 10) + ")"
	}
	d := s.disk.Load()
	if d == nil {
		return "this server has not recorded its config files"
	}
	if d.gen != g.n {
		s.kickRefresh()
		return "this server's config changed while the call waited (generation " + strconv.FormatInt(g.n, 10) +
			", files recorded for generation " + strconv.FormatInt(d.gen, 10) + ")"
	}
	if f, changed := changedFile(d.files, d.ids); changed {
		s.kickRefresh()
		return "the config file " + f + " changed since this server read it (generation " +
			strconv.FormatInt(d.gen, 10) + "); it has not loaded the new one yet"
	}
	// A rule past its time bound goes on here, disabled for every firing
	// until it ends (the one-shot's ends with its process): this server
	// would answer with the rule's failure, where the caller's own
	// process decides the rule.
	// (Which rule is not said: a repository's rule text is not for the
	// caller's stderr; the journal's records of that firing name it.)
	if g.d.RuleDisabled() {
		return "a rule of this server's config (generation " + strconv.FormatInt(g.n, 10) +
			") is disabled while an evaluation of it that passed its time bound still runs"
	}
	return ""
}

// kickRefresh starts a look (a refresh that stops at the reload while the
// files settle) unless one started this way is still running; it never
// waits for it.
func (s *Server) kickRefresh() {
	if s.stopped.Load() || !s.kicked.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer s.kicked.Store(false)
		if !s.stopped.Load() {
			s.look()
		}
	}()
}
