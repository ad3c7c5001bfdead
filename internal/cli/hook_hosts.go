package cli

import (
	"os"
	"os/exec"
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// callRunBy is the dispatch's CalledBy list for call: the agents whose
// files the caller runs itself (agents.Call.RunBy) and, for a host that
// calls this program from several agents' files (VS Code: Copilot's and
// Claude Code's), protocol.OwnRunElsewhere when the host also calls it
// for this event from a preferred agent's file, whose call then runs the
// Hermes config's hooks: each runs once per event, not once per file.
func callRunBy(call *agents.Call, project string) []string {
	runBy := call.RunBy()
	for _, p := range call.PreferredCallers() {
		if callsThisProgram(p, call, project) {
			return append(runBy, protocol.OwnRunElsewhere)
		}
	}
	return runBy
}

// callsThisProgram reports whether the hook file install writes for agent
// p, in the project or the user's home, makes a host reading it call this
// very program on call's event. Anything it cannot tell (no such file, one
// it cannot read, another binary) is no: the hooks then run in this call
// too, twice at worst — skipping them on a guess could leave a guard run by
// nobody.
func callsThisProgram(p *agents.Agent, call *agents.Call, project string) bool {
	self, err := os.Executable()
	if err != nil {
		return false
	}
	me, err := os.Stat(self)
	if err != nil {
		return false
	}
	var files []string
	if project != "" && p.HookFile.Project != "" {
		files = append(files, filepath.Join(project, p.HookFile.Project))
	}
	if home, err := os.UserHomeDir(); err == nil && p.HookFile.User != "" {
		files = append(files, filepath.Join(home, p.HookFile.User))
	}
	for _, f := range files {
		data, err := hookconfig.ReadConfigFile(f)
		if err != nil {
			continue
		}
		for _, prog := range p.OwnPrograms(data, call.Event) {
			if !filepath.IsAbs(prog) {
				// The PATH form: the program the host's shell finds on
				// the PATH it gave this process.
				if prog, err = exec.LookPath(prog); err != nil {
					continue
				}
			}
			if fi, err := os.Stat(prog); err == nil && os.SameFile(fi, me) {
				return true
			}
		}
	}
	return false
}
