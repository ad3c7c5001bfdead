package hookconfig

import (
	"os"
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/agents"
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
			itself = !ok || a.LoadsItself(absPath(e.Source), *at)
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
	at := agents.Places{Env: os.Getenv, Root: gitRoot, Exists: exists}
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

// gitRoot is the nearest folder at or above dir holding .git ("": none),
// the project root Codex takes by default.
func gitRoot(dir string) string {
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
