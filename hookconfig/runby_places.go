package hookconfig

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// keepRunByHere leaves an entry to the agent whose file declared it
// (Entry.RunBy) only when that agent reads the file from where it lies on
// a call made in the load's project folders (agents.Agent.LoadsItself): a
// team's `.gemini/settings.json` under $HERMES_HOME, or another folder's,
// is read by no agent, and `hook AGENT` must run its hooks like any
// other's.
func (cfg *Config) keepRunByHere(opts LoadOptions) {
	var at *agents.Places // made at the first entry an agent runs: most configs have none
	// The answer is the file's: asked once per agent and file, not per
	// entry (each asks the file system where the project's root is).
	reads := map[[2]string]bool{}
	// An agent that finds its root by the user's markers: its places,
	// its config read once per load, and only when it has an entry here.
	byMarkers := map[string]agents.Places{}
	for _, e := range cfg.Entries {
		if e.RunBy == "" || e.Source == "" {
			continue
		}
		if at == nil {
			p := loadPlaces(opts)
			at = &p
		}
		key := [2]string{e.RunBy, e.Source}
		itself, known := reads[key]
		if !known {
			a, ok := agents.Lookup(e.RunBy)
			itself = !ok || a.LoadsItself(absPath(e.Source), cfg.placesOf(a, *at, byMarkers))
			reads[key] = itself
		}
		if !itself {
			e.RunBy = ""
		}
	}
}

// loadPlaces are where an agent called in opts' project folders looks
// for its hook files.
func loadPlaces(opts LoadOptions) agents.Places {
	at := agents.Places{Env: os.Getenv, Root: GitRoot, Exists: exists}
	if home, err := os.UserHomeDir(); err == nil {
		at.Home = home
	}
	for i, d := range append([]string{opts.ProjectDir}, opts.MoreProjectDirs...) {
		if d != "" {
			at.Start = append(at.Start, absPath(d))
			if i > 0 {
				// The agent's own folders (hook AGENT's agentProjects),
				// not the payload's cwd.
				at.Roots = append(at.Roots, absPath(d))
			}
		}
	}
	return at
}

// placesOf are at for a, with, for an agent that takes the project's root
// by the user's markers (Codex's project_root_markers), the root it takes
// (RootByMarkers, as doctor takes it), its config read once (done keeps
// it by agent) and named in cfg.PlacesFiles.
func (cfg *Config) placesOf(a *agents.Agent, at agents.Places, done map[string]agents.Places) agents.Places {
	if _, ok := a.RootMarkersIn(agents.ParsedFile{}); !ok {
		return at
	}
	if p, ok := done[a.Name]; ok {
		return p
	}
	markers, file := runRootMarkers(a, at)
	if file != "" {
		cfg.PlacesFiles = append(cfg.PlacesFiles, file)
	}
	at.Root = func(start string) string {
		return rootByMarkers(start, markers, func(p string) { cfg.PlacesMarkers = append(cfg.PlacesMarkers, p) })
	}
	done[a.Name] = at
	return at
}

// maxAgentConfig bounds the read of an agent's user config (doctor's
// bound): CODEX_HOME can name a FIFO or a device.
const maxAgentConfig = 4 << 20

// runRootMarkers are a's root markers as read from the user's config (a's
// TrustFile: $CODEX_HOME/config.toml, else ~/.codex's), the defaults when
// it is absent. A config that cannot be read (a FIFO, too large, no
// permission; its place unknown) stops Codex too, as one that does not
// parse does: agents.Agent.RunRootMarkersIn's empty list, the start
// folder, for the same reason. file is the config's path ("": unknown).
func runRootMarkers(a *agents.Agent, at agents.Places) (markers []string, file string) {
	file = filepath.FromSlash(a.TrustFile(filepath.ToSlash(at.Home), at.Env))
	if !filepath.IsAbs(file) {
		return []string{}, ""
	}
	data, err := fsutil.ReadRegular(file, "", maxAgentConfig)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data = nil
	case err != nil:
		return []string{}, file
	}
	markers, _ = a.RunRootMarkersIn(a.Parse(data))
	return markers, file
}

// maxRootDepth bounds RootByMarkers' walk up.
const maxRootDepth = 256

// RootByMarkers is the project's root an agent that finds it by markers
// takes when it starts in dir: the nearest folder at or above dir holding
// one of markers, else dir; dir itself for an empty list. A marker is
// looked for as Codex does (find_project_root): an entry of any kind, its
// links followed (os.Stat; nothing is opened), an absolute one as named.
// The one rule for doctor and for hook AGENT.
func RootByMarkers(dir string, markers []string) string {
	return rootByMarkers(dir, markers, nil)
}

// rootByMarkers is RootByMarkers telling looked, when not nil, each path
// it looks at.
func rootByMarkers(dir string, markers []string, looked func(p string)) string {
	if len(markers) == 0 {
		return dir
	}
	d := dir
	for range maxRootDepth {
		for _, m := range markers {
			p := m
			if !filepath.IsAbs(m) {
				p = filepath.Join(d, m)
			}
			if looked != nil {
				looked(p)
			}
			if _, err := os.Stat(p); err == nil {
				return d
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return dir
}

// GitRoot is the nearest folder at or above dir holding .git, a folder
// or the file of a worktree or submodule, as the entry it is (os.Lstat)
// ("": none): the project's root Copilot CLI and Factory Droid take, and
// the repository install.ProjectDir writes a project's hook file in.
func GitRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// exists reports whether the file at p (slash-separated) is there, as an
// agent that opens it would find it: through links.
func exists(p string) bool {
	_, err := os.Stat(filepath.FromSlash(p))
	return err == nil
}
