package agents

import (
	"path"
	"path/filepath"
	"slices"
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
	// Roots are those of Start the agent itself names as its project
	// (its project directory, the workspace roots its payload lists, the
	// folder it started hermes-hooks in), without the payload's cwd, which
	// a shell tool's `cd` moves; nil: not told apart, Start stands.
	Roots []string
	// Env is the call's environment (CODEX_HOME, QWEN_HOME); nil: none set.
	Env func(string) string
	// Root is the project root the agent takes for a start folder: the
	// nearest folder at or above it holding .git (Copilot CLI, Factory
	// Droid), or, for an agent that finds it by the user's markers
	// (Agent.RootMarkersIn: Codex), the one they give
	// (Agent.RunRootMarkersIn); nil or "": the start folder itself.
	Root func(start string) string
	// Exists reports whether a file (slash-separated) is there; nil:
	// cannot tell, taken as absent.
	Exists func(file string) bool
}

// agentPlaces are the places one agent reads its hook files from:
// Project relative to each start folder (RootDown: to each folder from
// the project root down to it; AtRoot: to the project root alone), User
// relative to the home (the variable the agent's HookFile.UserEnv names,
// when set, stands for User's first element), and System: the agent's system settings file (its
// ManagedLayer, where the environment may name another). The last
// element of a Project or User path may be a pattern (path.Match: the
// *.json of a folder). Sources: docs/agents.md "Where an agent reads a
// project's hook file".
type agentPlaces struct {
	Project  []string
	RootDown bool
	AtRoot   bool
	User     []string
	System   bool
	// SystemFiles are the agent's system-wide files where it has no
	// ManagedLayer install writes (an enterprise hooks.json), in each
	// system's form.
	SystemFiles []string
	// Replaced: a file (by its last element) whose hooks the agent does
	// not read when one of these, relative to its folder, exists.
	Replaced map[string][]string
	// FromRoots: Project is relative to the workspace roots (Places.Roots)
	// only, not to the payload's cwd: an IDE agent reads the workspace's
	// file wherever its terminal has moved since.
	FromRoots bool
}

var readPlaces = map[string]agentPlaces{
	// The start folder's file only, the user's and the system's
	// (/etc/gemini-cli, ProgramData\gemini-cli).
	"gemini": {Project: []string{".gemini/settings.json"}, User: []string{".gemini/settings.json"}, System: true},
	"qwen":   {Project: []string{".qwen/settings.json"}, User: []string{".qwen/settings.json"}},
	// Each folder from the project's root down to the start folder.
	"codex": {Project: []string{".codex/hooks.json"}, RootDown: true, User: []string{".codex/hooks.json"}},
	// The workspace root's file (each root the payload names), the
	// user's and the enterprise one (cursor.com/docs/hooks,
	// "Configuration"). Known, so that a team's .cursor/hooks.json kept
	// elsewhere is not taken for Cursor's own and run by nobody.
	// Not the folder of a shell call's cwd: a `cd` into a team folder
	// must not make its hooks.json Cursor's own.
	"cursor": {Project: []string{".cursor/hooks.json"}, FromRoots: true, User: []string{".cursor/hooks.json"},
		SystemFiles: []string{"/etc/cursor/hooks.json", "/Library/Application Support/Cursor/hooks.json", `C:\ProgramData\Cursor\hooks.json`}},
	// The workspace's, the Windsurf IDE's user file, the JetBrains
	// plugin's and the system file (docs.windsurf.com/windsurf/cascade/hooks,
	// "Configuration"). A nested folder's .windsurf/hooks.json that
	// Windsurf may also read is run twice at worst.
	"windsurf": {Project: []string{".windsurf/hooks.json"}, FromRoots: true, User: []string{".codeium/windsurf/hooks.json", ".codeium/hooks.json"},
		SystemFiles: []string{"/etc/windsurf/hooks.json", "/Library/Application Support/Windsurf/hooks.json", `C:\ProgramData\Windsurf\hooks.json`}},
	// Any *.json of .github/hooks at the repository's root (e2e
	// TestDoctorSubfolder: read from a folder below it) and of
	// ~/.copilot/hooks, or $COPILOT_HOME/hooks when that is set
	// (docs.github.com hooks reference, "Hooks locations").
	"copilot": {Project: []string{".github/hooks/*.json"}, AtRoot: true, User: []string{".copilot/hooks/*.json"}},
	// The executables of a workspace root's .clinerules/hooks and of the
	// user's Documents/Cline/Hooks (docs.cline.bot, hooks; CL-PKG).
	"cline": {Project: []string{".clinerules/hooks/*"}, FromRoots: true, User: []string{"Documents/Cline/Hooks/*"}},
	// The .factory folder of the git root and of each folder below it
	// down to the start folder (docs.factory.ai, hierarchical settings:
	// project and folder levels), and the user's ~/.factory.
	// Where a hooks.json (or the older hooks/hooks.json, which "still
	// loads") lies beside settings.json, Droid reads the hooks of that
	// file and not of the settings (docs.factory.ai harness/hooks: "If
	// hooks.json is absent, Droid also reads hook declarations from the
	// hooks key in the matching settings.json"). Whether settings.local.json
	// counts as matching is not said: taken as replaced too, so that its
	// hooks run twice at worst, never by nobody.
	"factory": {Project: factoryFiles, RootDown: true, User: factoryFiles,
		Replaced: map[string][]string{"settings.json": factoryHooksFiles, "settings.local.json": factoryHooksFiles}},
}

// factoryHooksFiles are the files beside Droid's settings whose hooks it
// reads instead of theirs.
var factoryHooksFiles = []string{"hooks.json", "hooks/hooks.json"}

// factoryFiles are Factory Droid's hook files in a .factory folder.
var factoryFiles = []string{".factory/settings.json", ".factory/settings.local.json", ".factory/hooks.json"}

// reads reports whether file (clean, slash-separated) is one of the files
// p names for a call made where at says.
func (p agentPlaces) reads(a *Agent, file string, at Places) bool {
	if at.Exists != nil {
		for _, other := range p.replacedBy(file) {
			if at.Exists(other) {
				return false
			}
		}
	}
	if at.Home != "" && matchesAny(file, userFiles(p, a.HookFile.UserEnv, at)) || p.System && isSystemFile(a, file, at) {
		return true
	}
	for _, f := range p.SystemFiles {
		if slashClean(f) == file {
			return true
		}
	}
	starts := at.Start
	if p.FromRoots && len(at.Roots) > 0 {
		starts = at.Roots
	}
	for _, start := range starts {
		if start == "" {
			continue
		}
		dir := slashClean(start)
		top := dir
		if (p.RootDown || p.AtRoot) && at.Root != nil {
			if r := at.Root(start); r != "" {
				top = slashClean(r)
			}
		}
		if p.AtRoot {
			dir = top
		}
		for {
			if matchesAny(file, joinAll(dir, p.Project)) {
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

// joinAll is each of rels under dir.
func joinAll(dir string, rels []string) []string {
	out := make([]string, len(rels))
	for i, r := range rels {
		out[i] = path.Join(dir, r)
	}
	return out
}

// matchesAny reports whether file is one of pats: the same folder, and a
// last element equal to the pattern's or matching it. Only that element
// is a pattern: a folder named with a bracket or a star is taken as
// written.
func matchesAny(file string, pats []string) bool {
	for _, pat := range pats {
		if path.Dir(file) != path.Dir(pat) {
			continue
		}
		if ok, _ := path.Match(path.Base(pat), path.Base(file)); ok || path.Base(pat) == path.Base(file) {
			return true
		}
	}
	return false
}

// userFiles are the user's files of p: under the folder the variable
// homeEnv names when the environment sets it (HookFile.UserEnv, the one
// install writes under), else under the home.
func userFiles(p agentPlaces, homeEnv string, at Places) []string {
	out := make([]string, len(p.User))
	for i, u := range p.User {
		out[i] = userFile(homeEnv, u, at)
	}
	return out
}

// userFile is rel, a user file: under the folder homeEnv names when the
// environment sets it, else under the home.
func userFile(homeEnv, rel string, at Places) string {
	if homeEnv != "" && at.Env != nil {
		if d := at.Env(homeEnv); d != "" {
			return inEnvFolder(homeEnv, slashClean(d), rel)
		}
	}
	return path.Join(slashClean(at.Home), rel)
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

// PlacesEnv are the variables Places.Env and TrustFile's getenv are asked
// for: those that move an agent's folder (HookFile.UserEnv, its trust
// file's) or name its system file (ManagedLayer.Env). Which hook files an
// agent reads itself follows them: a process that answers for another
// (serve, for a forwarded hook call) must see the same value of each.
func PlacesEnv() []string {
	var names []string
	add := func(n string) {
		if n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	for _, a := range All() {
		add(a.HookFile.UserEnv)
		if m := a.ManagedLayer(); m != nil {
			add(m.Env)
		}
		add(trustRules[a.Name].homeEnv)
	}
	return names
}

func slashClean(p string) string { return path.Clean(filepath.ToSlash(p)) }

// ReplacedBy are the files (slash-separated, beside file) whose presence
// makes the agent read their hooks instead of those of file, a hook file
// of its own: Factory Droid's hooks.json beside its settings.json. None
// for most agents and files.
func (a *Agent) ReplacedBy(file string) []string {
	return readPlaces[a.Name].replacedBy(slashClean(file))
}

// replacedBy is ReplacedBy for p's agent, file clean and slash-separated.
func (p agentPlaces) replacedBy(file string) []string {
	return joinAll(path.Dir(file), p.Replaced[path.Base(file)])
}
