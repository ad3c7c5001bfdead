package server

import (
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/bundle"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/serverstats"
)

// initialConfigFiles are the config-ish files known before the first load:
// the config, the agent hook files of the command line (--claude-settings
// …) and the project hooks file the working directory would have.
func (s *Server) initialConfigFiles() []string {
	files := []string{absPath(s.opts.ConfigPath)}
	files = append(files, hookconfig.ManagedPaths()...)
	files = append(files, managedDirEntries()...)
	files = append(files, s.projectSearchEntries()...)
	for _, p := range s.flagFiles() {
		files = append(files, absPath(p))
	}
	slices.Sort(files)
	return slices.Compact(files)
}

// flagFiles are the agent hook files named on the command line.
func (s *Server) flagFiles() []string {
	var files []string
	for _, a := range agents.All() {
		files = append(files, s.opts.AgentFiles[a.Name]...)
	}
	return files
}

// loadOptions are what every load of the config reads beside it.
func (s *Server) loadOptions() hookconfig.LoadOptions {
	return hookconfig.LoadOptions{
		ConfigNamed:     s.opts.ConfigNamed,
		AgentFiles:      s.opts.AgentFiles,
		ProjectDir:      s.opts.ProjectDir,
		MoreProjectDirs: s.opts.MoreProjectDirs,
		BundleDirs:      hookconfig.BundleDirs(s.opts.Store.Home()),
		Managed:         true,
	}
}

// absPath makes p absolute the way Load resolves it: against the process's
// working directory.
func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// projectDirs are the directories whose project hooks the config loads.
func (s *Server) projectDirs() []string {
	return append([]string{s.opts.ProjectDir}, s.opts.MoreProjectDirs...)
}

// configFilesOf lists every file whose content shapes cfg, or would if it
// existed: the config, the agent hook files (Claude settings, Codex,
// Copilot, Cursor) it and the project hooks file name (a missing one too: creating it must take effect), those given
// on the command line, every file an entry came from, and the project
// hooks file (or where it would be).
func (s *Server) configFilesOf(cfg *hookconfig.Config) []string {
	config := absPath(s.opts.ConfigPath)
	files := []string{config}
	files = append(files, cfg.AgentHookFiles()...)
	for _, p := range s.flagFiles() {
		files = append(files, absPath(p))
	}
	for _, e := range cfg.Entries {
		if f := e.SourceFile(); f != "" {
			files = append(files, absPath(f))
		}
	}
	files = append(files, cfg.RuleFiles...) // a rule file that only includes others too
	// An agent's config that says which of its files it reads itself
	// (Codex's project_root_markers): the entries hook AGENT leaves to it;
	// and the markers whose presence set the root it found.
	files = append(files, cfg.PlacesFiles...)
	for _, p := range cfg.PlacesMarkers {
		files = append(files, presenceEntry(p))
	}
	// A managed config's rule files are held to its ownership rule, their
	// directories too (up to /).
	for _, p := range cfg.Managed.RuleFiles {
		files = append(files, managedFileDirEntries(p)...)
	}
	// cfg.AgentHookFiles does not keep every file the config names (those
	// missing, at least), so read the lists as written.
	files = append(files, listedAgentFiles(config, filepath.Dir(config))...)
	if cfg.ProjectHooks != "" {
		project := absPath(cfg.ProjectHooks)
		files = append(files, project)
		files = append(files, listedAgentFiles(project, filepath.Dir(filepath.Dir(project)))...)
	}
	// The managed config (a missing one too: deploying it takes effect).
	files = append(files, hookconfig.ManagedPaths()...)
	files = append(files, managedDirEntries()...)
	// Every path the one-shot's project search looks at (a project hooks
	// file created, a .git boundary removed: see ProjectSearchPaths).
	files = append(files, s.projectSearchEntries()...)
	// A bundle installed or removed rewrites its layer's index; one copied
	// in by hand shows only in the folders.
	for _, d := range hookconfig.BundleDirs(s.opts.Store.Home()) {
		files = append(files, filepath.Join(d, bundle.IndexFile))
		files = append(files, bundleFolders(d)...)
	}
	links := projectLinkEntries(files)
	files = append(confineProjectFiles(files), links...)
	files = append(files, dirEventFiles(files)...)
	files = append(files, projectLinkEntries(files)...)
	slices.Sort(files)
	return slices.Compact(files)
}

// projectSearchEntries are the list entries of every path the project
// search of each project directory looks at: its .git paths by presence.
func (s *Server) projectSearchEntries() []string {
	var out []string
	for _, d := range s.projectDirs() {
		files, gits := hookconfig.ProjectSearchPaths(d)
		out = append(out, files...)
		for _, g := range gits {
			out = append(out, presenceEntry(g))
		}
	}
	return out
}

// listedAgentFiles returns the agent hook files a YAML config names
// (claude_settings, codex_hooks, copilot_hooks, cursor_hooks), resolved as
// hookconfig.Load resolves them: a leading ~ is the home directory, a
// relative path is relative to base.
func listedAgentFiles(path, base string) []string {
	data, err := hookconfig.ReadConfigFile(path)
	if err != nil {
		return nil
	}
	cfg, err := hookconfig.ParseConfig(data, path)
	if err != nil {
		return nil
	}
	var out []string
	for _, p := range cfg.AgentHookFiles() {
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

// fingerprint summarises what the loader reads of files (a missing file
// counts as such), so a refresh can tell whether the config changed at
// all. The content alone is not enough: the loader refuses a file reached
// through a symlink out of its project, reads a folder's entries (a Cline
// hooks folder, a bundles folder) and runs only the executable ones — a
// change to any of those shows no new bytes. So each file also counts by
// its type (not following a link), where it resolves to, its mode and
// owner, and a folder by its sorted entries with their types.
// Any difference then reloads (what the one-shot reads), never merely
// re-records the new stat identities (unchanged).
func fingerprint(files []string) [32]byte {
	h := sha256.New()
	for _, f := range files {
		h.Write([]byte(f))
		if presenceOnly(f) {
			_, err := os.Stat(entryPath(f))
			h.Write([]byte("\x00present " + strconv.FormatBool(err == nil) + "\x00"))
			continue
		}
		if modeOnly(f) {
			h.Write([]byte("\x00" + modeOf(entryPath(f)) + "\x00"))
			continue
		}
		if linkOnly(f) {
			// Its type, and a link's text: what a link leads to counts
			// through the files' own shapes (shapeOf's real path) — but
			// for a repository's link that leads out of it, which the
			// loader refused by its text and is listed by the link alone
			// (confineProjectFiles): pointed back inside, its text is
			// all that changed. An inode alone changed (a folder
			// replaced by a copy) re-records.
			fi, err := os.Lstat(entryPath(f))
			if err == nil {
				h.Write([]byte("\x00ltype " + fi.Mode().Type().String() + "\x00"))
			}
			if err == nil && fi.Mode()&os.ModeSymlink != 0 {
				target, _ := os.Readlink(entryPath(f))
				h.Write([]byte("\x00to " + target + "\x00"))
			}
			continue
		}
		shapeOf(h, f)
		// Never blocks on a FIFO and never reads without bound: a file a
		// repository named could be either.
		data, err := hookconfig.ReadConfigFile(f)
		if errors.Is(err, fs.ErrNotExist) {
			h.Write([]byte("\x00missing\x00"))
			continue
		}
		if err != nil {
			// Not the same as missing: the one-shot finds a project
			// hooks file that is there, FIFO or not, and refuses it.
			h.Write([]byte("\x00unreadable\x00" + err.Error() + "\x00"))
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
//
// A reload is applied only when the files it read had settled (see
// settled) and were not touched while they were read: the same stat
// identity and the same content before and after the read. The check is the
// same for every reload — a config that parses to fewer hooks, or none, is
// not special — so a file truncated and rewritten in place is never applied
// half-written, and one rewritten continuously leaves the last good config
// in service until it stops changing. Only the first load (New) skips it:
// there is nothing to fall back on then.
func (s *Server) reloadConfig() error {
	prev := s.cur.Load()
	files := s.configFiles
	var fp0 [32]byte
	for attempt := 0; ; attempt++ {
		// Before the content: a change after this look shows as an
		// identity that differs, never as one that vouches for it.
		ids := statIDs(files)
		fp := fingerprint(files)
		if attempt == 0 {
			fp0 = fp
			if prev != nil && s.unchanged(fp, files, ids) {
				return nil
			}
		}
		if prev != nil {
			var ok bool
			if ids, ok = s.settled(files); !ok {
				// Changed, and maybe still being written: keep the
				// config in service and look again once it is quiet,
				// however long that takes (see Options.SettleLimit).
				return s.unsettled()
			}
		}
		cfg, err := s.load(s.opts.ConfigPath, s.loadOptions())
		if prev != nil && s.touchedDuringRead(files, ids, fp) {
			// Written to while we read it: what was read may be half a
			// file, and so may be the error it caused. Try again once it
			// is quiet: a caller without inputs keeps the last good
			// config rather than half a file (forwarded calls are
			// refused meanwhile: the identities differ).
			return s.unsettled()
		}
		s.wait = settleWait{}
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
		d, err := s.build(cfg)
		if err != nil {
			// As a config that does not load: forwarded calls are
			// refused (staleConflict), not answered by the old one.
			msg := err.Error()
			s.reloadErr.Store(&msg)
			s.failedFP = fp0
			return err
		}
		g := &generation{n: 1, cfg: cfg, d: d, journal: s.journal}
		var prevStats *serverstats.Table
		if prev != nil {
			g.n, prevStats = prev.n+1, prev.stats
		}
		// The hooks this config keeps keep their live records.
		g.stats = serverstats.NewTable(cfg, prevStats)
		// Cleared before the new generation is published: whoever sees
		// it must not see the error of the config it replaced.
		s.reloadErr.Store(nil)
		s.cur.Store(g)
		// After cur: whoever sees this view sees g or a later one.
		s.disk.Store(&diskView{gen: g.n, files: files, ids: ids})
		if prev != nil {
			// The replaced hook set's workers stop (each after the
			// request it is serving, if any); the new set starts its
			// own from the files it approves.
			go prev.d.StopWorkers()
		}
		s.configFiles, s.configFP, s.failedFP = next, fp, [32]byte{}
		// Forget files no config depends on any more. (Only here: while a
		// reload is pending, the files of the config in service and those
		// of the one being read must both keep their observations, or a
		// reload that grows the set of files would never settle.)
		for f := range s.seen {
			if _, kept := slices.BinarySearch(next, f); !kept { // configFilesOf sorts next
				delete(s.seen, f)
			}
		}
		msg := "config reloaded"
		if prev == nil {
			msg = "config loaded"
		}
		s.log.Info(msg, "generation", g.n, "config", s.opts.ConfigPath, "hooks", len(cfg.Entries),
			"agent_files", len(cfg.AgentHookFiles()), "project_hooks", cfg.ProjectHooks, "warnings", len(cfg.Warnings))
		for _, w := range cfg.Warnings {
			s.log.Warn("config warning", "detail", w.String())
		}
		s.logBrokenRules(d)
		return nil
	}
}

// unchanged reports whether files hold what was last loaded, or what last
// failed to load (fp); ids are their identities, taken before fp. Files
// touched without a change in content (touch, a chmod back, an editor
// that saves the same bytes) then show new identities for the same config:
// those are what forwarded calls are compared with from now on. A config
// broken and then restored to the loaded content is in service again.
// Called with s.mu held.
func (s *Server) unchanged(fp [32]byte, files, ids []string) bool {
	switch fp {
	case s.configFP:
		s.wait, s.failedFP = settleWait{}, [32]byte{}
		s.reloadErr.Store(nil)
		s.disk.Store(&diskView{gen: s.cur.Load().n, files: files, ids: ids})
		return true
	case s.failedFP:
		s.wait = settleWait{}
		return true
	}
	return false
}

// configErrorAttrs says where and why a config failed: file, line, reason.
func configErrorAttrs(err error) []any {
	var ce *hookconfig.ConfigError
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
