package agents

import (
	"bytes"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// Gemini CLI strips variables from the environment it gives the hooks it
// runs: its hook runner spreads sanitizeEnvironment(process.env, …), then
// GEMINI_PROJECT_DIR and its kin, then the hook's own "env" (0.61.0's
// bundle: packages/core/src/services/environmentSanitization.ts,
// sanitizeEnvironment and shouldRedactEnvironmentVariable; the hook
// runner's env2). It strips when its merged settings'
// security.environmentVariableRedaction.enabled is on, or when GITHUB_SHA
// is set or SURFACE is "Github" (strict: only an allow-list passes), and
// the merged "blocked" list and "allowed" list come from its settings
// files, the highest file that sets each replacing the lower ones' (no
// merge strategy in settingsSchema.ts: customDeepMerge replaces arrays).
// hermes-hooks reads its controls from its environment: a HERMES_HOME
// stripped so is ~/.hermes to `hook gemini`, and the user's guards kept
// elsewhere do not run. StrippedOf tells which of them a set of settings
// files makes the agent strip, and which file decides it.
//
// Qwen Code 0.24.4 strips its own daemon tokens only (sanitizeChildEnv:
// QWEN_SERVER_TOKEN, QWEN_DAEMON_TOKEN, QWEN_CODE_EXTERNAL_TOOL_GUARD_TOKEN,
// QWEN_CODE_PRIVATE_ACP_CAPABILITY), a fixed list no setting extends: it
// has no rule here.

// StripFile is one settings file from which an agent reads what it strips
// from its hooks' environment, as StripFiles lists them, lowest
// precedence first.
type StripFile struct {
	// Path is absolute and slash-separated.
	Path string
	// Project: the workspace's file, a repository's to write.
	Project bool
	// System: the administrator's (Gemini CLI's system defaults and
	// system settings).
	System bool
}

// Stripped is a variable the agent strips from its hooks' environment.
type Stripped struct {
	Name string
	// File indexes the files: the one whose setting strips Name; -1 when
	// the agent's strict mode alone does (GITHUB_SHA or SURFACE=Github).
	File int
	// Setting says why, as the file spells it.
	Setting string
	// ByValue: the value looks like a secret to the agent, which then
	// strips it whatever its allow-list says.
	ByValue bool
	// ByProject: without the project's file the agent would not strip it.
	ByProject bool
}

// stripRule is how an agent decides what it strips.
type stripRule struct {
	files  func(home, workspace string, getenv func(string) string, goos string) []StripFile
	strict func(lookup func(string) (string, bool)) bool
	// strips reads docs (the files' decoded keys, lowest first; nil for
	// an absent file) for whether name=value (value "": unknown) is
	// stripped, and why.
	strips func(docs []map[string]any, name, value string, strict bool) (Stripped, bool)
	// fix is what to do about s, docs and files as for strips.
	fix func(files []StripFile, docs []map[string]any, s Stripped) string
	// key is the settings' key under which a file says what it strips.
	key string
}

var stripRules = map[string]stripRule{
	"gemini": {files: geminiStripFiles, strict: geminiStrict, strips: geminiStrips, fix: geminiStripFix, key: "environmentVariableRedaction"},
}

// StripMayDecide reports whether data, one of a's settings files, may
// change what a strips: it spells the settings' key, or holds a \u escape
// (a key spelt so is known only once decoded). Keys are never expanded
// from the environment. A file that does not cannot strip anything, and
// `hook AGENT` reads the other files only when a project's file may.
func (a *Agent) StripMayDecide(data []byte) bool {
	r, ok := stripRules[a.Name]
	return ok && (bytes.Contains(data, []byte(r.key)) || bytes.Contains(data, []byte(`\u`)))
}

// StripsEnv reports whether a strips variables from its hooks'
// environment by its settings.
func (a *Agent) StripsEnv() bool {
	_, ok := stripRules[a.Name]
	return ok
}

// StripFiles are the files a reads what it strips from, when it runs in
// workspace (absolute, slash-separated; "": none), home being the user's
// home folder, getenv the agent's environment, goos the system.
func (a *Agent) StripFiles(home, workspace string, getenv func(string) string, goos string) []StripFile {
	r, ok := stripRules[a.Name]
	if !ok {
		return nil
	}
	return r.files(home, workspace, getenv, goos)
}

// StripStrict reports whether lookup, the agent's environment, puts a in
// its strict mode (Gemini CLI: GITHUB_SHA set, or SURFACE=Github).
func (a *Agent) StripStrict(lookup func(string) (string, bool)) bool {
	r, ok := stripRules[a.Name]
	return ok && r.strict(lookup)
}

// StrippedOf reads parsed (a's StripFiles parsed with ParseLayerEnv; the
// zero ParsedFile for an absent one) for the variables of env (name to
// value; "" value: not known, the name alone decides) that a strips from
// its hooks' environment, in env's key order as given by names.
func (a *Agent) StrippedOf(files []StripFile, parsed []ParsedFile, names []string, env map[string]string, strict bool) []Stripped {
	r, ok := stripRules[a.Name]
	if !ok {
		return nil
	}
	n := min(len(files), len(parsed))
	docs := make([]map[string]any, n)
	without := make([]map[string]any, n) // the project's file left out
	for i := range n {
		docs[i] = parsed[i].doc
		if !files[i].Project {
			without[i] = parsed[i].doc
		}
	}
	var out []Stripped
	for _, name := range names {
		s, stripped := r.strips(docs, name, env[name], strict)
		if !stripped {
			continue
		}
		_, still := r.strips(without, name, env[name], strict)
		s.ByProject = !still
		out = append(out, s)
	}
	return out
}

// StripFix is what to do so that a no longer strips s, files and parsed
// as StrippedOf took them.
func (a *Agent) StripFix(files []StripFile, parsed []ParsedFile, s Stripped) string {
	r, ok := stripRules[a.Name]
	if !ok {
		return ""
	}
	docs := make([]map[string]any, min(len(files), len(parsed)))
	for i := range docs {
		docs[i] = parsed[i].doc
	}
	return r.fix(files[:len(docs)], docs, s)
}

// geminiStripFiles are Gemini CLI's settings files in the order it merges
// them (settings.ts, mergeSettings: system defaults, the user's, the
// workspace's, the system's; getSystemSettingsPath and
// getSystemDefaultsPath; the user's folder is GEMINI_CLI_HOME's, else the
// home folder, storage.ts homedir). A workspace that is the home folder
// has no file of its own (isWorkspaceHomeDir). The workspace's is read
// only in a trusted folder; trust can come from places not seen here, so
// it is listed in any folder (a false alarm, never a miss).
func geminiStripFiles(home, workspace string, getenv func(string) string, goos string) []StripFile {
	// The system settings are Gemini's admin layer (managed.go), Linux's
	// path on every system but macOS and Windows, as Gemini takes it.
	m := managedLayers["gemini"]
	system := getenv(m.Env)
	if system == "" {
		if system = m.Paths[goos]; system == "" {
			system = m.Paths["linux"]
		}
		system = strings.ReplaceAll(system, `\`, "/")
	}
	defaults := getenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH")
	if defaults == "" {
		defaults = path.Join(path.Dir(system), "system-defaults.json")
	}
	userHome := home
	if h := getenv("GEMINI_CLI_HOME"); h != "" {
		userHome = h
	}
	files := []StripFile{{Path: defaults, System: true}}
	if userHome != "" {
		files = append(files, StripFile{Path: path.Join(userHome, ".gemini/settings.json")})
	}
	if workspace != "" && path.Clean(workspace) != path.Clean(userHome) {
		files = append(files, StripFile{Path: path.Join(workspace, ".gemini/settings.json"), Project: true})
	}
	return append(files, StripFile{Path: system, System: true})
}

func geminiStrict(lookup func(string) (string, bool)) bool {
	sha, _ := lookup("GITHUB_SHA")
	surface, _ := lookup("SURFACE")
	return sha != "" || surface == "Github"
}

// geminiRedaction is Gemini CLI's merged
// security.environmentVariableRedaction, each key with the file that gave
// it (-1: the schema's default: off, empty lists).
type geminiRedaction struct {
	enabled, allowed, blocked             any
	enabledFile, allowedFile, blockedFile int
}

// geminiRedactionOf merges docs, lowest first, as customDeepMerge does on
// this path: an object merges key by key; anything else (null, a string,
// a list) replaces the whole value below it, its keys then unset.
func geminiRedactionOf(docs []map[string]any) geminiRedaction {
	r := geminiRedaction{enabledFile: -1, allowedFile: -1, blockedFile: -1}
	reset := func(i int) {
		r = geminiRedaction{enabledFile: i, allowedFile: i, blockedFile: i}
	}
	for i, doc := range docs {
		sec, set := doc["security"]
		if !set {
			continue
		}
		secObj, isObject := sec.(map[string]any)
		if !isObject {
			reset(i)
			continue
		}
		evr, set := secObj["environmentVariableRedaction"]
		if !set {
			continue
		}
		obj, isObject := evr.(map[string]any)
		if !isObject {
			reset(i)
			continue
		}
		if v, set := obj["enabled"]; set {
			r.enabled, r.enabledFile = v, i
		}
		if v, set := obj["allowed"]; set {
			r.allowed, r.allowedFile = v, i
		}
		if v, set := obj["blocked"]; set {
			r.blocked, r.blockedFile = v, i
		}
	}
	return r
}

// geminiNames is a list setting's names in upper case, as
// sanitizeEnvironment builds its sets; a value that is no list names
// none (Gemini itself fails on it).
func geminiNames(v any) []string {
	items, _ := v.([]any)
	var out []string
	for _, e := range items {
		if s, isString := e.(string); isString {
			out = append(out, strings.ToUpper(s))
		}
	}
	return out
}

// geminiAlwaysAllowed are the names strict mode and the name patterns
// let through (ALWAYS_ALLOWED_ENVIRONMENT_VARIABLES); the blocked list
// still strips them.
var geminiAlwaysAllowed = []string{
	"PATH", "SYSTEMROOT", "COMSPEC", "PATHEXT", "WINDIR", "TEMP", "TMP", "USERPROFILE", "SYSTEMDRIVE",
	"HOME", "LANG", "SHELL", "TMPDIR", "USER", "LOGNAME", "TERM", "COLORTERM",
	"ADDITIONAL_CONTEXT", "AVAILABLE_LABELS", "BRANCH_NAME", "DESCRIPTION", "EVENT_NAME", "GITHUB_ENV",
	"IS_PULL_REQUEST", "ISSUES_TO_TRIAGE", "ISSUE_BODY", "ISSUE_NUMBER", "ISSUE_TITLE",
	"PULL_REQUEST_NUMBER", "REPOSITORY", "TITLE", "TRIGGERING_ACTOR",
}

// geminiNeverAllowed are stripped whenever the agent strips at all
// (NEVER_ALLOWED_ENVIRONMENT_VARIABLES), unless allowed.
var geminiNeverAllowed = []string{
	"CLIENT_ID", "DB_URI", "CONNECTION_STRING", "AWS_DEFAULT_REGION", "AZURE_CLIENT_ID", "AZURE_TENANT_ID",
	"SLACK_WEBHOOK_URL", "TWILIO_ACCOUNT_SID", "DATABASE_URL", "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_ACCOUNT",
	"FIREBASE_PROJECT_ID",
}

// geminiSecretName is NEVER_ALLOWED_NAME_PATTERNS as one pattern,
// compiled at first use (at init every start of every command paid it).
var geminiSecretName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)TOKEN|SECRET|PASSWORD|PASSWD|KEY|AUTH|CREDENTIAL|CREDS|PRIVATE|CERT`)
})

// geminiSecretValue is NEVER_ALLOWED_VALUE_PATTERNS as one pattern, read
// on the value in upper case as Gemini does. RE2 has no repeat past 1000,
// so the long bounded repeats are unbounded here: a value Gemini takes
// for a secret always matches (a value past those bounds may match here
// alone: a false alarm, never a miss). Compiled at first use.
var geminiSecretValue = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)-----BEGIN (RSA|OPENSSH|EC|PGP) PRIVATE KEY-----|-----BEGIN CERTIFICATE-----|` +
		`(https?|ftp|smtp)://[^:\s]+:[^@\s]+@|(ghp|gho|ghu|ghs|ghr|github_pat)_[a-zA-Z0-9_]{36,}|AIzaSy[a-zA-Z0-9_\\-]{33}|` +
		`AKIA[A-Z0-9]{16}|eyJ[a-zA-Z0-9_-]*\.[a-zA-Z0-9_-]*\.|(s|r)k_(live|test)_[0-9a-zA-Z]{24}|xox[abpr]-[a-zA-Z0-9-]+`)
})

// The settings as a file spells them, for messages.
const (
	geminiRedactionKey = `"security"."environmentVariableRedaction"`
	geminiStrictWhy    = "GITHUB_SHA is set or SURFACE is Github (Gemini CLI's strict mode: only its own list and " + geminiRedactionKey + `."allowed" pass)`
)

// geminiStrips is shouldRedactEnvironmentVariable over the merged
// settings of docs, for name=value (value "": not known).
func geminiStrips(docs []map[string]any, name, value string, strict bool) (Stripped, bool) {
	r := geminiRedactionOf(docs)
	key := strings.ToUpper(name)
	on := pyjson.Truthy(r.enabled)
	if strings.HasPrefix(key, "GEMINI_CLI_") || !on && !strict {
		return Stripped{}, false
	}
	// What turns stripping on: the file that enables it, else strict mode.
	onFile, onWhy := r.enabledFile, geminiRedactionKey+`."enabled" is on`
	if !on {
		onFile, onWhy = -1, geminiStrictWhy
	}
	if value != "" && geminiSecretValue().MatchString(value) {
		return Stripped{Name: name, File: onFile, Setting: onWhy + " and the value of " + name + " looks like a secret to it", ByValue: true}, true
	}
	switch {
	case strings.HasPrefix(key, "GIT_CONFIG_"), slices.Contains(geminiNames(r.allowed), key):
		return Stripped{}, false
	case slices.Contains(geminiNames(r.blocked), key):
		return Stripped{Name: name, File: r.blockedFile, Setting: geminiRedactionKey + `."blocked" names ` + name}, true
	case slices.Contains(geminiAlwaysAllowed, key):
		return Stripped{}, false
	case slices.Contains(geminiNeverAllowed, key):
		return Stripped{Name: name, File: onFile, Setting: onWhy + " and it strips " + name + " always"}, true
	case strict:
		// The allow-list that left name out is the highest file's that
		// set one: a workspace's replaces the user's.
		return Stripped{Name: name, File: r.allowedFile, Setting: geminiStrictWhy}, true
	case geminiSecretName().MatchString(key):
		return Stripped{Name: name, File: onFile, Setting: onWhy + " and " + name + " looks like the name of a secret to it"}, true
	}
	return Stripped{}, false
}

// geminiStripFix: a name in the merged "allowed" list passes the blocked
// list and strict mode, but not a value that looks like a secret. The
// list is the highest file's that sets one, so the fix goes in the user's
// file only when no file above it sets the list; a workspace's outranks
// the user's, and the system settings (the last file) outrank it.
func geminiStripFix(files []StripFile, docs []map[string]any, s Stripped) string {
	allow := `add "` + s.Name + `" to ` + geminiRedactionKey + `."allowed" in `
	if s.ByValue {
		fix := `Gemini CLI strips a value it takes for a secret whatever its allow-list says: give ` + s.Name + ` a value it does not (another path)`
		if s.File >= 0 && s.File < len(files) {
			fix += `, or turn ` + geminiRedactionKey + `."enabled" off in ` + files[s.File].Path
		}
		return fix
	}
	system, user := "", ""
	for _, f := range files {
		switch {
		case f.System:
			system = f.Path // the last: the system settings, above all
		case !f.Project:
			user = f.Path
		}
	}
	r := geminiRedactionOf(docs)
	switch {
	case s.ByProject || user == "":
		return `a folder's settings outrank yours: ` + allow + system + ` (Gemini CLI's system settings, which outrank a folder's), or remove the setting from the project's file if the project is yours to change`
	case r.allowedFile >= 0 && r.allowedFile < len(files) && files[r.allowedFile].System:
		return allow + files[r.allowedFile].Path + ` (its list replaces yours)`
	}
	return allow + user + ` (Gemini CLI passes a variable named there through its blocked list and its strict mode)`
}
