package dispatcher

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"sort"
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Agents' own hook files as hook sources: Claude Code settings, Codex
// hooks.json, Copilot hook files and Cursor hooks.json, named by the
// config (claude_settings:, codex_hooks:, copilot_hooks:, cursor_hooks:)
// or the command line. Their hooks run under any agent and host; the agent
// that declared them runs them itself, so `hermes-hooks hook AGENT` skips
// them (Entry.RunBy).

// AgentFiles are agents' hook files by agent name ("claude", "codex",
// "copilot", "cursor"; see agents.All).
type AgentFiles map[string][]string

// agentFileKind is one kind of agent hook file: whose it is, the config
// key naming such files (and the path of warnings about them), what names
// them in messages, and how one is read — at most limit hook definitions
// of it (0: no limit; see MaxProjectEntries).
type agentFileKind struct {
	agent, key, what string
	parse            func(data []byte, path string, limit int) ([]*Entry, []Warning, error)
}

// agentParsers read each agent's hook file.
var agentParsers = map[string]func(data []byte, path string, limit int) ([]*Entry, []Warning, error){
	"claude": func(data []byte, path string, limit int) ([]*Entry, []Warning, error) {
		return parseClaudeShaped(data, path, claudeShape, limit)
	},
	"codex":   parseCodexHooks,
	"copilot": parseCopilotHooks,
	"cursor":  parseCursorHooks,
}

// agentFileKinds are every kind, in the order their entries load (the
// agents' order).
var agentFileKinds = sync.OnceValue(func() []agentFileKind {
	var out []agentFileKind
	for _, a := range agents.All() {
		if parse := agentParsers[a.Name]; parse != nil && a.Source.ConfigKey != "" {
			out = append(out, agentFileKind{agent: a.Name, key: a.Source.ConfigKey, what: a.Source.What, parse: parse})
		}
	}
	return out
})

// AgentHookFiles lists the agents' hook files of the config, in the
// agents' order — as written after ParseConfig, the files read after Load.
func (cfg *Config) AgentHookFiles() []string {
	var out []string
	for _, k := range agentFileKinds() {
		out = append(out, cfg.AgentFiles[k.agent]...)
	}
	return out
}

// addAgentFile reads one agent hook file. A file the user named on the
// command line (required) must exist; one the config names is skipped with
// a warning when missing, as a config may list files of agents not
// installed on this machine.
func (cfg *Config) addAgentFile(k agentFileKind, path string, required bool) error {
	data, err := ReadConfigFile(path)
	if err != nil {
		if !required && errors.Is(err, fs.ErrNotExist) {
			cfg.warn(k.key, path+": no such file; skipped")
			return nil
		}
		return &ConfigError{Path: path, Err: err}
	}
	entries, warnings, err := k.parse(data, path, 0)
	if err != nil {
		return err
	}
	if k.agent == "claude" {
		cfg.claudeSwitches = append(cfg.claudeSwitches, readClaudeSwitches(data, path))
	}
	cfg.Entries = append(cfg.Entries, entries...)
	cfg.Warnings = append(cfg.Warnings, warnings...)
	cfg.addFile(k.agent, path)
	return nil
}

// addFile lists path among the agent's files.
func (cfg *Config) addFile(agent, path string) {
	if cfg.AgentFiles == nil {
		cfg.AgentFiles = AgentFiles{}
	}
	cfg.AgentFiles[agent] = append(cfg.AgentFiles[agent], path)
}

// agentShape is the claudeShaped of another agent's file: its event names
// through the agent's table (package agents), its project folder.
func agentShape(name, marker string, levels int) claudeShaped {
	a, _ := agents.Lookup(name)
	return claudeShaped{
		agent: name,
		event: a.Canonical,
		unknown: func(ev string) string {
			return "'" + ev + "' is not a " + a.Title + " event hermes-hooks serves; skipped"
		},
		projectDir: func(path string) string { return markedProjectDir(path, marker, levels) },
	}
}

// codexShape: Codex's hooks.json is Claude Code's settings shape, with
// Codex's event names (Claude Code's, less some).
// Built at first use, as the agents' tables are (see agents.Lookup).
var codexShape = sync.OnceValue(func() claudeShaped { return agentShape("codex", ".codex", 1) })

// parseCodexHooks reads a Codex hooks.json ([hooks] tables in Codex's
// config.toml are not read: TOML is not a format hermes-hooks parses).
func parseCodexHooks(data []byte, path string, limit int) ([]*Entry, []Warning, error) {
	return parseClaudeShaped(data, path, codexShape(), limit)
}

// copilotShape: a Copilot hook file (.github/hooks/*.json,
// ~/.copilot/hooks/*.json) lists, per event, flat entries {type, bash |
// command | exec+args, timeoutSec, matcher} or Claude Code's matcher
// groups; events in camelCase or PascalCase.
var copilotShape = sync.OnceValue(func() claudeShaped {
	s := agentShape("copilot", ".github", 2)
	s.flat = true
	s.handler = copilotHandler
	s.matcher = copilotMatcher
	return s
})

func parseCopilotHooks(data []byte, path string, limit int) ([]*Entry, []Warning, error) {
	return parseClaudeShaped(data, path, copilotShape(), limit)
}

// copilotHandler turns a Copilot entry into the Claude Code handler that
// runs the same: bash (what Copilot runs on Linux and macOS) else command,
// as the shell command; exec + args as the exec form; timeoutSec as
// timeout; a powershell-only entry as a powershell command, which cannot
// run here. cwd and env have no Claude twin and are reported.
func copilotHandler(_ string, h map[string]any, warn func(string)) map[string]any {
	out := make(map[string]any, len(h))
	for k, v := range h {
		switch k {
		case "bash", "powershell", "exec", "timeoutSec", "cwd", "env":
		default:
			out[k] = v
		}
	}
	if t, _ := h["type"].(string); t == "" || t == TypeCommand {
		bash, _ := h["bash"].(string)
		exec, _ := h["exec"].(string)
		ps, _ := h["powershell"].(string)
		switch {
		case strings.TrimSpace(bash) != "":
			out["command"] = bash
		case h["command"] != nil:
		case strings.TrimSpace(exec) != "":
			out["command"] = exec
		case strings.TrimSpace(ps) != "":
			out["command"], out["shell"] = ps, "powershell"
		}
	}
	if v, ok := h["timeoutSec"]; ok {
		if _, both := h["timeout"]; !both {
			out["timeout"] = v
		}
	}
	for _, k := range []string{"cwd", "env"} {
		if _, ok := h[k]; ok {
			warn("." + k + " is not supported here and is ignored: the hook runs where Claude-dialect hooks run, with hermes-hooks' environment")
		}
	}
	return out
}

// copilotMatcher reads a Copilot matcher as Claude Code's. Copilot anchors
// its regex (^(?:…)$) and, on camelCase events, matches its own tool names
// (bash, view …); the Claude dialect matches Claude Code's (Bash, Read …).
// A list of names is translated name by name; any other regex is anchored,
// and on camelCase events compared with Claude Code's names.
func copilotMatcher(event, m string) string {
	if protocol.IsClaudeName(event) || strings.TrimSpace(m) == "*" {
		return m
	}
	if isNameList(m) {
		parts := strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' })
		for i, p := range parts {
			p = strings.TrimSpace(p)
			if c, ok := agents.CopilotClaudeTool(p); ok {
				p = c
			}
			parts[i] = p
		}
		return strings.Join(parts, "|")
	}
	return "^(?:" + m + ")$"
}

// parseCursorHooks reads a Cursor hooks.json: {"version": 1, "hooks":
// {EVENT: [{command, type, timeout, matcher, failClosed}]}}, events in
// Cursor's names. Its entries speak the Cursor dialect (their payload and
// reply are Cursor's, per the Cursor event they are declared under); a
// handler of another type than command (prompt …) cannot run here, and is
// kept marked Unsupported, as a Claude one is.
func parseCursorHooks(data []byte, path string, limit int) (entries []*Entry, warnings []Warning, err error) {
	defer func() {
		if r := recover(); r != nil {
			entries, warnings, err = nil, nil, &ConfigError{Path: path, Err: fmt.Errorf("cannot parse hooks file: %v", r)}
		}
	}()
	hooks, cfg, err := readHooksObject(data, path)
	if err != nil || hooks == nil {
		return nil, cfg.Warnings, err
	}
	cfg.limit.max = limit
	cursor, _ := agents.Lookup("cursor")
	projectDir := markedProjectDir(path, ".cursor", 1)
	for _, name := range sortedNames(hooks) {
		warn := func(p, msg string) { cfg.warn(path+": "+p, msg) }
		ev, known := cursor.Canonical(name)
		if !known {
			warn("hooks."+name, "'"+name+"' is not a Cursor event hermes-hooks serves; skipped")
			continue
		}
		list, ok := hooks[name].([]any)
		if !ok {
			warn("hooks."+name, "must be a list of hooks; skipped")
			continue
		}
		for i, item := range list {
			if !cfg.admit(path) {
				break
			}
			hpath := fmt.Sprintf("hooks.%s[%d]", name, i)
			h, ok := item.(map[string]any)
			if !ok {
				warn(hpath, "must be an object; skipped")
				continue
			}
			e := cfg.parseCursorHandler(ev, name, path+": "+hpath, i, h, path)
			if e == nil || agents.IsOwnCommand(e.Command, "") {
				continue // ours: `hermes-hooks install cursor` put it there
			}
			e.RunBy, e.ProjectDir = cursor.Name, projectDir
			if projectDir != "" {
				e.Scope = projectScope(projectDir, path)
			}
			cfg.Entries = append(cfg.Entries, e)
		}
	}
	return cfg.Entries, cfg.Warnings, nil
}

// parseCursorHandler reads one Cursor hook into a Cursor-dialect entry.
func (cfg *Config) parseCursorHandler(ev *protocol.Event, name, path string, index int, h map[string]any, source string) *Entry {
	typ, isStr := h["type"].(string)
	if _, present := h["type"]; present && !isStr {
		cfg.warn(path, ".type must be a string; skipped")
		return nil
	}
	// What the entry is is the file's business: a dialect or priority
	// key would make it something Cursor never runs.
	h = maps.Clone(h)
	delete(h, "dialect")
	delete(h, "priority")
	unsupported := ""
	switch typ {
	case "", TypeCommand:
	case "prompt":
		p, _ := h["prompt"].(string)
		unsupported = "a prompt handler: it needs a model"
		h["command"] = "prompt: " + protocol.Truncate(strings.Join(strings.Fields(p), " "), 60)
	default:
		cfg.warn(path, " has unknown type '"+typ+"'; skipped")
		return nil
	}
	e := cfg.parseEntry(ev, name, path, index, toNode(h), protocol.Cursor, source)
	if e == nil {
		return nil
	}
	if unsupported != "" {
		e.Type, e.Unsupported = typ, unsupported
		cfg.warnUnsupported(path, typ, unsupported)
	}
	return e
}

// readHooksObject reads a JSON hook file down to its "hooks" object (nil,
// with cfg's warnings, when there is none to read).
func readHooksObject(data []byte, path string) (map[string]any, *Config, error) {
	cfg := &Config{}
	v, err := protocol.DecodeJSON(data)
	if err != nil {
		return nil, cfg, &ConfigError{Path: path, Line: syntaxLine(data, err), Err: fmt.Errorf("not valid JSON: %w", err)}
	}
	root, ok := v.(map[string]any)
	if !ok {
		return nil, cfg, &ConfigError{Path: path, Err: errors.New("a hooks file must hold a JSON object")}
	}
	raw, present := root["hooks"]
	if !present || raw == nil {
		return nil, cfg, nil
	}
	hooks, ok := raw.(map[string]any)
	if !ok {
		cfg.warn(path+": hooks", "must be an object of event names; ignoring")
		return nil, cfg, nil
	}
	return hooks, cfg, nil
}

// syntaxLine is the line of a JSON syntax error (0 when unknown).
func syntaxLine(data []byte, err error) int {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return jsonLine(data, se.Offset)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		// A truncated file: the problem is where it ends.
		return jsonLine(data, int64(len(bytes.TrimRight(data, " \t\r\n"))))
	}
	return 0
}

// projectScope is the consent scope of a hook a project's file declares:
// approved per repository, so an approval given in one never approves
// another's.
func projectScope(projectDir, source string) consent.Scope {
	return consent.Scope{Project: projectDir, Source: source}
}

func sortedNames(m map[string]any) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
