package hookconfig

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
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Agents' own hook files as hook sources: Claude Code settings, Codex
// hooks.json, Copilot hook files and Cursor hooks.json, named by the
// config (claude_settings:, codex_hooks:, copilot_hooks:, cursor_hooks:)
// or the command line. Their hooks run under any agent and host; the agent
// that declared them runs them itself, so `hermes-hooks hook AGENT` skips
// them (Entry.RunBy).

// AgentFiles are agents' hook files by agent name (see agents.All).
type AgentFiles map[string][]string

// agentFileKind is one kind of agent hook file: the agent whose it is (its
// Source says how it is named and read), and the config key naming such
// files, which is also the path of warnings about them.
type agentFileKind struct {
	agent *agents.Agent
	key   string
}

// parse reads one such file, at most limit hook definitions of it (0: no
// limit; see MaxProjectEntries): its hooks, and its lines of ours apart.
func (k agentFileKind) parse(data []byte, path string, limit int) (entries, own []*Entry, warnings []Warning, err error) {
	return parseAgentFileOwn(k.agent, data, path, limit)
}

// ParseAgentFile reads one hook file of the agent called agent (its bytes,
// data; its path, for messages and scopes), as Load reads the files a
// config names: the entries (which that agent runs itself, Entry.RunBy)
// and the warnings. An unknown agent is an error.
func ParseAgentFile(agent string, data []byte, path string) ([]*Entry, []Warning, error) {
	a, ok := agents.Lookup(agent)
	if !ok {
		return nil, nil, fmt.Errorf("no agent %q (known: %s)", agent, strings.Join(agents.Names(), ", "))
	}
	return parseAgentFile(a, data, path, 0)
}

// parseAgentFile reads a hook file of agent a: in Claude Code's settings
// shape, or as an event's flat list of hooks (Source.Flat: Cursor's). Its
// lines of ours are not among the entries (parseAgentFileOwn).
func parseAgentFile(a *agents.Agent, data []byte, path string, limit int) ([]*Entry, []Warning, error) {
	entries, _, warnings, err := parseAgentFileOwn(a, data, path, limit)
	return entries, warnings, err
}

// parseAgentFileOwn is parseAgentFile with the file's handlers in the form
// install writes (agents.Agent.IsOwnLine) apart, in own: never hooks of
// the config (hermes-hooks answering the agent), kept so that list and
// validate can say what program each runs (Config.OwnLines). The parsers
// mark them (Entry.ownLine); they leave the file's entries here only.
func parseAgentFileOwn(a *agents.Agent, data []byte, path string, limit int) (entries, own []*Entry, warnings []Warning, err error) {
	switch {
	case a.Source.Flat:
		entries, warnings, err = parseFlatHooks(a, data, path, limit)
	case a.Source.Dir:
		entries, warnings, err = parseScriptFile(a, data, path, limit)
	default:
		entries, warnings, err = parseClaudeShaped(data, path, a, limit)
	}
	kept := entries[:0:0]
	for _, e := range entries {
		if e.ownLine {
			own = append(own, e)
		} else {
			kept = append(kept, e)
		}
	}
	return kept, own, warnings, err
}

// agentFileKinds are every kind, in the order their entries load (the
// agents' order).
var agentFileKinds = sync.OnceValue(func() []agentFileKind {
	var out []agentFileKind
	for _, a := range agents.All() {
		if a.Source.ConfigKey != "" {
			out = append(out, agentFileKind{agent: a, key: a.Source.ConfigKey})
		}
	}
	return out
})

// AgentHookFiles lists the agents' hook files of the config, in the
// agents' order — as written after ParseConfig, the files read after Load.
func (cfg *Config) AgentHookFiles() []string {
	var out []string
	for _, k := range agentFileKinds() {
		out = append(out, cfg.AgentFiles[k.agent.Name]...)
	}
	return out
}

// addAgentFile reads one agent hook file. A file the user named on the
// command line (with flag, "" for one the config names) must exist; one the
// config names is skipped with a warning when missing, as a config may list
// files of agents not installed on this machine.
func (cfg *Config) addAgentFile(k agentFileKind, path, flag string) error {
	files, isDir := cfg.agentSourceFiles(k, path)
	if !isDir {
		files = []string{path}
	}
	for _, f := range files {
		if read, err := cfg.readAgentFile(k, f, flag, isDir); err != nil || !read {
			return err
		}
	}
	cfg.addFile(k.agent.Name, path)
	return nil
}

// agentSourceFiles is what a folder named as a source of an agent whose
// hooks are a folder of per-event files (agents.Source.Dir: Cline's) holds:
// the files the agent runs (dirFiles), and ok (the agent runs no other
// file, so those named after an event are skipped with a warning); ok is
// false for any other path, read as one file.
func (cfg *Config) agentSourceFiles(k agentFileKind, path string) ([]string, bool) {
	if !k.agent.Source.Dir {
		return nil, false
	}
	return cfg.dirFiles(k, path)
}

// readAgentFile reads one agent hook file's entries (and switches) into
// the config; read is false for a missing file that is not required (named
// by no flag, nor found in a folder). The error names the file once, with
// the reason in words (not Go's "open PATH: …"), and the flag that named it.
func (cfg *Config) readAgentFile(k agentFileKind, path, flag string, inDir bool) (read bool, err error) {
	data, err := ReadConfigFile(path)
	if err == nil {
		cfg.warnWritable(path) // its hooks may be approved by hooks_auto_accept
	}
	if err != nil {
		if flag == "" && !inDir && errors.Is(err, fs.ErrNotExist) {
			cfg.warn(k.key, path+": no such file; skipped")
			return false, nil
		}
		ce := &ConfigError{Path: path, Err: err} // which names the file once
		if flag != "" {
			// Worded here: ConfigError drops the path only from an error
			// that is no more than Go's.
			ce.Err = fsutil.WithoutPath(path, err)
			if errors.Is(err, fs.ErrNotExist) {
				ce.Err = errors.New("no such file")
			}
			ce.Err = fmt.Errorf("%w (named by --%s)", ce.Err, flag)
			ce.Hint = "fix the path given to --" + flag
		}
		return false, ce
	}
	entries, own, warnings, err := k.parse(data, path, 0)
	if err != nil {
		return false, err
	}
	cfg.OwnLines = append(cfg.OwnLines, own...)
	if k.agent.Source.Switches {
		sw := readClaudeSwitches(k.agent, data, path)
		sw.project = agentProjectDir(k.agent, path)
		cfg.claudeSwitches = append(cfg.claudeSwitches, sw)
	}
	cfg.Entries = append(cfg.Entries, entries...)
	cfg.Warnings = append(cfg.Warnings, warnings...)
	return true, nil
}

// addFile lists path among the agent's files.
func (cfg *Config) addFile(agent, path string) {
	if cfg.AgentFiles == nil {
		cfg.AgentFiles = AgentFiles{}
	}
	cfg.AgentFiles[agent] = append(cfg.AgentFiles[agent], path)
}

// agentProjectDir is the project root of agent a's hook file at path ("":
// the user's own; see agents.Source.ProjectMarker).
func agentProjectDir(a *agents.Agent, path string) string {
	return markedProjectDir(path, a.Source.ProjectMarker, a.Source.ProjectLevels)
}

// parseFlatHooks reads an agent's flat hook file (Source.Flat; Cursor's
// hooks.json): {"version": 1, "hooks": {EVENT: [{command, type, timeout,
// matcher, failClosed}]}}, events in the agent's names. Its entries carry
// the agent's Codec (their payload and reply are the agent's, per the
// agent's event they are declared under); a handler of another type than
// command (prompt …) cannot run here, and is kept marked Unsupported, as a
// Claude one is.
func parseFlatHooks(a *agents.Agent, data []byte, path string, limit int) (entries []*Entry, warnings []Warning, err error) {
	defer func() {
		if r := recover(); r != nil {
			entries, warnings, err = nil, nil, &ConfigError{Path: path, Err: recovered("hooks file", r)}
		}
	}()
	hooks, cfg, err := readHooksObject(a, data, path)
	if err != nil || hooks == nil {
		return nil, cfg.Warnings, err
	}
	cfg.limit.max = limit
	projectDir := agentProjectDir(a, path)
	for _, name := range sortedNames(hooks) {
		warn := func(p, msg string) { cfg.warn(path+": "+p, msg) }
		ev, known := a.SourceEvent(name)
		if !known {
			warn("hooks."+name, cfg.unknownEvent(name, a.UnknownEventWarning))
			cfg.noEventGuard(hooks[name], 0, name, a)
			continue
		}
		// Every hook of the file is read in its codec's dialect.
		honored := failClosedHonored(ev, name, a.Source.Codec.Dialect(), a.Source.Codec)
		cfg.textGuard(hooks[name], 0, "hooks."+name, honored)
		list, ok := hooks[name].([]any)
		lone := -1
		if !ok {
			lone = len(cfg.Warnings)
			warn("hooks."+name, "must be a list of hooks; skipped")
			if _, isObject := hooks[name].(map[string]any); !isObject {
				continue
			}
			// One hook, not a list of them: skipped, but a guard stands
			// (loneGuards).
			list = []any{hooks[name]}
		}
		for i, item := range list {
			hpath := fmt.Sprintf("hooks.%s[%d]", name, i)
			if !cfg.admit(path) {
				cfg.pastCapGuard(0, hpath, capped{list[i:], everyDialect(honored)})
				break
			}
			h, ok := item.(map[string]any)
			if !ok {
				warn(hpath, "must be an object; skipped")
			}
			// A list, or a matcher group where a flat hook belongs: the
			// reader skips it (above, or as missing a command).
			cfg.listGuard(item, 0, hpath, everyDialect(honored))
			if !ok {
				continue
			}
			var e *Entry
			if lone >= 0 {
				at := path + ": hooks." + name
				e = cfg.unreadableGuard(skipped{ev: ev, declared: name, path: at, index: i, raw: h,
					dialect: a.Source.Codec.Dialect(), codec: a.Source.Codec, source: path}, lone)
			} else {
				e = cfg.parseFlatHandler(ev, name, path+": "+hpath, i, h, a.Source.Codec, path)
			}
			if e == nil {
				continue
			}
			// Ours (`hermes-hooks install AGENT` put it there): set apart
			// by parseAgentFileOwn.
			e.ownLine = a.IsOwnLine(e.Text())
			typ, isStr := h["type"].(string)
			e.FileOf, e.RunBy, e.ProjectDir = a.Name, runByOf(e, a.RunsItself(path), !isStr || flatTypes[typ]), projectDir
			if projectDir != "" {
				e.Scope = projectScope(projectDir, path)
			}
			cfg.Entries = append(cfg.Entries, e)
		}
	}
	if cfg.loadErr != nil {
		return nil, nil, cfg.loadErr
	}
	return cfg.Entries, cfg.Warnings, nil
}

// parseFlatHandler reads one hook of a flat hook file into an entry
// carrying the agent's codec.
//
// One it skips that asks to fail closed is an unreadable guard
// (unreadableGuard).
func (cfg *Config) parseFlatHandler(ev *protocol.Event, name, path string, index int, h map[string]any, codec protocol.Codec, source string) *Entry {
	// What the entry is is the file's business: a dialect or priority
	// key would make it something the agent never runs.
	h = maps.Clone(h)
	delete(h, "dialect")
	delete(h, "priority")
	return cfg.readOrGuard(skipped{ev: ev, declared: name, path: path, index: index, raw: h,
		dialect: codec.Dialect(), codec: codec, source: source},
		func() *Entry { return cfg.readFlatHandler(ev, name, path, index, h, codec, source) })
}

// flatTypes are the handler types of a flat hook file hermes-hooks knows.
var flatTypes = map[string]bool{"": true, TypeCommand: true, "prompt": true}

// readFlatHandler is parseFlatHandler without the guard: nil for a hook
// it skips.
func (cfg *Config) readFlatHandler(ev *protocol.Event, name, path string, index int, h map[string]any, codec protocol.Codec, source string) *Entry {
	typ, isStr := h["type"].(string)
	if _, present := h["type"]; present && !isStr {
		cfg.warn(path, ".type must be a string; skipped")
		return nil
	}
	var unsupported *UnsupportedSpec
	switch typ {
	case "", TypeCommand:
	case "prompt":
		p, _ := h["prompt"].(string)
		unsupported = &UnsupportedSpec{Type: typ, Why: "a prompt handler: it needs a model",
			Text: strings.TrimSpace("prompt: " + textutil.Truncate(strings.Join(strings.Fields(p), " "), 60))}
		h = maps.Clone(h)               // the guard's reading (raw) keeps the file's
		h["command"] = unsupported.Text // parseEntry reads a command
	default:
		cfg.warn(path, " has unknown type '"+typ+"'; skipped")
		return nil
	}
	e := cfg.parseEntry(ev, name, path, index, toNode(h), codec.Dialect(), codec, source)
	if e == nil {
		return nil
	}
	if unsupported != nil {
		e.Spec, e.Command = unsupported, ""
		cfg.warnUnsupported(path, typ, unsupported.Why)
	}
	return e
}

// readHooksObject reads a JSON hook file of agent a down to its "hooks"
// object (nil, with cfg's warnings, when there is none to read).
func readHooksObject(a *agents.Agent, data []byte, path string) (map[string]any, *Config, error) {
	cfg := &Config{Path: path}
	data, err := a.ReadPastBOM(data) // as the agent reads it
	if err != nil {
		return nil, cfg, bomError(path, err)
	}
	v, err := pyjson.Decode(data)
	if err != nil {
		return nil, cfg, jsonSyntaxError(path, data, err)
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
		cfg.notMappingGuard(raw, 0)
		return nil, cfg, cfg.loadErr
	}
	return hooks, cfg, nil
}

// jsonSyntaxError is the error of a hook file that is not JSON, at the
// line and column of the problem (0 when unknown).
func jsonSyntaxError(path string, data []byte, err error) *ConfigError {
	ce := &ConfigError{Path: path, Err: fmt.Errorf("not valid JSON: %w", err)}
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		// Offset counts the offending byte: it is the one before.
		ce.Line, ce.Column = jsonPos(data, se.Offset-1)
	case errors.Is(err, io.ErrUnexpectedEOF):
		// A truncated file: the problem is where it ends.
		ce.Line, ce.Column = jsonPos(data, int64(len(bytes.TrimRight(data, " \t\r\n"))))
	}
	return ce
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
