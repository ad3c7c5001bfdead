package dispatcher

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
	"gopkg.in/yaml.v3"
)

// Hermes' timeout rules: default 60 s, at most 300 s.
const (
	DefaultTimeoutSeconds = 60
	MaxTimeoutSeconds     = 300
)

// Claude Code's timeout rules for Claude-dialect entries: 600 s by default
// (30 s on UserPromptSubmit and the model-switch events, 10 s on
// MessageDisplay), as Claude Code has them since v2.1.3. Claude Code sets
// no upper bound; ours is its default, 600 s, so that a typo (timeout:
// 60000) cannot park a dispatch — and a server slot — for most of a day.
const (
	DefaultClaudeTimeoutSeconds = 600
	MaxClaudeTimeoutSeconds     = 600
)

// claudeDefaultTimeout is Claude Code's default for the event.
func claudeDefaultTimeout(ev *protocol.Event) time.Duration {
	switch ev.ClaudeName() {
	case "UserPromptSubmit", "PreModelSwitch", "PostModelSwitch":
		return 30 * time.Second
	case "MessageDisplay":
		return 10 * time.Second
	}
	return DefaultClaudeTimeoutSeconds * time.Second
}

// Warning is a problem found in a config that did not stop it from loading:
// the offending entry was skipped or corrected.
type Warning struct {
	// Path locates the problem: "hooks.pre_tool_call[2].timeout", or a file.
	Path    string
	Message string
}

func (w Warning) String() string {
	if w.Path == "" {
		return w.Message
	}
	if strings.HasPrefix(w.Message, ".") || strings.HasPrefix(w.Message, " ") || strings.HasPrefix(w.Message, "[") {
		return w.Path + w.Message
	}
	return w.Path + ": " + w.Message
}

// Entry is one configured hook.
type Entry struct {
	// Event is the canonical event the entry fires on.
	Event *protocol.Event
	// DeclaredAs is the event key as written (an alias or Claude name keeps
	// its spelling); consent is keyed by it.
	DeclaredAs string
	// Index is the entry's position in its event's list (for messages).
	Index   int
	Command string
	// Matcher is the matcher as written, stripped; "" means none.
	Matcher string
	Timeout time.Duration
	// FailClosed turns failures into blocks.
	FailClosed bool
	Dialect    protocol.Dialect
	// Source is the file the entry came from.
	Source string
	// Priority orders entries (lower first; ties keep config order).
	Priority int
	// ProjectDir is CLAUDE_PROJECT_DIR for Claude-dialect entries ("" means
	// the host's cwd).
	ProjectDir string
	// WorkDir is where the hook runs and where its relative script path is
	// found ("" means the dispatcher's working directory; project-local
	// hooks run in their project root).
	WorkDir string
	// Claude Code handler features (Claude-dialect entries only).
	//
	// Type is "" or TypeCommand for a command, TypeHTTP for an http
	// handler (URL, Headers, AllowedEnvVars; Command holds the URL). Args
	// is the exec form: the program and its arguments, run without a
	// shell (Command is them quoted, the approval's key). Shell "bash" runs a shell-form command with bash instead of
	// /bin/sh. Async runs the hook in the background (AsyncRewake: its exit
	// 2 wakes the model); Once runs it once per session; If is a
	// permission rule that filters tool events. Unsupported says why the
	// handler cannot run here (prompt, agent and mcp_tool handlers).
	Type           string
	Args           []string
	Shell          string
	URL            string
	Headers        map[string]string
	AllowedEnvVars []string
	Async          bool
	AsyncRewake    bool
	Once           bool
	If             string
	Unsupported    string
	ifRule         *protocol.IfRule
	ifBroken       string
	// Duplicate is set on a listed entry that repeats an earlier one (same
	// event, dialect, matcher and command): it is shown, as Hermes shows
	// it, but registers — and runs — once.
	Duplicate bool
	// Scope is where the entry came from, for consent: the zero Scope for
	// the user's own config files, a project root and source file for a
	// repository's hooks (its .hermes/hooks.yaml, its .claude settings), so
	// an approval given in one repository never approves another's.
	Scope consent.Scope

	match matcher
	order int // position in the whole config, for stable sorting
}

// TimeoutSeconds is the timeout as Hermes prints it ("60", "1.5").
func (e *Entry) TimeoutSeconds() string {
	return strconv.FormatFloat(e.Timeout.Seconds(), 'f', -1, 64)
}

// Matches reports whether the entry's matcher accepts this firing's fields.
func (e *Entry) Matches(fields map[string]any, tools *protocol.ToolTable) bool {
	return e.match.matches(e, fields, tools)
}

// Config is a loaded configuration.
type Config struct {
	// Path is the YAML config file ("" when none was read).
	Path string
	// Entries are all hooks in config order: the YAML hooks: block (event
	// keys in file order, entries in list order), then each Claude settings
	// file in turn; a duplicate registers once (see Listed).
	Entries []*Entry
	// Listed are the entries as configured, duplicates included (marked
	// Duplicate), for list and doctor.
	Listed []*Entry
	// AutoAccept is hooks_auto_accept, read strictly (consent.AutoAccept).
	AutoAccept bool
	// Tools translates tool names (defaults plus tool_aliases:).
	Tools *protocol.ToolTable
	// ToolAliases is the tool_aliases: block as written.
	ToolAliases map[string]string
	// ClaudeSettings are the Claude settings files that were read.
	ClaudeSettings []string
	// ProjectHooks is the project-local hooks file that was merged, if any.
	ProjectHooks string
	// Warnings lists everything that was skipped or corrected.
	Warnings []Warning

	claudeSwitches []claudeSwitches
}

// LoadOptions adjusts Load.
type LoadOptions struct {
	// ClaudeSettings are further Claude settings files to read (the
	// --claude-settings flag); unlike the config's claude_settings: list, a
	// missing one is an error, since the user named it on purpose.
	ClaudeSettings []string
	// ProjectDir, when set, is where the project's own hooks are looked
	// for: the nearest .hermes/hooks.yaml from ProjectDir up to the
	// repository root (the first directory holding .git). Its hooks come
	// after the global ones and, like every hook, run only once approved.
	ProjectDir string
}

// ProjectHooksFile is the project-local hooks file, relative to a project
// directory.
const ProjectHooksFile = ".hermes/hooks.yaml"

// Bounds on what is read. A file a repository names (its hooks file, the
// settings files that lists) is read only when it is a regular file inside
// the project, up to MaxProjectFileBytes; the user's own config files up to
// MaxConfigBytes. Nothing is read from a FIFO or a device.
const (
	MaxProjectFileBytes = 1 << 20
	MaxConfigBytes      = 16 << 20
)

// ReadConfigFile reads one of the user's own config files (the config,
// a Claude settings file it names) with MaxConfigBytes and never from a
// FIFO or device. serve uses it too.
func ReadConfigFile(path string) ([]byte, error) {
	return fsutil.ReadRegular(path, "", MaxConfigBytes)
}

// FindProjectHooks returns the nearest .hermes/hooks.yaml from dir upward,
// stopping at the repository root (a directory holding .git) or, outside a
// repository, after dir itself. "" when there is none.
func FindProjectHooks(dir string) string {
	if dir == "" {
		return ""
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	inRepo := insideRepo(dir)
	for {
		p := filepath.Join(dir, ProjectHooksFile)
		if _, err := os.Lstat(p); err == nil {
			// Whatever it is, it is the project's hooks file: addProject
			// refuses (with a warning) one that is not a plain file of
			// the project, rather than silently looking further up.
			return p
		}
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil || !inRepo {
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// insideRepo reports whether dir is inside a git work tree (some ancestor,
// or dir itself, holds .git). Outside one, only dir itself is searched, so a
// stray hooks file in a parent directory is never picked up.
func insideRepo(dir string) bool {
	for {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

// ConfigError is a config that could not be read or parsed at all.
type ConfigError struct {
	Path string
	Line int // 0 when unknown
	Err  error
}

func (e *ConfigError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("config %s:%d: %v", e.Path, e.Line, e.Err)
	}
	return fmt.Sprintf("config %s: %v", e.Path, e.Err)
}

func (e *ConfigError) Unwrap() error { return e.Err }

// DefaultConfigPath is $HERMES_HOME/config.yaml (HERMES_HOME defaults to
// ~/.hermes).
func DefaultConfigPath() (string, error) {
	home, err := consent.DefaultHome()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, "config.yaml"), nil
}

// Load reads the YAML config at path and the Claude settings files it and
// opts name. A missing config file is an empty config, not an error.
func Load(path string, opts LoadOptions) (*Config, error) {
	data, err := ReadConfigFile(path)
	var cfg *Config
	switch {
	case errors.Is(err, fs.ErrNotExist):
		cfg = emptyConfig()
	case err != nil:
		return nil, &ConfigError{Path: path, Err: err}
	default:
		cfg, err = ParseConfig(data, path)
		if err != nil {
			return nil, err
		}
	}
	// ClaudeSettings holds the names as written until now; from here on it
	// lists the files actually read (addClaudeSettings appends them).
	base := filepath.Dir(path)
	named := cfg.ClaudeSettings
	cfg.ClaudeSettings = nil
	for _, p := range named {
		if err := cfg.addClaudeSettings(resolvePath(p, base), false); err != nil {
			return nil, err
		}
	}
	for _, p := range opts.ClaudeSettings {
		if err := cfg.addClaudeSettings(resolvePath(p, ""), true); err != nil {
			return nil, err
		}
	}
	if p := FindProjectHooks(opts.ProjectDir); p != "" && !sameFile(p, path) {
		// A repository must not be able to take the dispatcher down: a
		// project file that cannot be used skips that project's hooks with
		// a warning, and the global hooks (a fail-closed guard among them)
		// keep working.
		cfg.addProject(p)
	}
	cfg.applyClaudeSwitches()
	cfg.finish()
	return cfg, nil
}

// addProject merges a project's .hermes/hooks.yaml. A repository must not
// be able to approve its own hooks, so hooks_auto_accept there is ignored;
// its hooks run in the project root, are approved per project (Scope), and
// its claude_settings paths are relative to it and must stay inside it.
// Every problem is a warning that skips the file concerned, never an error.
func (cfg *Config) addProject(path string) {
	root := filepath.Dir(filepath.Dir(path))
	data, err := fsutil.ReadRegular(path, root, MaxProjectFileBytes)
	if err != nil {
		cfg.warn(path, "project hooks file skipped: "+err.Error())
		return
	}
	proj, err := ParseConfig(data, path)
	if err != nil {
		cfg.warn(path, "project hooks file skipped: "+err.Error())
		return
	}
	if proj.AutoAccept {
		proj.warn(path+": hooks_auto_accept", "is ignored in a project's hooks file: a repository cannot approve its own hooks")
	}
	if proj.ToolAliases != nil {
		proj.warn(path+": tool_aliases", "is ignored in a project's hooks file; set it in the global config")
	}
	for _, e := range proj.Entries {
		e.WorkDir = root
		e.Scope = consent.Scope{Project: root, Source: path}
		if e.Dialect == protocol.Claude && e.ProjectDir == "" {
			e.ProjectDir = root
		}
	}
	cfg.Entries = append(cfg.Entries, proj.Entries...)
	cfg.Warnings = append(cfg.Warnings, proj.Warnings...)
	for _, p := range proj.ClaudeSettings {
		sp := resolvePath(p, root)
		data, err := fsutil.ReadRegular(sp, root, MaxProjectFileBytes)
		if err != nil {
			cfg.warn(path+": claude_settings", sp+": skipped: "+err.Error())
			continue
		}
		entries, warnings, err := ParseClaudeSettings(data, sp)
		if err != nil {
			cfg.warn(path+": claude_settings", "skipped: "+err.Error())
			continue
		}
		for _, e := range entries {
			e.Scope = consent.Scope{Project: root, Source: sp}
			if e.ProjectDir == "" {
				e.ProjectDir = root
			}
		}
		cfg.Entries = append(cfg.Entries, entries...)
		cfg.Warnings = append(cfg.Warnings, warnings...)
		cfg.ClaudeSettings = append(cfg.ClaudeSettings, sp)
	}
	cfg.ProjectHooks = path
}

func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

func emptyConfig() *Config {
	return &Config{Tools: protocol.DefaultTools()}
}

func (cfg *Config) addClaudeSettings(path string, required bool) error {
	data, err := ReadConfigFile(path)
	if err != nil {
		if !required && errors.Is(err, fs.ErrNotExist) {
			cfg.warn("claude_settings", path+": no such file; skipped")
			return nil
		}
		return &ConfigError{Path: path, Err: err}
	}
	entries, warnings, err := ParseClaudeSettings(data, path)
	if err != nil {
		return err
	}
	cfg.claudeSwitches = append(cfg.claudeSwitches, readClaudeSwitches(data, path))
	cfg.Entries = append(cfg.Entries, entries...)
	cfg.Warnings = append(cfg.Warnings, warnings...)
	cfg.ClaudeSettings = append(cfg.ClaudeSettings, path)
	return nil
}

// finish numbers the entries and registers duplicates once: the same
// command with the same matcher, dialect and event (Hermes' idempotence
// key; for a repository's hooks, within that repository). Listed keeps them
// all, as configured.
func (cfg *Config) finish() {
	seen := make(map[string]bool, len(cfg.Entries))
	cfg.Listed = append([]*Entry(nil), cfg.Entries...)
	kept := make([]*Entry, 0, len(cfg.Entries))
	for _, e := range cfg.Listed {
		key := e.Event.Name + "\x00" + string(e.Dialect) + "\x00" + e.Matcher + "\x00" + e.Command + "\x00" + e.Scope.Project
		if seen[key] {
			e.Duplicate = true
			continue
		}
		seen[key] = true
		e.order = len(kept)
		kept = append(kept, e)
	}
	cfg.Entries = kept
}

func (cfg *Config) warn(path, msg string) {
	cfg.Warnings = append(cfg.Warnings, Warning{Path: path, Message: msg})
}

// resolvePath expands a leading ~ and makes p absolute against base (the
// config's directory) or the working directory.
func resolvePath(p, base string) string {
	p = expandTilde(p)
	if !filepath.IsAbs(p) && base != "" {
		p = filepath.Join(base, p)
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// ParseConfig parses a YAML config: the hooks: block, hooks_auto_accept,
// tool_aliases and claude_settings (returned unresolved in ClaudeSettings).
// Every other top-level key is the agent's business and is ignored. It never
// panics; a document that is not YAML is a *ConfigError with its line.
func ParseConfig(data []byte, path string) (cfg *Config, err error) {
	defer func() {
		// yaml.v3 has panicked on hostile input in the past; a config must
		// never take the dispatcher down.
		if r := recover(); r != nil {
			cfg, err = nil, &ConfigError{Path: path, Err: fmt.Errorf("cannot parse YAML: %v", r)}
		}
	}()
	cfg = emptyConfig()
	cfg.Path = path
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(path, err)
	}
	if len(doc.Content) == 0 {
		return cfg, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
			return cfg, nil
		}
		return nil, &ConfigError{Path: path, Line: root.Line, Err: fmt.Errorf("the top level must be a mapping, got %s", pyType(root))}
	}
	var hooks *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, val := root.Content[i].Value, root.Content[i+1]
		switch key {
		case "hooks":
			hooks = val
		case "hooks_auto_accept":
			cfg.AutoAccept = consent.AutoAccept(yamlValue(val))
		case "tool_aliases":
			cfg.parseToolAliases(val)
		case "claude_settings":
			cfg.parseClaudeSettingsList(val)
		}
	}
	cfg.Tools = protocol.NewToolTable(cfg.ToolAliases)
	if hooks != nil {
		cfg.parseHooks(hooks, path)
	}
	return cfg, nil
}

var yamlLine = func() func(string) (int, string) {
	return func(msg string) (int, string) {
		// yaml.v3 errors read "yaml: line N: reason".
		rest, ok := strings.CutPrefix(msg, "yaml: line ")
		if !ok {
			return 0, strings.TrimPrefix(msg, "yaml: ")
		}
		num, reason, ok := strings.Cut(rest, ": ")
		n, err := strconv.Atoi(num)
		if !ok || err != nil {
			return 0, strings.TrimPrefix(msg, "yaml: ")
		}
		return n, reason
	}
}()

func yamlError(path string, err error) error {
	line, reason := yamlLine(err.Error())
	return &ConfigError{Path: path, Line: line, Err: errors.New(reason)}
}

func (cfg *Config) parseToolAliases(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return
	}
	if n.Kind != yaml.MappingNode {
		cfg.warn("tool_aliases", "must be a mapping of Hermes tool names to Claude tool names; got "+pyType(n)+"; ignoring")
		return
	}
	cfg.ToolAliases = map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if v.Kind != yaml.ScalarNode || (v.Tag != "!!str" && v.Tag != "!!null") {
			cfg.warn("tool_aliases."+k.Value, "must be a string (the Claude tool name); ignoring")
			continue
		}
		name := v.Value
		if v.Tag == "!!null" {
			name = ""
		}
		cfg.ToolAliases[k.Value] = strings.TrimSpace(name)
	}
}

func (cfg *Config) parseClaudeSettingsList(n *yaml.Node) {
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!null":
	case n.Kind == yaml.ScalarNode && n.Tag == "!!str":
		cfg.ClaudeSettings = append(cfg.ClaudeSettings, n.Value)
	case n.Kind == yaml.SequenceNode:
		for i, item := range n.Content {
			if item.Kind != yaml.ScalarNode || item.Tag != "!!str" || strings.TrimSpace(item.Value) == "" {
				cfg.warn(fmt.Sprintf("claude_settings[%d]", i), "must be a file path; ignoring")
				continue
			}
			cfg.ClaudeSettings = append(cfg.ClaudeSettings, strings.TrimSpace(item.Value))
		}
	default:
		cfg.warn("claude_settings", "must be a list of Claude settings file paths; got "+pyType(n)+"; ignoring")
	}
}

// reservedHookKeys sit under hooks: but are not events.
var reservedHookKeys = map[string]bool{"outbound": true, "output_spill": true}

func (cfg *Config) parseHooks(n *yaml.Node, source string) {
	if n.Kind != yaml.MappingNode {
		if !(n.Kind == yaml.ScalarNode && n.Tag == "!!null") {
			cfg.warn("hooks", "must be a mapping of event names to lists of hook definitions; got "+pyType(n)+"; no hooks loaded")
		}
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		name, val := n.Content[i].Value, n.Content[i+1]
		if reservedHookKeys[name] {
			continue
		}
		ev, known := protocol.Lookup(name)
		switch {
		case known && ev.ShellUnsupported:
			cfg.warn("", "hook event '"+name+"' is Python-plugin-only: shell hooks cannot return its directive, so entries under hooks."+name+" are ignored")
			continue
		case !known:
			cfg.warn("", protocol.UnknownEventMessage(name))
			continue
		case val.Kind == yaml.ScalarNode && val.Tag == "!!null":
			continue
		case val.Kind != yaml.SequenceNode:
			cfg.warn("", "hooks."+name+" must be a list of hook definitions; got "+pyType(val))
			continue
		}
		dialect := protocol.Hermes
		if protocol.IsClaudeName(name) {
			dialect = protocol.Claude
		}
		for j, item := range val.Content {
			path := fmt.Sprintf("hooks.%s[%d]", name, j)
			if item.Kind == yaml.MappingNode && mappingGet(item, "command") == nil && mappingGet(item, "hooks") != nil {
				// A Claude matcher group pasted into YAML:
				// {matcher, hooks: [{type, command, timeout}]}.
				cfg.parseYAMLClaudeGroup(ev, name, path, j, item, source)
				continue
			}
			if e := cfg.parseEntry(ev, name, path, j, item, dialect, source); e != nil {
				cfg.Entries = append(cfg.Entries, e)
			}
		}
	}
}

func (cfg *Config) parseYAMLClaudeGroup(ev *protocol.Event, name, path string, index int, group *yaml.Node, source string) {
	matcher := ""
	if m := mappingGet(group, "matcher"); m != nil && m.Kind == yaml.ScalarNode && m.Tag == "!!str" {
		matcher = m.Value
	} else if m != nil && !(m.Kind == yaml.ScalarNode && m.Tag == "!!null") {
		cfg.warn(path, ".matcher must be a string; this group is ignored, as in Claude Code")
		return
	}
	handlers := mappingGet(group, "hooks")
	if handlers.Kind != yaml.SequenceNode {
		cfg.warn(path, ".hooks must be a list of handlers; got "+pyType(handlers))
		return
	}
	for k, h := range handlers.Content {
		hp := fmt.Sprintf("%s.hooks[%d]", path, k)
		if h.Kind != yaml.MappingNode {
			cfg.warn(hp, " must be a mapping with a 'command' key; got "+pyType(h))
			continue
		}
		if e := cfg.parseClaudeHandler(ev, name, hp, index, h, matcher, source); e != nil {
			cfg.Entries = append(cfg.Entries, e)
		}
	}
}

// parseEntry validates one hook definition exactly as Hermes does (see the
// Hermes reference §1.3), plus our keys: dialect, priority, onFailure.
func (cfg *Config) parseEntry(ev *protocol.Event, declared, path string, index int, n *yaml.Node, dialect protocol.Dialect, source string) *Entry {
	if n.Kind != yaml.MappingNode {
		cfg.warn(path, " must be a mapping with a 'command' key; got "+pyType(n))
		return nil
	}
	cmdNode := mappingGet(n, "command")
	if cmdNode == nil || cmdNode.Kind != yaml.ScalarNode || cmdNode.Tag != "!!str" || strings.TrimSpace(cmdNode.Value) == "" {
		cfg.warn(path, " is missing a non-empty 'command' field")
		return nil
	}
	e := &Entry{
		Event:      ev,
		DeclaredAs: declared,
		Index:      index,
		Command:    strings.TrimSpace(cmdNode.Value),
		Timeout:    DefaultTimeoutSeconds * time.Second,
		Dialect:    dialect,
		Source:     source,
	}
	if d := mappingGet(n, "dialect"); d != nil {
		if v, ok := protocol.ParseDialect(d.Value); ok && d.Kind == yaml.ScalarNode {
			e.Dialect = v
		} else {
			cfg.warn(path, ".dialect must be 'hermes' or 'claude'; got "+pyRepr(d)+"; using "+string(e.Dialect))
		}
	}
	if e.Dialect == protocol.Claude {
		e.Timeout = claudeDefaultTimeout(ev)
	}
	if m := mappingGet(n, "matcher"); m != nil {
		cfg.parseMatcher(e, path, m)
	}
	if t := mappingGet(n, "timeout"); t != nil {
		e.Timeout = cfg.parseTimeout(path, t, e.Dialect, e.Timeout)
	}
	cfg.parseFailClosed(e, path, n)
	if p := mappingGet(n, "priority"); p != nil {
		if v, ok := pyInt(p); ok && p.Tag != "!!bool" && !isYAML11Bool(p) {
			e.Priority = v
		} else {
			cfg.warn(path, ".priority must be an integer (got "+pyRepr(p)+"); using 0")
		}
	}
	e.match = compileMatcher(e, func(msg string) { cfg.warn(path, ".matcher: "+msg) })
	return e
}

func (cfg *Config) parseMatcher(e *Entry, path string, m *yaml.Node) {
	if m.Kind == yaml.ScalarNode && m.Tag == "!!null" {
		return
	}
	if m.Kind != yaml.ScalarNode || m.Tag != "!!str" {
		cfg.warn(path, ".matcher must be a string regex; ignoring")
		return
	}
	matcher := strings.TrimSpace(m.Value)
	if matcher == "" {
		return
	}
	if e.Dialect == protocol.Hermes && !e.Event.HermesMatcher {
		cfg.warn(path, ".matcher is only honored for pre_tool_call / post_tool_call; it is ignored on "+e.DeclaredAs+" and the hook fires on every "+e.DeclaredAs)
		return
	}
	if e.Dialect == protocol.Claude && e.Event.ClaudeMatchOn == "" {
		cfg.warn(path, ".matcher is ignored on "+e.Event.ClaudeName()+" (Claude Code runs every hook of that event)")
		return
	}
	e.Matcher = matcher
}

// parseTimeout applies Python int() to the value, then Hermes' bounds: below
// 1 → the default (not 1), above 300 → 300. Claude-dialect entries may use
// fractional seconds, as Claude Code allows.
func (cfg *Config) parseTimeout(path string, t *yaml.Node, dialect protocol.Dialect, def time.Duration) time.Duration {
	if dialect == protocol.Claude && t.Kind == yaml.ScalarNode && (t.Tag == "!!float" || t.Tag == "!!int") {
		f, err := strconv.ParseFloat(strings.ReplaceAll(t.Value, "_", ""), 64)
		if err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
			switch {
			case f < 1:
				cfg.warn(path, fmt.Sprintf(".timeout=%ss is below 1s; using default %ds", t.Value, int(def.Seconds())))
				return def
			case f > MaxClaudeTimeoutSeconds:
				cfg.warn(path, fmt.Sprintf(".timeout=%ss exceeds max %ds; clamping", t.Value, MaxClaudeTimeoutSeconds))
				return MaxClaudeTimeoutSeconds * time.Second
			}
			return time.Duration(f * float64(time.Second))
		}
	}
	limit := MaxTimeoutSeconds
	if dialect == protocol.Claude {
		limit = MaxClaudeTimeoutSeconds
	}
	v, ok := pyInt(t)
	switch {
	case !ok:
		cfg.warn(path, fmt.Sprintf(".timeout must be an int (got %s); using default %ds", pyRepr(t), int(def.Seconds())))
		return def
	case v < 1:
		cfg.warn(path, fmt.Sprintf(".timeout=%ds is below 1s; using default %ds", v, int(def.Seconds())))
		return def
	case v > limit:
		cfg.warn(path, fmt.Sprintf(".timeout=%ds exceeds max %ds; clamping", v, limit))
		return time.Duration(limit) * time.Second
	}
	return time.Duration(v) * time.Second
}

// parseFailClosed reads fail_closed (which wins when present, even false),
// else failClosed, else Claude's onFailure: block. Hermes hooks may fail
// closed only on pre_tool_call; Claude hooks on any event whose hooks can
// block.
func (cfg *Config) parseFailClosed(e *Entry, path string, n *yaml.Node) {
	key := "fail_closed"
	v := mappingGet(n, key)
	if v == nil {
		key = "failClosed"
		v = mappingGet(n, key)
	}
	var on bool
	switch {
	case v != nil:
		b, ok := yamlBool(v)
		if !ok {
			cfg.warn(path, "."+key+" must be a boolean (got "+pyRepr(v)+"); treating as false")
			return
		}
		on = b
	default:
		f := mappingGet(n, "onFailure")
		if f == nil {
			return
		}
		switch strings.ToLower(strings.TrimSpace(f.Value)) {
		case "block":
			on = true
		case "allow", "ignore", "continue", "":
		default:
			cfg.warn(path, ".onFailure must be 'block' or 'allow' (got "+pyRepr(f)+"); ignoring")
		}
	}
	if !on {
		return
	}
	allowed := e.Event.Gating()
	if e.Dialect == protocol.Claude {
		allowed = e.Event.Can(protocol.CapBlock | protocol.CapContinue)
	}
	if !allowed {
		cfg.warn(path, "."+key+" is only honored for pre_tool_call (hooks that can block); ignored on "+e.DeclaredAs)
		return
	}
	e.FailClosed = true
}

// ---- YAML helpers ------------------------------------------------------

func mappingGet(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func withMapping(n *yaml.Node, key, value string) *yaml.Node {
	c := *n
	c.Content = append(append([]*yaml.Node{}, n.Content...),
		&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key},
		&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value})
	return &c
}

// yamlValue decodes a node into a plain Go value, applying YAML 1.1's
// booleans to plain scalars (Hermes reads its config with PyYAML, where an
// unquoted yes/on/off is a boolean).
func yamlValue(n *yaml.Node) any {
	if b, ok := yamlBool(n); ok {
		return b
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return n.Value
	}
	return v
}

func isYAML11Bool(n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" || n.Style != 0 {
		return false
	}
	_, ok := yaml11Bools[n.Value]
	return ok
}

var yaml11Bools = map[string]bool{
	"yes": true, "Yes": true, "YES": true, "no": false, "No": false, "NO": false,
	"true": true, "True": true, "TRUE": true, "false": false, "False": false, "FALSE": false,
	"on": true, "On": true, "ON": true, "off": false, "Off": false, "OFF": false,
}

// yamlBool reads a boolean node (YAML 1.2 bools, and YAML 1.1's plain
// yes/no/on/off as PyYAML reads them). A quoted string is never a boolean.
func yamlBool(n *yaml.Node) (bool, bool) {
	if n.Kind != yaml.ScalarNode {
		return false, false
	}
	if n.Tag == "!!bool" {
		b, ok := yaml11Bools[n.Value]
		return b, ok
	}
	if isYAML11Bool(n) {
		return yaml11Bools[n.Value], true
	}
	return false, false
}

// pyInt is Python's int() of the value PyYAML would have produced.
func pyInt(n *yaml.Node) (int, bool) {
	if n.Kind != yaml.ScalarNode {
		return 0, false
	}
	if b, ok := yamlBool(n); ok {
		if b {
			return 1, true
		}
		return 0, true
	}
	switch n.Tag {
	case "!!int":
		v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
		if err != nil {
			var ne *strconv.NumError
			if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
				if strings.HasPrefix(n.Value, "-") {
					return math.MinInt32, true
				}
				return math.MaxInt32, true
			}
			return 0, false
		}
		return clampInt(v), true
	case "!!float":
		f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, false
		}
		return clampInt(int64(math.Max(math.Min(math.Trunc(f), math.MaxInt32), math.MinInt32))), true
	case "!!str":
		return pyIntString(n.Value)
	}
	return 0, false
}

func clampInt(v int64) int {
	if v > math.MaxInt32 {
		return math.MaxInt32
	}
	if v < math.MinInt32 {
		return math.MinInt32
	}
	return int(v)
}

// pyIntString is int(s) for a str: surrounding whitespace allowed, an
// optional sign, decimal digits with single underscores between them.
func pyIntString(s string) (int, bool) {
	s = strings.TrimSpace(s)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return 0, false
	}
	var v int64
	for _, c := range s {
		if c == '_' {
			continue
		}
		if c < '0' || c > '9' {
			return 0, false
		}
		if v < math.MaxInt32 {
			v = v*10 + int64(c-'0')
		}
	}
	if neg {
		v = -v
	}
	return clampInt(v), true
}

// pyType names the Python type PyYAML would give the node, for messages.
func pyType(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "dict"
	case yaml.AliasNode:
		if n.Alias != nil {
			return pyType(n.Alias)
		}
	}
	if isYAML11Bool(n) {
		return "bool"
	}
	switch n.Tag {
	case "!!int":
		return "int"
	case "!!float":
		return "float"
	case "!!bool":
		return "bool"
	case "!!null":
		return "NoneType"
	}
	return "str"
}

// pyRepr renders the node's value roughly as Python's repr would.
func pyRepr(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "[…]"
	case yaml.MappingNode:
		return "{…}"
	}
	if b, ok := yamlBool(n); ok {
		if b {
			return "True"
		}
		return "False"
	}
	switch n.Tag {
	case "!!null":
		return "None"
	case "!!int", "!!float":
		return n.Value
	}
	return "'" + strings.ReplaceAll(n.Value, "'", `\'`) + "'"
}

// expandTilde expands a leading "~" or "~/…" with the user's home.
func expandTilde(p string) string {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return p
	}
	return home + p[1:]
}

// jsonLine converts a byte offset into a 1-based line number.
func jsonLine(data []byte, offset int64) int {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	return bytes.Count(data[:offset], []byte("\n")) + 1
}
