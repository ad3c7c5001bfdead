package cli

import (
	"errors"
	"io/fs"
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
// An agent that caps its stop hooks' blocks itself, calling for itself,
// adds protocol.HostCapsStops (agents.Agent.CapsStopBlocks).
func callRunBy(call *agents.Call, project string) []string {
	runBy := call.RunBy()
	if call.Host == nil && call.Agent.CapsStopBlocks {
		runBy = append(runBy, protocol.HostCapsStops)
	}
	for _, p := range call.PreferredCallers() {
		if callsThisProgram(p, call, project) {
			return append(runBy, protocol.OwnRunElsewhere)
		}
	}
	return runBy
}

// callsThisProgram reports whether the hook file install writes for agent
// p, in the project or the user's home, makes a host reading it call this
// very program on call's event, as the host reads that file
// (Agent.OwnPrograms). Anything it cannot tell (no project, no such file,
// one it cannot read, another binary, a workspace whose settings may
// choose which hook files the host reads) is no: the hooks then run in
// this call too, twice at worst — skipping them on a guess could leave a
// guard run by nobody.
func callsThisProgram(p *agents.Agent, call *agents.Call, project string) bool {
	if project == "" || call.Host == nil || mayChooseFiles(call.Host, project) {
		return false
	}
	self, err := os.Executable()
	if err != nil {
		return false
	}
	me, err := os.Stat(self)
	if err != nil {
		return false
	}
	var files []string
	if p.HookFile.Project != "" {
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

// mayChooseFiles reports whether a settings file of the project (one of
// h.FileSettings) may set which hook files h reads: a repository could
// turn off the file whose call was to run the hooks. A file or folder
// there that cannot be read is taken to. Only a pattern's last element is
// a glob, matched against the names in its folder: the project's own path
// may hold glob characters.
func mayChooseFiles(h *agents.Host, project string) bool {
	for _, pat := range h.FileSettings {
		dir, base := filepath.Split(filepath.FromSlash(pat))
		dir = filepath.Join(project, dir)
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return true
		}
		for _, e := range entries {
			if ok, err := filepath.Match(base, e.Name()); err != nil || !ok {
				continue
			}
			data, err := hookconfig.ReadConfigFile(filepath.Join(dir, e.Name()))
			if err != nil || h.ChoosesFiles(data) {
				return true
			}
		}
	}
	return false
}
