package agents

import (
	"encoding/json"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Some agents run a project's hook file only in a folder the user trusts,
// and keep that trust in a file of the user's own: a project whose folder
// is not trusted has hooks that never run, however well they are
// installed. TrustFile and Trusted let doctor say so (it only reads).

// trustRule is where an agent keeps its folder trust (a path in the home
// directory) and how to read it.
type trustRule struct {
	file string
	// homeEnv names the variable that moves the agent's folder (the
	// file's first element) elsewhere: CODEX_HOME, COPILOT_HOME.
	homeEnv string
	check   func(data []byte, project string) bool
}

var trustRules = map[string]trustRule{
	// Codex: a project's .codex layer is read only when config.toml has
	// [projects."/path"] trust_level = "trusted" [C-DOC config].
	"codex": {".codex/config.toml", "CODEX_HOME", codexTrusted},
	// Gemini CLI: trustedFolders.json maps paths to TRUST_FOLDER,
	// TRUST_PARENT or DO_NOT_TRUST [G-SRC trustedFolders].
	"gemini": {".gemini/trustedFolders.json", "GEMINI_CLI_HOME", geminiTrusted},
	// Copilot CLI: config.json lists trusted folders [P-DOC].
	"copilot": {".copilot/config.json", "COPILOT_HOME", copilotTrusted},
}

// TrustFile is the file where a keeps the folders the user trusts to run
// their project hooks, in home or the folder its variable names (getenv
// reads it); "" when a runs a project's hooks without asking.
func (a *Agent) TrustFile(home string, getenv func(string) string) string {
	r, ok := trustRules[a.Name]
	if !ok {
		return ""
	}
	return homeFile(home, r.file, r.homeEnv, getenv)
}

// homeFile is rel (slash-separated, under the user's home folder) where
// the agent reads it: under the folder env names (getenv reads it) when
// set (inEnvFolder), else under home.
func homeFile(home, rel, env string, getenv func(string) string) string {
	if env != "" && getenv != nil {
		if dir := getenv(env); dir != "" {
			return inEnvFolder(env, dir, rel)
		}
	}
	return path.Join(home, rel)
}

// homeVars are the variables that stand for the user's home folder
// itself, not for the agent's folder in it: Gemini CLI's GEMINI_CLI_HOME
// (its storage's homedir(): $GEMINI_CLI_HOME/.gemini/settings.json), where
// CODEX_HOME stands for ~/.codex.
var homeVars = map[string]bool{"GEMINI_CLI_HOME": true}

// inEnvFolder is rel (slash-separated, under the home folder) under dir,
// the folder env names: dir stands for the home (homeVars), else for
// rel's first element.
func inEnvFolder(env, dir, rel string) string {
	if homeVars[env] {
		return path.Join(dir, rel)
	}
	_, rest, _ := strings.Cut(rel, "/")
	return path.Join(dir, rest)
}

// Trusted reports whether data, a's TrustFile, trusts the project folder
// (absolute, slash-separated) to run its hooks. A file that cannot be read
// trusts nothing.
func (a *Agent) Trusted(data []byte, project string) bool {
	r, ok := trustRules[a.Name]
	return !ok || r.check(a.SkipBOM(data), path.Clean(project))
}

// inside reports whether p is dir or below it.
func inside(p, dir string) bool {
	dir = path.Clean(dir)
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// codexHeader is a TOML table header [projects."PATH"] (or 'PATH').
var codexHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\[\s*projects\s*\.\s*("(?:[^"\\]|\\.)*"|'[^']*')\s*\]\s*(?:#.*)?$`)
})

// codexTrusted reads the [projects."PATH"] tables of Codex's config.toml:
// the project is trusted when its own table says trust_level = "trusted".
func codexTrusted(data []byte, project string) bool {
	return codexTrustLevels(data)[project] == "trusted"
}

// codexTrustLevels are the trust_level of each folder (path.Clean'd) that
// a [projects."PATH"] table of data sets, the last one given for a folder.
// data is past a byte order mark already (Agent.SkipBOM), as for every
// check. It reads data once: doctor asks for many folders (FolderTrust).
func codexTrustLevels(data []byte) map[string]string {
	codexTrustScans.Add(1)
	levels := map[string]string{}
	table := ""
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			table = ""
			if m := codexHeader().FindStringSubmatch(line); m != nil {
				if t := unquoteTOML(m[1]); t != "" {
					table = path.Clean(t)
				}
			}
			continue
		}
		if table == "" {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.TrimSpace(k) == "trust_level" {
			v, _, _ = strings.Cut(strings.TrimSpace(v), "#")
			levels[table] = unquoteTOML(strings.TrimSpace(v))
		}
	}
	return levels
}

// codexTrustScans counts codexTrustLevels' reads of a whole file, for the
// tests that hold doctor to one read per trust file.
var codexTrustScans atomic.Int64

// TrustedFolder reports whether data, a's TrustFile, trusts dir (absolute,
// slash-separated; project or a folder below it) to have its own layer
// read, for an agent that reads one in each folder from the project's root
// down to where it runs (SwitchFile.Below). Codex decides by the first of
// these [projects] tables that sets a trust_level: dir's own, the
// project's root's, and the main checkout's when the project is a linked
// git worktree (repo, repoid.MainTop's; "" for none), so a worktree of a
// trusted repository is trusted (openai/codex
// codex-rs/core/src/config_loader/mod.rs, decision_for_dir). The other
// agents: the project's trust alone. To ask for many folders, read data
// once with FolderTrust.
func (a *Agent) TrustedFolder(data []byte, project, dir, repo string) bool {
	return a.FolderTrust(data).Trusted(project, dir, repo)
}

// FolderTrust is a's trust file, read once, for TrustedFolder's question
// about many folders: doctor asks it for each folder from a project's root
// down to where it runs, and a read of a large config.toml per folder (up
// to three: the folder's table, the root's, the main checkout's) took
// seconds. The zero FolderTrust trusts nothing.
type FolderTrust struct {
	a    *Agent
	data []byte
	// levels: Codex's trust_level of each folder with a table of its own.
	levels map[string]string
}

// FolderTrust reads data, a's TrustFile, for FolderTrust.Trusted.
func (a *Agent) FolderTrust(data []byte) FolderTrust {
	t := FolderTrust{a: a, data: data}
	if a.Name == "codex" {
		t.levels = codexTrustLevels(a.SkipBOM(data))
	}
	return t
}

// Trusted is TrustedFolder of the file t read.
func (t FolderTrust) Trusted(project, dir, repo string) bool {
	switch {
	case t.a == nil:
		return false
	case t.a.Name != "codex":
		return t.a.Trusted(t.data, project)
	}
	for _, d := range []string{dir, project, repo} {
		if d == "" {
			continue
		}
		if level, found := t.levels[path.Clean(d)]; found {
			return level == "trusted"
		}
	}
	return false
}

// unquoteTOML is a TOML basic ("…", with escapes) or literal ('…') string's
// text; "" for anything else.
func unquoteTOML(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return s[1 : len(s)-1]
	}
	if u, err := strconv.Unquote(s); err == nil && strings.HasPrefix(s, `"`) {
		return u
	}
	return ""
}

// geminiTrusted: the rule for the nearest folder at or above the project
// decides (TRUST_PARENT trusts the folder above the one it names).
func geminiTrusted(data []byte, project string) bool {
	var rules map[string]string
	if json.Unmarshal(data, &rules) != nil {
		return false
	}
	best, trusted := -1, false
	for p, level := range rules {
		if !path.IsAbs(p) {
			continue
		}
		if level == "TRUST_PARENT" {
			p = path.Dir(path.Clean(p))
		}
		if inside(project, p) && len(path.Clean(p)) > best {
			best, trusted = len(path.Clean(p)), level == "TRUST_FOLDER" || level == "TRUST_PARENT"
		}
	}
	return trusted
}

// copilotTrusted: a folder in the config's trusted folders list trusts
// what is below it too.
func copilotTrusted(data []byte, project string) bool {
	var cfg struct {
		Camel []string `json:"trustedFolders"`
		Snake []string `json:"trusted_folders"`
	}
	if json.Unmarshal(data, &cfg) != nil {
		return false
	}
	for _, p := range append(cfg.Camel, cfg.Snake...) {
		if path.IsAbs(p) && inside(project, p) {
			return true
		}
	}
	return false
}

// Reviews reads data, a's TrustFile, once, for an agent that also asks
// the user to review each hook of a trusted folder before it runs it
// (Codex's /hooks): the answer for entry e of the hook file at file
// (absolute, slash-separated) is whether data records a review of it.
// asks is false for the other agents. Codex keeps a review as
// [hooks.state."FILE:EVENT_SNAKE:GROUP:HANDLER"] with the hash of the
// definition; that hash is Codex's own, so a recorded review of a
// since-changed entry still reads as reviewed. doctor asks for each entry
// of a file: a scan of the file per entry grew with their product.
func (a *Agent) Reviews(data []byte) func(file string, e FileEntry) (reviewed, asks bool) {
	if a.Name != "codex" {
		return func(string, FileEntry) (bool, bool) { return false, false }
	}
	keys := map[string]bool{}
	for _, line := range strings.Split(string(a.SkipBOM(data)), "\n") {
		line = strings.TrimSpace(line)
		if m := codexStateHeader().FindStringSubmatch(line); m != nil {
			keys[unquoteTOML(m[1])] = true
		}
	}
	return func(file string, e FileEntry) (bool, bool) {
		return keys[codexStateKey(file, e)], true
	}
}

// codexStateKey is the key of Codex's [hooks.state."KEY"] table for entry
// e of the hook file at file (absolute, slash-separated):
// FILE:EVENT_SNAKE:GROUP:HANDLER.
func codexStateKey(file string, e FileEntry) string {
	return file + ":" + snake(e.Event) + ":" + strconv.Itoa(e.Group) + ":" + strconv.Itoa(e.Handler)
}

// codexStateHeader is a TOML table header [hooks.state."KEY"].
var codexStateHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\[\s*hooks\s*\.\s*state\s*\.\s*("(?:[^"\\]|\\.)*"|'[^']*')\s*\]\s*(?:#.*)?$`)
})

// snake is an event name in snake case: PreToolUse → pre_tool_use.
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}
