package server

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/report"
)

// Watching files and reviewing hooks for the operator's log.

// hookKey identifies a hook as consent does: the event as declared and the
// command string.
type hookKey struct{ event, command string }

// hookView is what the server last saw of a hook's consent state.
type hookView struct {
	approved bool
	drift    consent.DriftKind
}

// reviewHooks inspects every configured hook against the allowlist and logs
// what changed since the last review: hooks added or removed by a reload,
// approved or revoked, scripts edited since their approval. It changes
// nothing — consent.Policy enforces all of it on every dispatch — it makes
// the change visible where the operator looks. Called with s.mu held.
func (s *Server) reviewHooks(changed map[string]bool) {
	store := s.opts.Store
	if changed[store.Path()] {
		s.log.Info("allowlist changed: approvals and revocations apply from the next dispatch", "path", store.Path())
	}
	allow, err := store.Load()
	if err != nil {
		s.log.Warn("read allowlist", "err", err)
	}
	g := s.cur.Load()
	statuses := report.Inspect(g.cfg, allow, s.opts.Cwd)
	first := s.hooks == nil
	next := make(map[hookKey]hookView, len(statuses))
	var scripts []string
	runnable := 0
	for i := range statuses {
		st := &statuses[i]
		if st.Script != "" {
			scripts = append(scripts, absPath(st.Script))
		}
		k := hookKey{st.Entry.DeclaredAs, st.Entry.Text()}
		if _, dup := next[k]; dup {
			continue
		}
		v := hookView{approved: st.Approved, drift: st.Drift.Kind}
		next[k] = v
		if st.Runs() {
			runnable++
		}
		s.logHookChange(k, v, st, first)
	}
	for k := range s.hooks {
		if _, ok := next[k]; !ok {
			s.log.Info("hook removed", "event", k.event, "command", k.command)
		}
	}
	if first {
		s.log.Info("hooks", "configured", len(statuses), "runnable", runnable, "safe_mode", s.opts.SafeMode)
	}
	s.hooks = next
	slices.Sort(scripts)
	s.scripts = slices.Compact(scripts)
}

func (s *Server) logHookChange(k hookKey, v hookView, st *report.HookStatus, first bool) {
	hint := consent.ApproveHint(k.event, k.command, st.Entry.Scope)
	attrs := []any{"event", k.event, "command", k.command}
	old, known := s.hooks[k]
	switch {
	case !known && !st.Runs():
		msg := "hook added, but it will not run"
		if first {
			msg = "hook will not run"
		}
		reason := "not allowlisted"
		if st.Approved {
			reason = st.Drift.Message()
		}
		s.log.Warn(msg, append(attrs, "reason", reason, "approve_with", hint)...)
	case !known && !first:
		s.log.Info("hook added", attrs...)
	case !known:
	case old.approved && !v.approved:
		s.log.Warn("hook revoked: it no longer runs", attrs...)
	case !old.approved && v.approved && v.drift == consent.DriftHash:
		s.log.Warn("hook approved, but its script changed since: it will not run", append(attrs, "reason", st.Drift.Message())...)
	case !old.approved && v.approved:
		s.log.Info("hook approved", attrs...)
	case v.drift == consent.DriftHash && old.drift != consent.DriftHash:
		s.log.Warn("hook script changed since approval: the hook will not run until re-approved",
			append(attrs, "script", st.Script, "reason", st.Drift.Message(), "approve_with", hint)...)
	case old.drift == consent.DriftHash && v.drift != consent.DriftHash:
		s.log.Info("hook script matches its approval again: the hook runs", attrs...)
	}
}

// updateWatches watches the directory of every file that matters (config
// files, the allowlist, hook scripts) and of their symlink targets — or,
// for a file whose directory does not exist yet, the nearest ancestor that
// does, so its creation is seen. It reports whether a directory was added:
// changes made there before the watch existed were missed, and the caller
// checks again. Called with s.mu held.
func (s *Server) updateWatches() (grew bool) {
	if s.watcher == nil {
		return false
	}
	want := map[string]bool{}
	interesting := map[string]bool{}
	add := func(f string) {
		interesting[f] = true
		for d := filepath.Dir(f); ; {
			// The directory itself is interesting too: its removal or
			// replacement drops the watch, and the refresh re-creates it.
			interesting[d] = true
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				want[d] = true
				return
			}
			p := filepath.Dir(d)
			if p == d {
				return
			}
			d = p
		}
	}
	files := append(append([]string{s.opts.Store.Path()}, s.configFiles...), s.scripts...)
	for _, f := range files {
		if marked(f) {
			// Whether a .git is there is all the project search asks, and
			// the check of each forwarded call compares it (a mismatch
			// starts a refresh). Outside a repository there is one at
			// every level up to /: watching each parent for it had serve
			// read every event of a busy / or /tmp. The same holds for
			// the managed config's directories up to / (by mode). An
			// event on one in a folder watched for another file still
			// counts.
			interesting[entryPath(f)] = true
			continue
		}
		add(f)
		if real, err := filepath.EvalSymlinks(f); err == nil && real != f {
			add(real)
		}
	}
	have := map[string]bool{}
	for _, d := range s.watcher.WatchList() {
		have[d] = true
	}
	for d := range want {
		if have[d] {
			continue
		}
		if err := s.watcher.Add(d); err != nil {
			if !s.watchFailed[d] {
				s.log.Warn("cannot watch directory: changes there need a restart", "dir", d, "err", err)
				s.watchFailed[d] = true
			}
			continue
		}
		delete(s.watchFailed, d)
		s.log.Debug("watching directory", "dir", d)
		grew = true
	}
	for d := range have {
		if !want[d] {
			_ = s.watcher.Remove(d)
		}
	}
	s.interesting = interesting
	return grew
}

// refresh re-checks everything after file events (changed names the paths
// that had events; nil means "anything may have changed").
func (s *Server) refresh(changed map[string]bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = s.reloadConfig() // logs its own failure
	s.afterReload(changed)
}

// look is a refresh no file event asked for — the settle timer's
// (retryAfter), a forwarded call's (kickRefresh) — that stops at the
// reload while the config files have not settled: the config in service
// is the same then, and what the rest reads beyond it (the allowlist, the
// scripts, the watched folders) comes with file events of its own. The
// timer looks every Settle for as long as a writer holds a file open, so a
// full refresh on each inspected every hook five times a second (a third
// of a core for 500 hooks), without end.
func (s *Server) look() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if errors.Is(s.reloadConfig(), errUnsettled) {
		return
	}
	s.afterReload(nil)
}

// afterReload is the rest of a refresh, after the reload (changed: as
// refresh's). Called with s.mu held.
func (s *Server) afterReload(changed map[string]bool) {
	s.reviewHooks(changed)
	if s.updateWatches() {
		// Directories watched only from now on may have changed before.
		_ = s.reloadConfig()
		s.reviewHooks(nil)
		s.updateWatches()
	}
	// A worker runs the code it loaded when it started: one whose files
	// changed stops now, not when its next request notices.
	for _, w := range s.cur.Load().d.StopChangedWorkers() {
		s.log.Info("worker stopped: its files changed since it started", "event", w.Event, "command", w.Command)
	}
}

func (s *Server) isInteresting(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.interesting[filepath.Clean(name)]
}

// watch turns file events into refreshes: an event on a file that matters
// starts (or extends) a quiet period of opts.Debounce, and the refresh runs
// when it ends — at most maxBurst after the first event of a burst, so a
// file rewritten continuously cannot postpone it forever.
func (s *Server) watch(ctx context.Context, w *fsnotify.Watcher) {
	var timer *time.Timer
	var fire <-chan time.Time
	var first time.Time
	pending := map[string]bool{}
	arm := func() {
		now := time.Now()
		if timer == nil {
			first = now
			timer = time.NewTimer(s.opts.Debounce)
			fire = timer.C
			return
		}
		wait := min(s.opts.Debounce, max(first.Add(maxBurst).Sub(now), 0))
		timer.Reset(wait)
	}
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			if !s.isInteresting(ev.Name) {
				continue
			}
			s.log.Debug("file event", "path", ev.Name, "op", ev.Op.String())
			pending[filepath.Clean(ev.Name)] = true
			arm()
		case err, ok := <-w.Errors:
			if !ok {
				return
			}
			// An overflow means events were lost: check everything.
			s.log.Warn("file watcher", "err", err)
			arm()
		case <-fire:
			timer, fire = nil, nil
			changed := pending
			pending = map[string]bool{}
			s.refresh(changed)
		}
	}
}
