package hookconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Project-local hooks: discovery and bounded reading.

// ProjectHooksFile is the project-local hooks file, relative to a project
// directory.
const ProjectHooksFile = ".hermes/hooks.yaml"

// Bounds on what is read. A file a repository names (its hooks file, the
// settings files that lists) is read only when it is a regular file inside
// the project, up to MaxProjectFileBytes; the user's own config files up to
// MaxConfigBytes. Nothing is read from a FIFO or a device.
const (
	MaxProjectFileBytes = 1 << 20
	MaxConfigBytes      = 16 << 20
)

// MaxProjectEntries caps the hook definitions read from each file a
// repository supplies (its .hermes/hooks.yaml, each agent hook file it
// names); the rest of such a file is ignored with one warning. The files
// its hooks file includes (rules:) share the hooks file's cap, and the
// agent hook files it names share one: past it the file that passes it
// is refused (a guard must not go missing with a warning). Every
// entry costs each dispatch of its event a little, and a 1 MiB file can
// list tens of thousands: without a cap a cloned repository could make
// every decision take seconds. No real project comes near it.
const MaxProjectEntries = 256

// MaxProjectAgentFiles caps the agent hook files one project's hooks file
// names (a folder's files included), which also share one
// MaxProjectFileBytes: a tiny file named a hundred thousand times costs no
// bytes, but a read each on every dispatch.
const MaxProjectAgentFiles = 256

// ReadConfigFile reads one of the user's own config files (the config,
// a Claude settings file it names) with MaxConfigBytes and never from a
// FIFO or device. serve uses it too.
func ReadConfigFile(path string) ([]byte, error) {
	return fsutil.ReadRegular(path, "", MaxConfigBytes)
}

// FindProjectHooks returns the nearest .hermes/hooks.yaml from dir upward,
// stopping at the repository root (a directory holding .git) or, outside a
// repository, after dir itself. "" when there is none.
func FindProjectHooks(dir string) string {
	return searchProject(dir, nil)
}

// ProjectSearchPaths lists every path FindProjectHooks(dir) looks at now,
// missing ones too: files, each directory's .hermes/hooks.yaml on the way
// up to the file found or the repository's root, whose content counts;
// and gits, each .git whose presence alone decides where the search stops
// (up to / outside a repository; what git does inside one is none of the
// search's business). Whatever appears, disappears or changes at one of
// them can change what the search finds; serve compares them (one walk,
// so the two never differ). They are apart because only the search knows
// which paths it asked about presence alone: a file of a config that
// happens to be called .git is read whole.
func ProjectSearchPaths(dir string) (files, gits []string) {
	searchProject(dir, func(p string, git bool) {
		if git {
			gits = append(gits, p)
		} else {
			files = append(files, p)
		}
	})
	return files, gits
}

// searchProject is FindProjectHooks's walk; record, when not nil, is told
// each path it looks at and whether only that path's presence counts.
func searchProject(dir string, record func(p string, git bool)) string {
	if dir == "" {
		return ""
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	look := func(p string, git bool) string {
		if record != nil {
			record(p, git)
		}
		return p
	}
	inRepo := insideRepo(dir, look)
	for {
		p := look(filepath.Join(dir, ProjectHooksFile), false)
		if _, err := os.Lstat(p); err == nil {
			// Whatever it is, it is the project's hooks file: addProject
			// refuses (with a warning) one that is not a plain file of
			// the project, rather than silently looking further up.
			return p
		}
		if _, err := os.Stat(look(filepath.Join(dir, ".git"), true)); err == nil || !inRepo {
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// FindProjects is the project hooks files of dirs (FindProjectHooks),
// each once and none that is the config itself (config; "" for none).
// Each directory is searched once: the agent's directory and the
// payload's cwd are most often the same, and a search is a stat per
// directory up to /. serve compares a caller's with its own.
func FindProjects(dirs []string, config string) []string {
	var found []string
	for i, dir := range dirs {
		if slices.Contains(dirs[:i], dir) {
			continue
		}
		p := FindProjectHooks(dir)
		if p == "" || sameFile(p, config) || slices.ContainsFunc(found, func(q string) bool { return sameFile(p, q) }) {
			continue
		}
		found = append(found, p)
	}
	return found
}

// insideRepo reports whether dir is inside a git work tree (some ancestor,
// or dir itself, holds .git). Outside one, only dir itself is searched, so a
// stray hooks file in a parent directory is never picked up.
func insideRepo(dir string, look func(string, bool) string) bool {
	for {
		if _, err := os.Stat(look(filepath.Join(dir, ".git"), true)); err == nil {
			return true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

// addProject merges a project's .hermes/hooks.yaml. A repository must not
// be able to approve its own hooks, so hooks_auto_accept there is ignored;
// its hooks run in the project root, are approved per project (Scope), and
// the agent hook files it names (claude_settings, codex_hooks …) are
// relative to it and must stay inside it.
// Every problem is a warning that skips the file concerned, never an error
// (see Unloaded for what a gating event does meanwhile).
func (cfg *Config) addProject(path string) {
	root := filepath.Dir(filepath.Dir(path))
	data, err := fsutil.ReadRegular(path, root, MaxProjectFileBytes)
	if err != nil {
		cfg.unloaded(path, root, path, "project hooks file skipped", &ConfigError{Path: path, Err: err})
		return
	}
	// The project's hooks file is ours alone: every key we do not read is
	// a mistake (a limited parse is strict).
	proj, err := parseConfig(data, path, MaxProjectEntries)
	if err == nil {
		proj.shared().skipBuiltinExamples = cfg.shared().skipBuiltinExamples
		err = proj.loadRules(root, len(data))
		// The rule files read are listed even when one fails: serve
		// watches them, and one put back must reload the project.
		cfg.RuleFiles = append(cfg.RuleFiles, proj.RuleFiles...)
		cfg.unread = append(cfg.unread, proj.unread...)
	}
	if err != nil {
		cfg.unloaded(path, root, path, "project hooks file skipped", err)
		return
	}
	if proj.AutoAccept {
		proj.warn(path+": hooks_auto_accept", "is ignored in a project's hooks file: a repository cannot approve its own hooks")
	}
	if proj.Journal != (JournalConfig{}) {
		// The journal is the user's record: a repository must not move it
		// (somewhere it can read) or switch it off.
		proj.warn(path+": journal", "is ignored in a project's hooks file; set it in the global config")
	}
	if !proj.Export.IsZero() {
		// Where decisions are sent is the user's (or the admin's) call: a
		// repository must not send them to itself.
		proj.warn(path+": export", "is ignored in a project's hooks file: a repository cannot choose where decisions are sent; set it in the global config")
	}
	if proj.ToolAliases != nil {
		proj.warn(path+": tool_aliases", "is ignored in a project's hooks file; set it in the global config")
	}
	for _, e := range proj.Entries {
		e.WorkDir = root
		e.Scope = consent.Scope{Project: root, Source: path}
		if e.Dialect == protocol.Claude && e.ProjectDir == "" {
			e.ProjectDir = root
		}
	}
	cfg.Entries = append(cfg.Entries, proj.Entries...)
	cfg.Warnings = append(cfg.Warnings, proj.Warnings...)
	// The agent hook files it names share one MaxProjectFileBytes, as its
	// rule files do, and are at most MaxProjectAgentFiles: one file named
	// a thousand times would otherwise be read a thousand times on every
	// dispatch.
	b := &agentFileBudget{}
	for _, k := range agentFileKinds() {
		for _, p := range proj.AgentFiles[k.agent.Name] {
			// A folder's files are each confined to the project too.
			named := resolvePath(p, root)
			var files []string
			isDir := false
			// A folder outside the project is not listed: the read
			// below refuses it by its text, where a listing would
			// open it (an automounted or network path acts).
			if fsutil.Within(named, root) == nil {
				files, isDir = cfg.agentSourceFiles(k, named)
			}
			if !isDir {
				files = []string{named}
			}
			for _, sp := range files {
				cfg.addProjectAgentFile(k, path, root, sp, b)
			}
		}
	}
	if cfg.ProjectHooks == "" {
		cfg.ProjectHooks = path
	}
}

// projectBytes is what a repository's files of one kind (its rule files,
// its agent hook files) have read of the one MaxProjectFileBytes they
// share.
type projectBytes int64

// read reads p, confined to root, within what is left of b. over: p would
// pass what the files read before it left (err is fsutil's TooLargeError).
func (b *projectBytes) read(p, root string) (data []byte, over bool, err error) {
	data, err = fsutil.ReadRegular(p, root, MaxProjectFileBytes-int64(*b))
	tl := (*fsutil.TooLargeError)(nil)
	over = errors.As(err, &tl) && *b > 0
	*b += projectBytes(len(data))
	return data, over, err
}

// agentFileBudget is what a project's agent hook files have used of their
// shared bounds; done once one was passed (said once, for the file that
// did).
type agentFileBudget struct {
	used  projectBytes
	files int
	// entries: their hook definitions, MaxProjectEntries together. Each
	// file with a cap of its own, 150 files of 256 hooks within the
	// shared bytes brought 38,000 entries into every dispatch (1.4 s).
	entries int
	done    bool
}

// addProjectAgentFile reads one agent hook file a project's hooks file
// (path) names, confined to the project (root), within the budget those
// files share.
func (cfg *Config) addProjectAgentFile(k agentFileKind, path, root, sp string, b *agentFileBudget) {
	if b.done {
		return
	}
	var data []byte
	var err error
	if b.files++; b.files > MaxProjectAgentFiles {
		err = fmt.Errorf("a repository may name at most %d agent hook files; this one and those named after it are not read", MaxProjectAgentFiles)
		b.done = true
	} else {
		var over bool
		if data, over, err = b.used.read(sp, root); over {
			err = fmt.Errorf("the agent hook files a repository names may hold %d bytes together; this one would pass that, and the files named after it are not read either (%d read before it)", MaxProjectFileBytes, b.used)
			b.done = true
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		// A file the project names but does not have held no hooks that
		// were ever approved from it.
		cfg.warn(path+": "+k.key, sp+": skipped: "+err.Error())
		return
	}
	if err != nil {
		cfg.unloaded(path+": "+k.key, root, path, sp+": skipped", &ConfigError{Path: sp, Err: err})
		return
	}
	entries, own, warnings, err := k.parse(data, sp, MaxProjectEntries)
	if err != nil {
		cfg.unloaded(path+": "+k.key, root, path, "skipped", err)
		return
	}
	n := len(entries) + len(own)
	if b.entries+n > MaxProjectEntries {
		// Refused, not cut: its hooks past the cap would be guards gone.
		cfg.unloaded(path+": "+k.key, root, path, sp+": skipped", &ConfigError{Path: sp, Err: fmt.Errorf(
			"the agent hook files a repository names may declare %d hooks together; this one would pass that, and the files named after it are not read either (%d before it)", MaxProjectEntries, b.entries)})
		b.done = true
		return
	}
	b.entries += n
	for _, e := range append(own, entries...) {
		e.Scope = consent.Scope{Project: root, Source: sp}
		if e.ProjectDir == "" {
			e.ProjectDir = root
		}
	}
	cfg.Entries = append(cfg.Entries, entries...)
	cfg.OwnLines = append(cfg.OwnLines, own...)
	cfg.Warnings = append(cfg.Warnings, warnings...)
	cfg.addFile(k.agent.Name, sp)
}

func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
