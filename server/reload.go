package server

import (
	"context"
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
)

// initialConfigFiles are the config-ish files known before the first load:
// the config, the --claude-settings files and the project hooks file the
// working directory would have.
func (s *Server) initialConfigFiles() []string {
	files := []string{absPath(s.opts.ConfigPath), filepath.Join(s.opts.Cwd, dispatcher.ProjectHooksFile)}
	for _, p := range s.opts.ClaudeSettings {
		files = append(files, absPath(p))
	}
	slices.Sort(files)
	return slices.Compact(files)
}

// configFilesOf lists every file whose content shapes cfg, or would if it
// existed: the config, the Claude settings files it and the project hooks
// file name (a missing one too: creating it must take effect), those given
// on the command line, every file an entry came from, and the project
// hooks file (or where it would be).
func (s *Server) configFilesOf(cfg *dispatcher.Config) []string {
	config := absPath(s.opts.ConfigPath)
	files := []string{config}
	files = append(files, cfg.ClaudeSettings...)
	for _, p := range s.opts.ClaudeSettings {
		files = append(files, absPath(p))
	}
	for _, e := range cfg.Entries {
		if e.Source != "" {
			files = append(files, absPath(e.Source))
		}
	}
	// cfg.ClaudeSettings does not keep every file the config names (those
	// missing, at least), so read the lists as written.
	files = append(files, listedClaudeSettings(config, filepath.Dir(config))...)
	project := filepath.Join(s.opts.Cwd, dispatcher.ProjectHooksFile)
	if cfg.ProjectHooks != "" {
		project = absPath(cfg.ProjectHooks)
		files = append(files, listedClaudeSettings(project, filepath.Dir(filepath.Dir(project)))...)
	}
	files = append(files, project)
	slices.Sort(files)
	return slices.Compact(files)
}

// listedClaudeSettings returns the claude_settings paths a YAML config
// names, resolved as dispatcher.Load resolves them: a leading ~ is the home
// directory, a relative path is relative to base.
func listedClaudeSettings(path, base string) []string {
	data, err := dispatcher.ReadConfigFile(path)
	if err != nil {
		return nil
	}
	cfg, err := dispatcher.ParseConfig(data, path)
	if err != nil {
		return nil
	}
	var out []string
	for _, p := range cfg.ClaudeSettings {
		if p == "~" || strings.HasPrefix(p, "~/") {
			if home, err := os.UserHomeDir(); err == nil {
				p = home + p[1:]
			}
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, p)
		}
		out = append(out, absPath(p))
	}
	return out
}

// fingerprint summarises the content of files (a missing file counts as
// such), so a refresh can tell whether the config changed at all.
func fingerprint(files []string) [32]byte {
	h := sha256.New()
	for _, f := range files {
		h.Write([]byte(f))
		// Never blocks on a FIFO and never reads without bound: a file a
		// repository named could be either.
		data, err := dispatcher.ReadConfigFile(f)
		if err != nil {
			h.Write([]byte("\x00unreadable\x00"))
			continue
		}
		h.Write([]byte("\x00" + strconv.Itoa(len(data)) + "\x00"))
		h.Write(data)
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}

// reloadConfig loads the config again if any file it depends on changed,
// and puts a new dispatcher in service. On failure the current one stays,
// and the failure is logged once per distinct content. Called with s.mu
// held.
//
// The fingerprint is taken before loading, over the files the current
// config depends on: an edit that lands after it raises a file event and so
// another refresh, never a stale "unchanged". When the new config depends
// on other files (a new claude_settings entry), the load is repeated with
// those fingerprinted first, so the fingerprint always predates what was
// loaded.
func (s *Server) reloadConfig() error {
	prev := s.cur.Load()
	files := s.configFiles
	var fp0 [32]byte
	for attempt := 0; ; attempt++ {
		fp := fingerprint(files)
		if attempt == 0 {
			fp0 = fp
			if prev != nil && (fp == s.configFP || fp == s.failedFP) {
				return nil
			}
			if prev != nil && !s.settled(files) {
				// Changed, and maybe still being written: keep the
				// config in service and look again once it is quiet.
				return errUnsettled
			}
		}
		cfg, err := dispatcher.Load(s.opts.ConfigPath, dispatcher.LoadOptions{
			ClaudeSettings: s.opts.ClaudeSettings,
			ProjectDir:     s.opts.Cwd,
		})
		if err != nil {
			// Keyed like the check above, so the same broken content is
			// reported once, not on every refresh.
			s.failedFP = fp0
			msg := err.Error()
			s.reloadErr.Store(&msg)
			if prev != nil {
				attrs := []any{"generation", prev.n}
				attrs = append(attrs, configErrorAttrs(err)...)
				s.log.Error("config reload failed: keeping the last good config", attrs...)
			}
			return err
		}
		next := s.configFilesOf(cfg)
		if !slices.Equal(next, files) && attempt < 3 {
			files = next
			continue
		}
		if prev != nil && fingerprint(files) != fp {
			// Written to while we read it: what was read may be half a
			// file. Try again once it is quiet.
			s.settleID = nil
			s.retryAfter(s.opts.Settle)
			return errUnsettled
		}
		d, err := s.build(cfg)
		if err != nil {
			return err
		}
		g := &generation{n: 1, cfg: cfg, d: d}
		if prev != nil {
			g.n = prev.n + 1
		}
		s.cur.Store(g)
		s.configFiles, s.configFP, s.failedFP = next, fp, [32]byte{}
		s.reloadErr.Store(nil)
		msg := "config reloaded"
		if prev == nil {
			msg = "config loaded"
		}
		s.log.Info(msg, "generation", g.n, "config", s.opts.ConfigPath, "hooks", len(cfg.Entries),
			"claude_settings", len(cfg.ClaudeSettings), "project_hooks", cfg.ProjectHooks, "warnings", len(cfg.Warnings))
		for _, w := range cfg.Warnings {
			s.log.Warn("config warning", "detail", w.String())
		}
		return nil
	}
}

// errUnsettled: the config files are changing; the reload waits.
var errUnsettled = errors.New("the config files are still changing")

// settled reports whether files have stayed the same (same size, mtime,
// ctime, inode) for the settle period: observed identical at two refreshes
// at least Settle apart, and last changed at least Settle ago. Until then it
// schedules another look. A file rewritten in place — truncated, then
// written — is therefore never applied half-written, and a file rewritten
// continuously keeps the last good config in service until it stops.
// Called with s.mu held.
func (s *Server) settled(files []string) bool {
	id := make([]string, 0, len(files))
	var newest time.Time
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			id = append(id, f+"\x00missing")
			continue
		}
		mt, ct := fileTimes(fi)
		if mt.After(newest) {
			newest = mt
		}
		if ct.After(newest) {
			newest = ct
		}
		id = append(id, f+"\x00"+strconv.FormatInt(fi.Size(), 10)+"\x00"+strconv.FormatInt(mt.UnixNano(), 10)+
			"\x00"+strconv.FormatInt(ct.UnixNano(), 10)+"\x00"+fileIdentity(fi))
	}
	now := time.Now()
	if !slices.Equal(id, s.settleID) {
		s.settleID, s.settleSince = id, now
		s.retryAfter(s.opts.Settle)
		return false
	}
	quiet := now.Sub(s.settleSince)
	if age := now.Sub(newest); age < quiet {
		quiet = age
	}
	if quiet < s.opts.Settle {
		s.retryAfter(s.opts.Settle - quiet)
		return false
	}
	for _, f := range files {
		if beingWritten(f) {
			// Quiet, but still open for writing: a writer paused half-way.
			s.retryAfter(s.opts.Settle)
			return false
		}
	}
	return true
}

// retryAfter schedules a refresh after d (one at a time; none once the
// server has stopped). Called with s.mu held.
func (s *Server) retryAfter(d time.Duration) {
	if s.stopped.Load() {
		return
	}
	if s.retry != nil {
		s.retry.Stop()
	}
	s.retry = time.AfterFunc(d, func() {
		if !s.stopped.Load() {
			s.refresh(nil)
		}
	})
}

// configErrorAttrs says where and why a config failed: file, line, reason.
func configErrorAttrs(err error) []any {
	var ce *dispatcher.ConfigError
	if errors.As(err, &ce) {
		attrs := []any{"file", ce.Path}
		if ce.Line > 0 {
			attrs = append(attrs, "line", ce.Line)
		}
		reason := err.Error()
		if ce.Err != nil {
			reason = ce.Err.Error()
		}
		return append(attrs, "reason", reason)
	}
	return []any{"reason", err.Error()}
}

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
	statuses := dispatcher.Inspect(g.cfg, allow, s.opts.Cwd)
	first := s.hooks == nil
	next := make(map[hookKey]hookView, len(statuses))
	var scripts []string
	runnable := 0
	for i := range statuses {
		st := &statuses[i]
		if st.Script != "" {
			scripts = append(scripts, absPath(st.Script))
		}
		k := hookKey{st.Entry.DeclaredAs, st.Entry.Command}
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

func (s *Server) logHookChange(k hookKey, v hookView, st *dispatcher.HookStatus, first bool) {
	hint := consent.ApproveCommandHint(k.event, k.command)
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
	s.reviewHooks(changed)
	if s.updateWatches() {
		// Directories watched only from now on may have changed before.
		_ = s.reloadConfig()
		s.reviewHooks(nil)
		s.updateWatches()
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
