package agents

import (
	"encoding/json"
	"path"

	"github.com/pelletier/go-toml/v2"
)

// Some agents read a setting that turns off every hook they would run, not
// only those of the file that holds it: Claude Code's disableAllHooks in
// any settings file (the value left after the files' precedence, so a
// project's file outranks the user's), Codex's [features] hooks in any
// config layer (a trusted project's above the user's). A guard installed
// for the user then stops in a repository that commits the setting, while
// doctor's probe, which runs the line itself, still sees it fire. Switches
// names those files so doctor (and install) can read them and say so.
// Facts and sources: docs/agents.md, "Switches that turn hooks off".

// SwitchFile is one file whose setting can turn off all of an agent's
// hooks, as Switches lists them, lowest precedence first.
type SwitchFile struct {
	// Path is slash-separated, under the user's home directory (User) or
	// the project's root.
	Path string
	User bool
	// HomeEnv names the variable that moves the agent's home folder (Path's
	// first element) elsewhere: CODEX_HOME.
	HomeEnv string
	// IfTrusted: the agent reads the file only in a folder it trusts
	// (Agent.Trusted): Codex's project layer.
	IfTrusted bool
}

// SwitchedOff is what Switches found: the file (an index into
// Agent.SwitchFiles) whose setting turns all of the agent's hooks off,
// the setting as the file spells it, and what to do about it.
type SwitchedOff struct {
	File    int
	Setting string
	Fix     string
}

// switchRule is how an agent's switch files are read.
type switchRule struct {
	files []SwitchFile
	// value is the file's own setting: on (false: off), whether it sets
	// one, and the setting as the file spells it.
	value func(data []byte) (on, set bool, key, setting string)
	// fix is what to do when file f (f.User: the user's own) turns hooks
	// off by key, the setting's own name.
	fix func(a *Agent, f SwitchFile, key string) string
}

var switchRules = map[string]switchRule{
	// code.claude.com/docs/en/hooks "Disable or remove hooks": the value
	// after settings precedence (local over project over user) decides;
	// a non-managed true leaves only managed settings' hooks.
	"claude": {
		files: []SwitchFile{
			{Path: ".claude/settings.json", User: true},
			{Path: ".claude/settings.json"},
			{Path: ".claude/settings.local.json"},
		},
		value: disableAllValue,
		fix: func(a *Agent, f SwitchFile, _ string) string {
			if f.User {
				return `remove "disableAllHooks" from it (or set it to false)`
			}
			return `a project's settings outrank yours; only managed settings' hooks stay on: install the guards there (sudo hermes-hooks install ` + a.Name + ` --managed), or remove the setting if the project is yours to change`
		},
	},
	// openai/codex codex-rs/features/src/lib.rs: Feature::CodexHooks, key
	// "hooks", stable, on by default; legacy.rs: "codex_hooks" an alias.
	// Config layers merge with a trusted project (.codex/config.toml)
	// above the user's ($CODEX_HOME/config.toml); --enable/--disable are
	// session flags, above both.
	"codex": {
		files: []SwitchFile{
			{Path: ".codex/config.toml", User: true, HomeEnv: "CODEX_HOME"},
			{Path: ".codex/config.toml", IfTrusted: true},
		},
		value: codexFeatureValue,
		fix: func(a *Agent, f SwitchFile, key string) string {
			if f.User {
				return "make that line " + key + " = true under [features], or remove it (Codex runs hooks by default)"
			}
			return "a trusted project's config outranks yours: start Codex with codex --enable hooks, or remove the line if the project is yours to change"
		},
	},
}

// SwitchFiles are the files whose setting can turn all of a's hooks off,
// lowest precedence first (none for most agents).
func (a *Agent) SwitchFiles() []SwitchFile { return switchRules[a.Name].files }

// SwitchPath is where f is: under home, the folder f.HomeEnv names
// (getenv reads it), or project.
func (f SwitchFile) SwitchPath(home, project string, getenv func(string) string) string {
	if !f.User {
		return path.Join(project, f.Path)
	}
	return homeFile(home, f.Path, f.HomeEnv, getenv)
}

// Switches reads contents, the data of a.SwitchFiles() in their order (nil
// for a file that is absent), as the agent merges them: the highest file
// that sets the switch decides. It reports the file that turns all hooks
// off, if one does.
func (a *Agent) Switches(contents [][]byte) (SwitchedOff, bool) {
	r, ok := switchRules[a.Name]
	if !ok {
		return SwitchedOff{}, false
	}
	for i := min(len(contents), len(r.files)) - 1; i >= 0; i-- {
		if contents[i] == nil {
			continue
		}
		on, set, key, setting := r.value(contents[i])
		if !set {
			continue
		}
		if on {
			return SwitchedOff{}, false
		}
		return SwitchedOff{File: i, Setting: setting, Fix: r.fix(a, r.files[i], key)}, true
	}
	return SwitchedOff{}, false
}

// disableAllValue is a settings file's disableAllHooks, when it is a JSON
// boolean (a file that is not a JSON object sets nothing: Claude Code
// skips it).
func disableAllValue(data []byte) (on, set bool, key, setting string) {
	var doc map[string]any
	if json.Unmarshal(data, &doc) != nil {
		return true, false, "", ""
	}
	v, isBool := doc["disableAllHooks"].(bool)
	if !isBool {
		return true, false, "", ""
	}
	if v {
		return false, true, "disableAllHooks", `"disableAllHooks" is true`
	}
	return true, true, "", ""
}

// codexFeatureValue is a config.toml's [features] hooks, or its alias
// codex_hooks. Both set and disagreeing: off, the reading that warns (which
// one Codex applies last is its map's order). A file that is not TOML sets
// nothing (Codex refuses to start on it).
func codexFeatureValue(data []byte) (on, set bool, key, setting string) {
	var doc struct {
		Features map[string]any `toml:"features"`
	}
	if toml.Unmarshal(data, &doc) != nil {
		return true, false, "", ""
	}
	on = true
	for _, k := range []string{"hooks", "codex_hooks"} {
		v, isBool := doc.Features[k].(bool)
		if !isBool {
			continue
		}
		set = true
		if !v && on {
			on, key, setting = false, k, "[features] "+k+" = false"
		}
	}
	return on, set, key, setting
}

// EntriesOff reads data, a's TrustFile, for the entries the user turned
// off one by one: Codex keeps [hooks.state."FILE:EVENT_SNAKE:GROUP:HANDLER"]
// enabled = false for a hook switched off in its /hooks, and skips it
// (openai/codex codex-rs/hooks/src/engine/discovery.rs, hook_enabled; read
// from the user's layer only, config_rules.rs). The answer for an entry e
// of the hook file at file (absolute, slash-separated) is that setting, ""
// when the agent runs e. data is parsed once.
func (a *Agent) EntriesOff(data []byte) func(file string, e FileEntry) string {
	none := func(string, FileEntry) string { return "" }
	if a.Name != "codex" || len(data) == 0 {
		return none
	}
	var doc struct {
		Hooks struct {
			State map[string]any `toml:"state"`
		} `toml:"hooks"`
	}
	if toml.Unmarshal(data, &doc) != nil || len(doc.Hooks.State) == 0 {
		return none
	}
	return func(file string, e FileEntry) string {
		key := codexStateKey(file, e)
		state, _ := doc.Hooks.State[key].(map[string]any)
		if on, isBool := state["enabled"].(bool); isBool && !on {
			return `[hooks.state."` + key + `"] enabled = false`
		}
		return ""
	}
}
