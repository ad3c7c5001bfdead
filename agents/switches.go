package agents

import (
	"path"
	"strings"
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
	// Below: the agent also reads Path in each folder from the project's
	// root down to the folder it runs in, a nearer folder's above a
	// farther one's (Codex's .codex/config.toml). SwitchFilesAt lists
	// those as files of their own, with Dir set.
	Below bool
	// Dir is the folder below the project's root (slash-separated) whose
	// copy of a Below file this is, or where an agent that reads the
	// folder it starts in only (Agent.StartFolderOnly) runs; "" for the
	// root's. Path includes it.
	Dir string
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
	// keys are the settings that switch the hooks, in the order the agent
	// reads them once it has merged its files key by key: the first key
	// that some file sets decides (Codex's hooks before its old name
	// codex_hooks, whichever file holds either).
	keys []string
	// decode reads a file, as the agent reads it (Agent.SkipBOM), into
	// its keys (nil: it sets nothing); bound, when set, refuses a
	// project's file too large for decode to take in bounded time.
	decode func(data []byte) map[string]any
	bound  func(data []byte) error
	// expand: how the agent expands environment variables in the file's
	// strings before it reads them (switches_env.go); nil: it does not.
	expand func() *expander
	// values are the file's own settings of keys, for each key it sets:
	// on (false: off), from its decoded keys.
	values func(doc map[string]any) map[string]bool
	// setting is key set to off, as a file spells it.
	setting func(key string) string
	// fix is what to do when file f (f.User: the user's own) turns hooks
	// off by key, the setting's own name.
	fix func(a *Agent, f SwitchFile, key string) string
	// lines, for an agent that skips hooks one by one by a setting it
	// joins across its files (Gemini CLI's hooksConfig.disabled), reads
	// docs, the files' decoded keys lowest first, into the highest file
	// that names command (ok false: none does); nil: the agent has no
	// such setting. lineSetting is that setting as a file spells it,
	// lineFix what to do when file f names a line.
	lines       func(docs []map[string]any) func(command string) (file int, ok bool)
	lineSetting string
	lineFix     func(f SwitchFile) string
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
		keys:    []string{"disableAllHooks"},
		decode:  decodeJSON,
		values:  disableAllValues,
		setting: func(string) string { return `"disableAllHooks" is true` },
		fix: func(a *Agent, f SwitchFile, _ string) string {
			if f.User {
				return `remove "disableAllHooks" from it (or set it to false)`
			}
			return `a project's settings outrank yours; only managed settings' hooks stay on: install the guards there (sudo hermes-hooks install ` + a.Name + ` --managed), or remove the setting if the project is yours to change`
		},
	},
	// openai/codex codex-rs/features/src/lib.rs: Feature::CodexHooks, key
	// "hooks", stable, on by default; legacy.rs: "codex_hooks" an alias.
	// Config layers merge key by key, a trusted project (.codex/config.toml)
	// above the user's ($CODEX_HOME/config.toml); --enable/--disable are
	// session flags, above both. Codex 0.171.0, run: the merged hooks
	// decides, codex_hooks only where no layer sets hooks (so a project's
	// codex_hooks = true does not undo the user's hooks = false).
	"codex": {
		// codex-rs/core/src/config_loader/mod.rs, load_project_layers: a
		// project layer for each folder from the root (the nearest with
		// .git, else the working folder) down to the working folder, the
		// nearer above; each trusted by its own [projects] table, else the
		// root's (decision_for_dir). Run: e2e TestDoctorSwitches.
		files: []SwitchFile{
			{Path: ".codex/config.toml", User: true, HomeEnv: "CODEX_HOME"},
			{Path: ".codex/config.toml", IfTrusted: true, Below: true},
		},
		keys:    []string{"hooks", "codex_hooks"},
		decode:  decodeTOML,
		bound:   boundTOML,
		values:  codexFeatureValues,
		setting: func(key string) string { return "[features] " + key + " = false" },
		fix: func(a *Agent, f SwitchFile, key string) string {
			if f.User {
				return "make that line " + key + " = true under [features], or remove it (Codex runs hooks by default)"
			}
			return "a trusted project's config outranks yours: start Codex with codex --enable hooks, or remove the line if the project is yours to change"
		},
	},
	// GitHub Copilot CLI (docs.github.com/en/copilot/reference/hooks-reference,
	// "Disable all hooks"): a top-level disableAllHooks in the
	// repository's settings.json skips every hook from every source —
	// the repository's, the user's ~/.copilot/hooks, plugins, inline
	// blocks — for sessions in that repository; policy hooks stay on. The
	// repository's settings are .github/copilot/settings.json (committed)
	// and settings.local.json ("Hooks locations"); the local file is
	// taken to outrank the committed one, as Claude Code's does (the
	// documentation does not say). Comments are blanked before the read:
	// where Copilot would refuse such a file, doctor warns for nothing,
	// never misses a switch.
	"copilot": {
		files: []SwitchFile{
			{Path: ".github/copilot/settings.json"},
			{Path: ".github/copilot/settings.local.json"},
		},
		keys:    []string{"disableAllHooks"},
		decode:  decodeJSONC,
		values:  disableAllValues,
		setting: func(string) string { return `"disableAllHooks" is true` },
		fix: func(a *Agent, _ SwitchFile, _ string) string {
			return `the repository's settings turn off every hook but policy hooks: install the guards there (sudo hermes-hooks install ` + a.Name + ` --managed), or remove the setting if the repository is yours to change`
		},
	},
	// switches_gemini.go: the files, how each CLI merges them, sources.
	"gemini": {
		files:   geminiFiles,
		keys:    []string{"enabled"},
		decode:  decodeJSONC,
		expand:  geminiEnv,
		values:  geminiEnabledValues,
		setting: func(string) string { return `"hooksConfig"."enabled" is false` },
		fix:     geminiFix,
		lines:   geminiDisabledList,
		// Our handlers have no name: Gemini compares the command.
		lineSetting: `"hooksConfig"."disabled" names this line`,
		lineFix:     geminiLineFix,
	},
	"qwen": {
		files:   qwenFiles,
		keys:    []string{"disableAllHooks"},
		decode:  decodeJSONC,
		expand:  qwenEnv,
		values:  qwenDisableValues,
		setting: func(string) string { return `"disableAllHooks" is true` },
		fix:     qwenFix,
	},
}

// SwitchFiles are the files whose setting can turn all of a's hooks off
// when a runs in the project's root, lowest precedence first (none for
// most agents).
func (a *Agent) SwitchFiles() []SwitchFile { return switchRules[a.Name].files }

// SwitchFilesAt are SwitchFiles when a runs in the folder wd, in project
// (both absolute, slash-separated): a Below file is listed for the root
// and then for each folder down to wd, nearer folders later (higher); a
// project's file of an agent that reads the folder it starts in only
// (StartFolderOnly: Claude Code, Gemini CLI, Qwen Code) for wd alone. A wd that is not project or below it (doctor
// elsewhere, or a path that climbs out with "..") adds no folder: the
// root's files only.
func (a *Agent) SwitchFilesAt(project, wd string) []SwitchFile {
	files := a.SwitchFiles()
	dirs := foldersBelow(project, wd)
	if len(dirs) == 0 {
		return files
	}
	var out []SwitchFile
	for _, f := range files {
		if a.StartFolderOnly && !f.User {
			d := dirs[len(dirs)-1]
			f.Dir, f.Path = d, path.Join(d, f.Path)
		}
		out = append(out, f)
		if !f.Below || f.User {
			continue
		}
		for _, d := range dirs {
			g := f
			g.Dir, g.Path = d, path.Join(d, f.Path)
			out = append(out, g)
		}
	}
	return out
}

// foldersBelow are the folders from project's first child on the way to
// wd down to wd itself, relative to project: "a", "a/b" for wd
// project/a/b; none when wd is project or not inside it.
func foldersBelow(project, wd string) []string {
	if !slashAbs(project) || !slashAbs(wd) {
		return nil
	}
	project, wd = path.Clean(project), path.Clean(wd)
	rel, ok := strings.CutPrefix(wd, strings.TrimSuffix(project, "/")+"/")
	if !ok || rel == "" {
		return nil
	}
	var dirs []string
	for i, part := range strings.Split(rel, "/") {
		if i == 0 {
			dirs = append(dirs, part)
		} else {
			dirs = append(dirs, dirs[i-1]+"/"+part)
		}
	}
	return dirs
}

// slashAbs reports whether p, slash-separated, is absolute: rooted, or on
// Windows as filepath.ToSlash leaves it, "C:/…" (path.IsAbs calls that
// relative, which lost every nested layer there).
func slashAbs(p string) bool {
	if path.IsAbs(p) {
		return true
	}
	if len(p) < 3 || p[1] != ':' || p[2] != '/' {
		return false
	}
	drive := p[0] | 0x20 // lower case
	return 'a' <= drive && drive <= 'z'
}

// SwitchPath is where f is: under home, the folder f.HomeEnv names
// (getenv reads it), or project.
func (f SwitchFile) SwitchPath(home, project string, getenv func(string) string) string {
	if !f.User {
		return path.Join(project, f.Path)
	}
	return homeFile(home, f.Path, f.HomeEnv, getenv)
}

// Switches reads contents, the data of a.SwitchFiles() in their order (nil
// for a file that is absent), as the agent merges them: key by key, the
// highest file that sets a key gives its value, and the first of the
// agent's keys that is set decides. It reports the file that turns all
// hooks off, if one does.
func (a *Agent) Switches(contents [][]byte) (SwitchedOff, bool) {
	return a.SwitchesOf(a.SwitchFiles(), contents)
}

// SwitchesOf is Switches for files, a.SwitchFilesAt's list, and contents
// in their order; SwitchedOff.File indexes files.
func (a *Agent) SwitchesOf(files []SwitchFile, contents [][]byte) (SwitchedOff, bool) {
	parsed := make([]ParsedFile, len(contents))
	for i, data := range contents {
		parsed[i] = a.Parse(data)
	}
	return a.SwitchesIn(files, parsed)
}

// SwitchesIn is SwitchesOf of the files parsed already (Agent.Parse; the
// zero ParsedFile for one that is absent).
func (a *Agent) SwitchesIn(files []SwitchFile, parsed []ParsedFile) (SwitchedOff, bool) {
	r, ok := switchRules[a.Name]
	if !ok {
		return SwitchedOff{}, false
	}
	n := min(len(parsed), len(files))
	values := make([]map[string]bool, n)
	for i := range n {
		if parsed[i].doc != nil {
			values[i] = r.values(parsed[i].doc)
		}
	}
	i, key, off := r.offBy(values)
	if !off {
		return SwitchedOff{}, false
	}
	return SwitchedOff{File: i, Setting: r.setting(key), Fix: r.fix(a, files[i], key)}, true
}

// offBy reads values, the files' own settings of r's keys (switchRule.values),
// lowest precedence first, as the agent merges them: key by key, the
// highest file that sets a key gives its value, and the first of r's keys
// that is set decides. It is the file whose setting turns the hooks off
// and the key it sets; off false when the hooks stay on. SwitchesIn reads
// the switch files so, and ownOff a hook file that is also one of them.
func (r switchRule) offBy(values []map[string]bool) (file int, key string, off bool) {
	for _, key := range r.keys {
		for i := len(values) - 1; i >= 0; i-- {
			on, set := values[i][key]
			switch {
			case !set:
				continue
			case on:
				return 0, "", false
			}
			return i, key, true
		}
	}
	return 0, "", false
}

// disableAllValues is a settings file's disableAllHooks, when it is a
// JSON boolean (a file that is not a JSON object sets nothing: Claude Code
// skips it). on is the hooks': disableAllHooks false.
func disableAllValues(doc map[string]any) map[string]bool {
	v, isBool := doc["disableAllHooks"].(bool)
	if !isBool {
		return nil
	}
	return map[string]bool{"disableAllHooks": !v}
}

// codexFeatureValues are a config.toml's [features] hooks and its alias
// codex_hooks, those that are booleans. A file that is not TOML sets
// nothing (Codex refuses to start on it, as it does on a non-boolean).
func codexFeatureValues(doc map[string]any) map[string]bool {
	features, _ := doc["features"].(map[string]any)
	values := map[string]bool{}
	for _, k := range []string{"hooks", "codex_hooks"} {
		if v, isBool := features[k].(bool); isBool {
			values[k] = v
		}
	}
	return values
}

// EntriesOffIn reads config, a's TrustFile parsed (Agent.Parse), for the
// entries the user turned off one by one: Codex keeps
// [hooks.state."FILE:EVENT_SNAKE:GROUP:HANDLER"] enabled = false for a
// hook switched off in its /hooks, and skips it
// (openai/codex codex-rs/hooks/src/engine/discovery.rs, hook_enabled; read
// from the user's layer only, config_rules.rs). The answer for an entry e
// of the hook file at file (absolute, slash-separated) is that setting, ""
// when the agent runs e.
func (a *Agent) EntriesOffIn(config ParsedFile) func(file string, e FileEntry) string {
	none := func(string, FileEntry) string { return "" }
	hooks, _ := config.doc["hooks"].(map[string]any)
	states, _ := hooks["state"].(map[string]any)
	if a.Name != "codex" || len(states) == 0 {
		return none
	}
	return func(file string, e FileEntry) string {
		key := codexStateKey(file, e)
		state, _ := states[key].(map[string]any)
		if on, isBool := state["enabled"].(bool); isBool && !on {
			return `[hooks.state."` + key + `"] enabled = false`
		}
		return ""
	}
}

// RootMarkersIn are the names whose presence in a folder makes it the
// project's root for a (SwitchFilesAt's root: the nearest folder at or
// above where a runs that holds one, else that folder itself; an empty
// list: that folder always), read from config, the user's config (a's
// TrustFile) parsed (Agent.Parse). ok is false for an agent whose root is
// the project's.
//
// Codex reads project_root_markers, a top-level list of strings, from the
// config layers below the project's (the user's; /etc/codex/config.toml
// and --config are not read here), .git when none sets it, and refuses to
// start on anything but a list of strings, or on a config that is no
// TOML: doctor keeps .git then (openai/codex
// codex-rs/core/src/config_loader/mod.rs, project_root_markers_from_config,
// find_project_root and load_config_toml_for_required_layer).
func (a *Agent) RootMarkersIn(config ParsedFile) (markers []string, ok bool) {
	markers, ok, valid := a.rootMarkers(config)
	if !valid {
		return []string{".git"}, ok
	}
	return markers, ok
}

// RunRootMarkersIn are the root markers by which a call's hook files are
// told a's own or not (Places.Root, LoadsItself: a file a reads itself is
// left to it, and must not be one a never reads): RootMarkersIn, except
// for a config a refuses to start on, which says nothing of the root a
// session started before it broke took. Then the empty list: the folder a
// starts in, the one folder a reads under any markers, so that a file a
// may read is run by us too (twice at worst), never by nobody.
func (a *Agent) RunRootMarkersIn(config ParsedFile) (markers []string, ok bool) {
	markers, ok, valid := a.rootMarkers(config)
	if !valid {
		return []string{}, ok
	}
	return markers, ok
}

// rootMarkers is a's project_root_markers in config; valid is false for a
// config a refuses to start on (no TOML, markers not a list of strings).
func (a *Agent) rootMarkers(config ParsedFile) (markers []string, ok, valid bool) {
	if a.Name != "codex" {
		return nil, false, true
	}
	if config.refused {
		return nil, true, false
	}
	v, set := config.doc["project_root_markers"]
	if !set {
		return []string{".git"}, true, true
	}
	list, isList := v.([]any)
	if !isList {
		return nil, true, false
	}
	markers = []string{}
	for _, m := range list {
		s, isString := m.(string)
		if !isString {
			return nil, true, false
		}
		markers = append(markers, s)
	}
	return markers, true, true
}
