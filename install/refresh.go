package install

import (
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// HasOwn reports whether path, agent's hook file (its folder for a
// Scripts layout), holds an entry install wrote: what `install --refresh`
// rewrites. A file that cannot be read or parsed holds none that install
// could rewrite (install itself then says why); one that holds a key twice,
// or starts with a byte order mark the agent does not read past
// (agents.Agent.NoBOM), is read as it is, past the mark, so that doctor
// and uninstall find it and say why they refuse it: the agent reads none
// of its hooks, which is what doctor must report.
func HasOwn(agent *agents.Agent, path string) bool {
	if agent.HookFile.Layout == agents.Scripts {
		for _, ev := range agent.HookFile.Events {
			if data, err := fsutil.ReadRegular(filepath.Join(path, ev), "", 1<<20); err == nil && agents.IsOwnScript(data, agent.Name) {
				return true
			}
		}
		return false
	}
	data, err := fsutil.ReadRegular(path, "", 16<<20)
	if err != nil {
		return false
	}
	doc, err := decodeObject(nil, path, data) // nil: past any one mark, to find it
	if err != nil {
		return false
	}
	_, had := agent.Uninstall(doc)
	return had
}

// Installed is a hook file (a Scripts folder) holding entries install
// wrote, and how install names it: under Root, the user's (User) or a
// project's file of this checkout only (Local).
type Installed struct {
	Agent       *agents.Agent
	Root, Path  string
	User, Local bool
}

// FindInstalled lists every agent's hook files of project (its shared
// and its checkout-only file) and of home that hold entries install
// wrote: what `install --refresh` rewrites. In the home directory itself
// the project's file is the user's, listed once, as the user's.
func FindInstalled(project, home string) []Installed {
	var out []Installed
	for _, ag := range agents.All() {
		hf := ag.HookFile
		if hf.Project == "" || len(hf.Events) == 0 {
			continue
		}
		for _, in := range []Installed{{ag, project, hf.Project, false, false}, {ag, project, hf.Local, false, true}, {ag, home, hf.User, true, false}} {
			if in.Path == "" || !in.User && project == home {
				continue
			}
			if in.Path = filepath.Join(in.Root, in.Path); in.User {
				in.Path = UserHookFile(ag, home) // under COPILOT_HOME, when set
			}
			if HasOwn(ag, in.Path) {
				out = append(out, in)
			}
		}
	}
	return out
}
