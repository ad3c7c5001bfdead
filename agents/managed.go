package agents

import (
	"path"
	"sort"
	"strings"
)

// Managed is an agent's admin layer: the settings file an administrator
// deploys for every user of the machine, which the agent reads above the
// user's and the project's files and which a user cannot edit. `install
// AGENT --managed` writes the agent's entries there. Every path is from
// the agent's own documentation or source (docs/agent-protocols.md,
// "Managed (admin) settings").
type Managed struct {
	// Paths is the file per system (runtime.GOOS: linux, darwin,
	// windows), absolute in that system's form.
	Paths map[string]string
	// DropIns is, per system, the folder of drop-in files the agent
	// merges after the file ("": none), and DropInFile the name install
	// writes there (--drop-in).
	DropIns    map[string]string
	DropInFile string
	// Since is the first version of the agent that reads DropIns.
	Since string
	// OnlyKey is the file's top-level key that makes the agent run the
	// managed hooks only, ignoring the user's and the project's
	// (--managed-only); "" when the agent has none.
	OnlyKey string
	// TOML: the file is TOML, its hooks the inline [hooks] tables of the
	// agent's grouped shape (Codex's requirements.toml).
	TOML bool
	// Env names the variable with which the agent itself reads the file
	// from elsewhere ("": none); install writes the documented path.
	Env string
	// Source cites where the paths come from.
	Source string
}

// managedLayers are the agents with an admin layer install writes. An agent
// not listed has none that hermes-hooks knows of (Cursor, Windsurf, Qwen
// Code … have system files whose hooks do not win over the user's, or none
// documented): `install X --managed` refuses and names these.
var managedLayers = map[string]*Managed{
	// [CC-DOC managed-settings] code.claude.com/docs/en/managed-settings
	// "Deploy a managed settings file"; managed-settings.d/ since 2.1.83
	// (changelog: "managed-settings.d/ drop-in directory").
	"claude": {
		Paths: map[string]string{
			"linux":   "/etc/claude-code/managed-settings.json",
			"darwin":  "/Library/Application Support/ClaudeCode/managed-settings.json",
			"windows": `C:\Program Files\ClaudeCode\managed-settings.json`,
		},
		DropIns: map[string]string{
			"linux":   "/etc/claude-code/managed-settings.d",
			"darwin":  "/Library/Application Support/ClaudeCode/managed-settings.d",
			"windows": `C:\Program Files\ClaudeCode\managed-settings.d`,
		},
		DropInFile: "50-hermes-hooks.json",
		Since:      "2.1.83",
		OnlyKey:    "allowManagedHooksOnly",
		Source:     "code.claude.com/docs/en/managed-settings",
	},
	// [C-DOC managed-configuration] developers.openai.com/codex/enterprise/
	// managed-configuration: "/etc/codex/requirements.toml on Unix systems,
	// including Linux/macOS"; Windows %ProgramData%\OpenAI\Codex\
	// (codex-rs config loader test, debug_config_output_lists_requirement_sources);
	// allow_managed_hooks_only: openai/codex docs/config.md "Lifecycle hooks";
	// managed hooks are trusted by policy: developers.openai.com/codex/hooks.
	"codex": {
		Paths: map[string]string{
			"linux":   "/etc/codex/requirements.toml",
			"darwin":  "/etc/codex/requirements.toml",
			"windows": `C:\ProgramData\OpenAI\Codex\requirements.toml`,
		},
		OnlyKey: "allow_managed_hooks_only",
		TOML:    true,
		Source:  "developers.openai.com/codex/enterprise/managed-configuration",
	},
	// [P-DOC] hooks-reference.md "Policy hooks": every *.json of the
	// policy directory, owned by root and not group- or world-writable;
	// not switched off by disableAllHooks nor folder trust.
	"copilot": {
		Paths: map[string]string{
			"linux":   "/etc/github-copilot/policy.d/hermes-hooks.json",
			"darwin":  "/etc/github-copilot/policy.d/hermes-hooks.json",
			"windows": `C:\ProgramData\GitHub\Copilot\policy.d\hermes-hooks.json`,
		},
		Source: "docs.github.com/en/copilot/reference/hooks-reference#policy-hooks",
	},
	// [G-DOC configuration] geminicli.com/docs/reference/configuration
	// "System settings file": overrides the user's and the project's.
	"gemini": {
		Paths: map[string]string{
			"linux":   "/etc/gemini-cli/settings.json",
			"darwin":  "/Library/Application Support/GeminiCli/settings.json",
			"windows": `C:\ProgramData\gemini-cli\settings.json`,
		},
		Env:    "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
		Source: "geminicli.com/docs/reference/configuration",
	},
}

// ManagedLayer is a's admin layer, nil when it has none.
func (a *Agent) ManagedLayer() *Managed { return managedLayers[a.Name] }

// ManagedNames lists the agents with an admin layer, sorted.
func ManagedNames() []string {
	names := make([]string, 0, len(managedLayers))
	for n := range managedLayers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// File is the managed file on goos, or the drop-in file install writes
// when dropIn is set; "" when the agent has none there.
func (m *Managed) File(goos string, dropIn bool) string {
	if !dropIn {
		return m.Paths[goos]
	}
	dir := m.DropIns[goos]
	if dir == "" {
		return ""
	}
	if goos == "windows" {
		return dir + `\` + m.DropInFile
	}
	return path.Join(dir, m.DropInFile)
}

// Rooted is file (as File gives it for goos) under root, a test's or an
// image's stand-in for the system's root ("" or "/": the file itself):
// /etc/x under /tmp/r is /tmp/r/etc/x; C:\x\y under R is R/C/x/y.
func Rooted(root, goos, file string) string {
	if root == "" || root == "/" || file == "" {
		return file
	}
	rel := file
	if goos == "windows" {
		rel = strings.ReplaceAll(strings.Replace(rel, ":", "", 1), `\`, "/")
	}
	return strings.TrimSuffix(root, "/") + "/" + strings.TrimPrefix(rel, "/")
}
