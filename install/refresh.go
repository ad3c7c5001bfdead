package install

import (
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// HasOwn reports whether path, agent's hook file (its folder for a
// Scripts layout), holds an entry install wrote: what `install --refresh`
// rewrites. A file that cannot be read or parsed holds none that install
// could rewrite (install itself then says why).
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
	doc, err := parse(path, data)
	if err != nil {
		return false
	}
	_, had := agent.Uninstall(doc)
	return had
}
