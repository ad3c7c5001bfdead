package agents

import (
	"path"
	"path/filepath"
	"strings"
)

// Places are where an agent looks for its hook files on one call: the
// user's home, the folders it may have started in, and what the caller
// read of the environment and the file system (Env, Root). Pure: the
// caller does the looking.
type Places struct {
	// Home is the user's home directory ("": unknown).
	Home string
	// Start are the folders the agent may have started in (the payload's
	// cwd, the agent's project directory).
	Start []string
	// Env is the call's environment (CODEX_HOME, QWEN_HOME); nil: none set.
	Env func(string) string
	// Root is the project root Codex takes for a start folder (the
	// nearest folder at or above it holding .git); nil or "": the start
	// folder itself.
	Root func(start string) string
}

// agentPlaces are the places one agent reads its hook files from:
// Project relative to each start folder (RootDown: to each folder from
// the project root down to it), User relative to the home (HomeEnv, when
// set, stands for User's first element), and System: the agent's system
// settings file (its ManagedLayer, where the environment may name
// another). Sources:
// docs/agents.md "Where an agent reads a project's hook file".
type agentPlaces struct {
	Project  string
	RootDown bool
	User     string
	HomeEnv  string
	System   bool
	// MoreUsers are other files under the home the agent reads beside
	// User (Windsurf's JetBrains plugin's).
	MoreUsers []string
	// SystemFiles are the agent's system-wide files where it has no
	// ManagedLayer install writes (an enterprise hooks.json), in each
	// system's form.
	SystemFiles []string
}

var readPlaces = map[string]agentPlaces{
	// The start folder's file only, the user's and the system's
	// (/etc/gemini-cli, ProgramData\gemini-cli).
	"gemini": {Project: ".gemini/settings.json", User: ".gemini/settings.json", System: true},
	"qwen":   {Project: ".qwen/settings.json", User: ".qwen/settings.json", HomeEnv: "QWEN_HOME"},
	// Each folder from the project's root down to the start folder.
	"codex": {Project: ".codex/hooks.json", RootDown: true, User: ".codex/hooks.json", HomeEnv: "CODEX_HOME"},
	// The workspace root's file (each root the payload names), the
	// user's and the enterprise one (cursor.com/docs/hooks,
	// "Configuration"). Known, so that a team's .cursor/hooks.json kept
	// elsewhere is not taken for Cursor's own and run by nobody.
	"cursor": {Project: ".cursor/hooks.json", User: ".cursor/hooks.json",
		SystemFiles: []string{"/etc/cursor/hooks.json", "/Library/Application Support/Cursor/hooks.json", `C:\ProgramData\Cursor\hooks.json`}},
	// The workspace's, the Windsurf IDE's user file, the JetBrains
	// plugin's and the system file (docs.windsurf.com/windsurf/cascade/hooks,
	// "Configuration"). A nested folder's .windsurf/hooks.json that
	// Windsurf may also read is run twice at worst.
	"windsurf": {Project: ".windsurf/hooks.json", User: ".codeium/windsurf/hooks.json", MoreUsers: []string{".codeium/hooks.json"},
		SystemFiles: []string{"/etc/windsurf/hooks.json", "/Library/Application Support/Windsurf/hooks.json", `C:\ProgramData\Windsurf\hooks.json`}},
}

// reads reports whether file (clean, slash-separated) is one of the files
// p names for a call made where at says.
func (p agentPlaces) reads(a *Agent, file string, at Places) bool {
	if at.Home != "" && isUserFile(p, file, at) || p.System && isSystemFile(a, file, at) {
		return true
	}
	for _, f := range p.SystemFiles {
		if slashClean(f) == file {
			return true
		}
	}
	for _, start := range at.Start {
		if start == "" {
			continue
		}
		dir := slashClean(start)
		top := dir
		if p.RootDown && at.Root != nil {
			if r := at.Root(start); r != "" {
				top = slashClean(r)
			}
		}
		for {
			if file == path.Join(dir, p.Project) {
				return true
			}
			parent := path.Dir(dir)
			if dir == top || parent == dir || !strings.HasPrefix(dir, top) {
				break
			}
			dir = parent
		}
	}
	return false
}

// isUserFile reports whether file is one of p's files under the home.
func isUserFile(p agentPlaces, file string, at Places) bool {
	if file == userFile(p, at) {
		return true
	}
	for _, u := range p.MoreUsers {
		if file == path.Join(slashClean(at.Home), u) {
			return true
		}
	}
	return false
}

// userFile is the user's file of p: under the folder HomeEnv names when
// the environment sets it, else under the home.
func userFile(p agentPlaces, at Places) string {
	if p.HomeEnv != "" && at.Env != nil {
		if d := at.Env(p.HomeEnv); d != "" {
			_, rest, _ := strings.Cut(p.User, "/")
			return path.Join(slashClean(d), rest)
		}
	}
	return path.Join(slashClean(at.Home), p.User)
}

// isSystemFile reports whether file is a's system settings file: the
// path its ManagedLayer names for some OS, or the one the environment
// names instead.
func isSystemFile(a *Agent, file string, at Places) bool {
	m := a.ManagedLayer()
	if m == nil {
		return false
	}
	if m.Env != "" && at.Env != nil {
		if p := at.Env(m.Env); p != "" && slashClean(p) == file {
			return true
		}
	}
	for _, p := range m.Paths {
		if slashClean(p) == file {
			return true
		}
	}
	return false
}

func slashClean(p string) string { return path.Clean(filepath.ToSlash(p)) }
