package agents

import (
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// Gemini CLI and Qwen Code read their settings from the user's file, then
// the workspace's (.gemini/settings.json, .qwen/settings.json in the
// folder they run in, not the project's root), comments blanked
// (strip-json-comments) and JSON.parse'd, and merge them key by key, the
// workspace's above the user's; system settings above both are not read
// here. Each reads the workspace's only in a folder it trusts, but that
// trust can come from an IDE or the environment (GEMINI_CLI_TRUST_WORKSPACE)
// doctor cannot see, and Qwen Code's folder trust is off by default:
// doctor reads the workspace's file in any folder (a false alarm in one
// Gemini distrusts, never a miss). Sources (0.61.0, 0.24.4): Gemini
// packages/cli/src/config/settings.ts (_doLoadSettings, mergeSettings;
// settingsSchema.ts: hooksConfig.disabled's merge is a union) and
// config.ts (enableHooks: settings.hooksConfig.enabled, then
// params.enableHooks ?? true, then a truth test); Qwen settings.ts
// (loadSettings, mergeSettings) and config.ts (settings.disableAllHooks
// ?? false, then a truth test). Run: e2e TestDoctorSwitches.

var geminiFiles = []SwitchFile{
	{Path: ".gemini/settings.json", User: true, HomeEnv: "GEMINI_CLI_HOME"},
	{Path: ".gemini/settings.json"},
}

var qwenFiles = []SwitchFile{
	{Path: ".qwen/settings.json", User: true, HomeEnv: "QWEN_HOME"},
	{Path: ".qwen/settings.json"},
}

// geminiEnabledValues is a settings file's hooksConfig.enabled: on unless
// JavaScript reads it as false (false, 0, ""; null gives way to the
// default, on). Gemini's schema reads the strings "true" and "false", in
// any case, as the booleans (buildZodSchemaFromJsonSchema), in a file
// that passes its schema; doctor, which does not hold that schema, reads
// them so in any file (a false alarm where the rest of the file fails
// it). A hooksConfig that is not an object replaces the lower files'
// whole, its enabled then unset: on.
func geminiEnabledValues(doc map[string]any) map[string]bool {
	cfg, set := doc["hooksConfig"]
	if !set {
		return nil
	}
	obj, isObject := cfg.(map[string]any)
	if !isObject {
		return map[string]bool{"enabled": true}
	}
	v, set := obj["enabled"]
	if !set {
		return nil
	}
	if str, isString := v.(string); isString {
		switch strings.ToLower(str) {
		case "false":
			return map[string]bool{"enabled": false}
		case "true":
			return map[string]bool{"enabled": true}
		}
	}
	return map[string]bool{"enabled": v == nil || pyjson.Truthy(v)}
}

// qwenDisableValues is a settings file's disableAllHooks: off when
// JavaScript reads it as true (true, a number not 0, a string not "", any
// array or object); null and false keep hooks on.
func qwenDisableValues(doc map[string]any) map[string]bool {
	v, set := doc["disableAllHooks"]
	if !set {
		return nil
	}
	return map[string]bool{"disableAllHooks": !pyjson.Truthy(v)}
}

func geminiFix(_ *Agent, f SwitchFile, _ string) string {
	if f.User {
		return `set "hooksConfig": {"enabled": true} in it, or remove "enabled" (Gemini CLI runs hooks by default)`
	}
	return `a folder's settings outrank yours: remove the setting if the project is yours to change, or set "hooksConfig": {"enabled": true} in Gemini CLI's system settings (/etc/gemini-cli/settings.json), which outrank a folder's`
}

func qwenFix(_ *Agent, f SwitchFile, _ string) string {
	if f.User {
		return `remove "disableAllHooks" from it (or set it to false)`
	}
	return `a folder's settings outrank yours: remove the setting if the project is yours to change, or set "disableAllHooks": false in Qwen Code's system settings (/etc/qwen-code/settings.json), which outrank a folder's`
}

// LinesOff reads parsed, a's switch files (files, as SwitchesIn reads
// them), for the lines the agent skips one by one whichever file holds
// them (switchRule.lines): Gemini CLI's hooksConfig.disabled, which it
// merges across its settings files as a union (settingsSchema.ts) and
// compares with each hook's name, else its command (hookRegistry.ts,
// processHookDefinition; our handlers have no name). A repository's
// workspace settings can so name the line install wrote in the user's
// file. The answer for a command is the file that names it and what to
// do; ok false when the agent runs it (and for an agent without such a
// setting).
func (a *Agent) LinesOff(files []SwitchFile, parsed []ParsedFile) func(command string) (SwitchedOff, bool) {
	r := switchRules[a.Name]
	if r.lines == nil {
		return func(string) (SwitchedOff, bool) { return SwitchedOff{}, false }
	}
	n := min(len(files), len(parsed))
	docs := make([]map[string]any, n)
	for i := range n {
		docs[i] = parsed[i].doc
	}
	named := r.lines(docs)
	return func(command string) (SwitchedOff, bool) {
		i, ok := named(command)
		if !ok {
			return SwitchedOff{}, false
		}
		return SwitchedOff{File: i, Setting: r.lineSetting, Fix: r.lineFix(files[i])}, true
	}
}

// geminiLineFix is what to do when f's hooksConfig.disabled names a line.
func geminiLineFix(f SwitchFile) string {
	if f.User {
		return `take that line out of "disabled" (Gemini CLI joins the lists of all its settings files: a line named in any is skipped)`
	}
	return `a folder's list adds to yours, and nothing of yours takes a line off it: remove it if the project is yours to change`
}

// geminiDisabledList is Gemini CLI's merged hooksConfig.disabled over docs,
// lowest first, as its deep merge builds it from the schema's default
// (an empty list): a list, or a string, joins the list; a hooksConfig
// that is not an object drops it, and an object after that starts it
// again from that object's own value, which, when a string, Gemini then
// searches (String.includes: any line the string contains is skipped).
// The answer is the highest file naming command.
func geminiDisabledList(docs []map[string]any) func(command string) (int, bool) {
	// The list kept as a map to the highest file naming each line (docs
	// go lowest first: the last to name it), not searched per command:
	// doctor asks for each entry of a file, and both can be long.
	highest := map[string]int{}
	add := func(e any, file int) {
		if s, isString := e.(string); isString {
			highest[s] = file
		}
	}
	isList := true
	raw, rawFile := "", -1
	for i, doc := range docs {
		cfg, set := doc["hooksConfig"]
		if !set {
			continue
		}
		obj, isObject := cfg.(map[string]any)
		if !isObject {
			clear(highest)
			isList, rawFile = false, -1
			continue
		}
		d, set := obj["disabled"]
		if !set {
			continue
		}
		items, isArray := d.([]any)
		switch {
		case isArray:
			isList, rawFile = true, -1 // after a dropped list, a new one
			for _, e := range items {
				add(e, i)
			}
		case isList:
			add(d, i)
		default:
			raw, rawFile = "", -1
			if s, isString := d.(string); isString {
				raw, rawFile = s, i
			}
		}
	}
	return func(command string) (int, bool) {
		if !isList {
			return rawFile, rawFile >= 0 && raw != "" && strings.Contains(raw, command)
		}
		file, ok := highest[command]
		return file, ok
	}
}
