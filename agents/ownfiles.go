package agents

import (
	"path"
	"strings"
)

// ownFiles are, per agent, the hook files it loads by itself, as slash
// patterns (path.Match, segment by segment) of a file path's last
// segments: "<dir>/.claude/settings.json" is a project's or, in the home
// directory, the user's. An entry of such a file is the agent's to run
// (Entry.RunBy), and `hook AGENT` skips it; the same file format anywhere
// else (a team's guards under $HERMES_HOME named by claude_settings:) is
// read by nobody but hermes-hooks, which must then run it under every
// agent, that one included. Where a location is missing here, the worst is
// a hook run twice (by the agent and by us), never one run by nobody.
// Sources: docs/agent-protocols.md per agent; Claude Code's settings
// hierarchy (code.claude.com/docs/en/settings).
var ownFiles = map[string][]string{
	// User, project and project-local settings; managed policy settings
	// in their fixed system folders (Linux /etc/claude-code, macOS
	// /Library/Application Support/ClaudeCode, Windows ProgramData\ClaudeCode).
	"claude": {".claude/settings.json", ".claude/settings.local.json",
		"claude-code/managed-settings.json", "ClaudeCode/managed-settings.json"},
	"codex": {".codex/hooks.json"},
	// Any *.json of a repository's .github/hooks and of ~/.copilot/hooks.
	"copilot": {".github/hooks/*.json", ".copilot/hooks/*.json"},
	"cursor":  {".cursor/hooks.json"},
	"factory": {".factory/settings.json", ".factory/settings.local.json", ".factory/hooks.json"},
	"gemini":  {".gemini/settings.json", "gemini-cli/settings.json"},
	"qwen":    {".qwen/settings.json"},
	// The workspace's, the Windsurf IDE's user file, the JetBrains
	// plugin's, and the system file (/etc/windsurf, Application
	// Support/Windsurf, ProgramData\Windsurf).
	"windsurf": {".windsurf/hooks.json", ".codeium/windsurf/hooks.json", ".codeium/hooks.json", "windsurf/hooks.json", "Windsurf/hooks.json"},
	// Each executable of a project's .clinerules/hooks folder and of the
	// user's Documents/Cline/Hooks.
	"cline": {".clinerules/hooks/*", "Documents/Cline/Hooks/*"},
}

// LoadsItself reports whether the agent reads the hook file at file (an
// absolute or relative path, any separator) by itself on a call made
// where at says: then it runs that file's hooks, and `hook AGENT` must not
// run them again. A file of the agent's format it does not look for is
// run by hermes-hooks alone. For an agent whose places are known
// (readPlaces: Gemini CLI, Qwen Code, Codex, Cursor, Windsurf, Copilot
// CLI, Cline, Factory Droid) that is a file at one of them whose hooks it
// reads: a team's `.gemini/settings.json` under $HERMES_HOME is none,
// neither is another folder's, nor a Droid settings.json beside a
// hooks.json. Where at knows neither the user's home nor a start folder,
// or for the other agents, the file's name decides (ownShape): a file of
// that name the agent does not read is then left to it, and runs nowhere.
func (a *Agent) LoadsItself(file string, at Places) bool {
	rp, ok := readPlaces[a.Name]
	if !ok || at.Home == "" && len(at.Start) == 0 {
		return a.ownShape(file)
	}
	return rp.reads(a, slashClean(file), at)
}

// ownShape reports whether file's last segments are those of a file the
// agent reads itself (ownFiles), wherever it lies.
func (a *Agent) ownShape(file string) bool {
	segs := strings.Split(slashClean(file), "/")
	for _, pat := range ownFiles[a.Name] {
		want := strings.Split(pat, "/")
		if len(want) > len(segs) {
			continue
		}
		if matchTail(want, segs[len(segs)-len(want):]) {
			return true
		}
	}
	return false
}

// RunsItself is the agent's name when a hook file at file has the name of
// one it reads by itself (ownShape; LoadsItself then says whether this
// call's agent reads it where it lies): that file's hooks are its own to
// run. Else "": a file of its format it never looks at (a team's guards
// kept beside the Hermes config) is run by hermes-hooks under every agent,
// this one included; marking it the agent's would leave it run by nobody.
func (a *Agent) RunsItself(file string) string {
	if a.ownShape(file) {
		return a.Name
	}
	return ""
}

// matchTail reports whether each segment of name matches its pattern.
func matchTail(pat, name []string) bool {
	for i := range pat {
		if ok, _ := path.Match(pat[i], name[i]); !ok {
			return false
		}
	}
	return true
}
