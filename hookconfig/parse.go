package hookconfig

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Parsing a config: the hooks: block, entries, matchers, timeouts.

// ParseConfig parses a YAML config: the hooks: block, hooks_auto_accept,
// tool_aliases, journal, export and the lists of agents' hook files —
// claude_settings, codex_hooks, copilot_hooks, cursor_hooks — (unresolved).
// Every other top-level key is the agent's business and is ignored. It never
// panics; a document that is not YAML is a *ConfigError with its line.
func ParseConfig(data []byte, path string) (*Config, error) {
	cfg, err := parseConfig(data, path, 0)
	if err == nil {
		cfg.finish()
	}
	return cfg, err
}

// parseYAML parses one YAML document into its root node (nil for an empty
// document), its plain scalars typed as PyYAML types them (YAML 1.1:
// pyyaml.Resolve), as Hermes reads the same file.
//
// A second document is an error: PyYAML's safe_load refuses such a file
// ("expected a single document in the stream"), so Hermes runs none of
// its hooks, and yaml.Unmarshal's reading of the first alone would run
// what Hermes does not and drop the rest without a word.
func parseYAML(data []byte) (*yaml.Node, error) {
	var doc, next yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err == io.EOF {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if err := dec.Decode(&next); err != io.EOF {
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("yaml: line %d: a second YAML document starts here: the file must hold one (PyYAML, which Hermes reads it with, loads no part of it)", next.Line)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	pyyaml.Resolve(doc.Content[0])
	return doc.Content[0], nil
}

// parseConfig is ParseConfig reading at most limit hook definitions (0: no
// limit; see MaxProjectEntries). A limited file is a repository's, which
// is hermes-hooks' alone: every top-level key it does not read is
// reported, not only near misses of its own (strict).
func parseConfig(data []byte, path string, limit int) (cfg *Config, err error) {
	return parseConfigAs(data, path, limit, false)
}

// parseConfigAs is parseConfig; managed reads the managed layer's own keys
// (allow_managed_hooks_only, trusted_bundle_keys: managed.go), which any
// other file only warns about.
func parseConfigAs(data []byte, path string, limit int, managed bool) (cfg *Config, err error) {
	return parseConfigWithin(data, path, limit, managed, nil)
}

// parseConfigWithin is parseConfigAs spending share, what the file
// shares with the file that includes it (nil: one of its own, which the
// files it includes will share).
func parseConfigWithin(data []byte, path string, limit int, managed bool, share *loadShare) (cfg *Config, err error) {
	strict := limit > 0
	defer func() {
		// A config must never take the dispatcher down.
		if r := recover(); r != nil {
			cfg, err = nil, &ConfigError{Path: path, Err: recovered("YAML", r)}
		}
	}()
	if err := secondBOM(data, path); err != nil {
		return nil, err
	}
	root, err := parseYAMLOf(path, data)
	if err != nil {
		return nil, yamlError(path, data, err)
	}
	cfg = emptyConfig()
	cfg.Path = path
	cfg.limit.max = limit
	cfg.share = share
	defer func() {
		if cfg != nil {
			// Only this parse's walks need the anchors they have seen.
			cfg.failClosedSeen = nil
		}
	}()
	if root == nil {
		return cfg, nil
	}
	if err := cfg.flattenYAML(root, path); err != nil {
		return nil, err
	}
	if root.Kind != yaml.MappingNode {
		if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
			return cfg, nil
		}
		return nil, &ConfigError{Path: path, Line: root.Line, Err: fmt.Errorf("the top level must be a mapping, got %s", pyyaml.Type(root))}
	}
	var hooks *yaml.Node
	cfg.keysOnce(root, "", topLevelKeys())
	for i := 0; i+1 < len(root.Content); i += 2 {
		// A setting written as an alias (journal: *j) is its anchor's
		// value, as for PyYAML: Flatten rewrote the anchor's merge keys
		// where it is written, but leaves a collection's alias in place.
		key, val := root.Content[i].Value, pyyaml.Deref(root.Content[i+1])
		switch key {
		case "hooks":
			hooks = val
		case "hooks_auto_accept":
			cfg.AutoAccept = consent.AutoAccept(pyyaml.Value(val))
			cfg.settings = append(cfg.settings, key)
		case "tool_aliases":
			cfg.parseToolAliases(val)
			cfg.settings = append(cfg.settings, key)
		case "journal":
			cfg.parseJournal(val)
			cfg.settings = append(cfg.settings, key)
		case "rules":
			cfg.parseRuleIncludes(val)
		case keyManagedOnly, keyTrustedKeys:
			cfg.parseManagedKey(key, val, managed)
		case "export":
			cfg.parseExport(val, path)
			cfg.settings = append(cfg.settings, key)
		default:
			known := false
			for _, k := range agentFileKinds() {
				if key == k.key {
					cfg.parseFileList(k, val)
					cfg.settings = append(cfg.settings, key)
					known = true
				}
			}
			if _, event := protocol.Lookup(key); event && !known {
				// Entries written without their hooks: (a rule file's,
				// most often) are read by nobody: say so, and a
				// fail_closed guard among them must not vanish.
				cfg.warnKey(key, "", "'"+key+"' is an event, not a top-level key: its entries are ignored here; indent them under hooks:")
				cfg.outsideHooksGuard(root.Content[i+1], root.Content[i].Line, key)
			} else if !known {
				// Every other key is the agent's (model:, toolsets: …):
				// only one that is a near miss of ours is reported.
				cfg.unknownKey(root.Content[i], "", topLevelKeys(), map[bool]float64{true: 0, false: 0.8}[strict])
			}
		}
	}
	cfg.Tools = protocol.NewToolTable(cfg.ToolAliases)
	if hooks != nil {
		cfg.parseHooks(hooks, path)
	}
	if cfg.loadErr != nil {
		if !strict && !managed {
			cfg.missingIncludes()
		}
		if ce, ok := cfg.loadErr.(*ConfigError); ok {
			ce.Warnings = append(ce.Warnings, cfg.Warnings...)
			if !strict && !managed { // the user's own: validate reads it
				ce.Partial = cfg
			}
		}
		return nil, cfg.loadErr
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

// yamlError is the error of a config that is not YAML: at the line of
// the mistake, in plain words, when yamlHint recognises it (the parser's
// words follow), else where and as the parser says.
func yamlError(path string, data []byte, err error) error {
	line, reason := yamlLine(err.Error())
	if at, hint, ok := yamlHint(data); ok {
		return &ConfigError{Path: path, Line: at, Err: errors.New(hint + " (YAML parser: " + reason + ")")}
	}
	return &ConfigError{Path: path, Line: line, Err: errors.New(reason)}
}

// reservedHookKeys sit under hooks: but are not events.
var reservedHookKeys = map[string]bool{"outbound": true, "output_spill": true}

func (cfg *Config) parseHooks(n *yaml.Node, source string) {
	// The block, a list or an entry may be an alias (- *guard): PyYAML
	// reads its anchor's value there, and a guard written so must not
	// be dropped.
	n = pyyaml.Deref(n)
	if n.Kind != yaml.MappingNode {
		if !(n.Kind == yaml.ScalarNode && n.Tag == "!!null") {
			cfg.warn("hooks", "must be a mapping of event names to lists of hook definitions; got "+pyyaml.Type(n)+"; no hooks loaded")
			cfg.notMappingGuard(n, n.Line)
		}
		return
	}
	cfg.keysOnce(n, "hooks", nil)
	for i := 0; i+1 < len(n.Content); i += 2 {
		name, val := n.Content[i].Value, pyyaml.Deref(n.Content[i+1])
		if reservedHookKeys[name] {
			continue
		}
		if !cfg.aliasedList(n.Content[i+1], val, "hooks."+name) {
			return
		}
		ev, known := protocol.Lookup(name)
		switch {
		case known && ev.ShellUnsupported:
			cfg.warnKey("hooks."+name, "", "hook event '"+name+"' is Python-plugin-only: shell hooks cannot return its directive, so entries under hooks."+name+" are ignored")
			continue
		case !known && name != "hooks" && slices.Contains(topLevelKeys(), name):
			// Right key, wrong place: indented under hooks:. The list of
			// every event would not say so.
			cfg.warnKey("hooks."+name, "", "unknown hook event '"+name+"' in hooks: config — '"+name+
				"' is a top-level key, not an event: move it out of hooks: to the left margin, beside hooks:")
			cfg.noEventGuard(val, n.Content[i].Line, name, nil)
			continue
		case !known:
			cfg.warnKey("hooks."+name, "", cfg.unknownEvent(name, protocol.UnknownEventMessage))
			cfg.noEventGuard(val, n.Content[i].Line, name, nil)
			continue
		case val.Kind == yaml.ScalarNode && val.Tag == "!!null":
			continue
		case val.Kind != yaml.SequenceNode:
			from := len(cfg.Warnings)
			cfg.warnKey("hooks."+name, "", "hooks."+name+" must be a list of hook definitions; got "+pyyaml.Type(val))
			cfg.loneGuards(ev, name, val, source, from)
			cfg.textGuard(val, val.Line, "hooks."+name, yamlHonored(ev, name))
			continue
		}
		cfg.textGuard(val, val.Line, "hooks."+name, yamlHonored(ev, name))
		dialect := yamlDialect(name)
		for j, item := range val.Content {
			item = pyyaml.Deref(item)
			path := fmt.Sprintf("hooks.%s[%d]", name, j)
			if !cfg.keysOnce(item, path, nil) {
				// An entry that could be read two ways is no entry:
				// the file does not load (so a gating event is refused,
				// as for any config that cannot load).
				continue
			}
			if isGroupNode(item) && !otherKind(item) {
				// A Claude matcher group pasted into YAML:
				// {matcher, hooks: [{type, command, timeout}]}.
				cfg.parseYAMLClaudeGroup(ev, name, path, j, item, source)
				continue
			}
			if !cfg.admit(source) {
				// The rest of this list and the events after it go unread.
				cfg.pastCapGuard(item.Line, path, pastCapHooks(n, i, val.Content[j:])...)
				return
			}
			cfg.listGuard(item, item.Line, path, yamlRule(ev, name))
			if item.Kind == yaml.MappingNode {
				cfg.unknownKeys(item, path, entryKeys, 0.6)
			}
			parse := cfg.parseYAMLEntry
			if item.Kind == yaml.MappingNode && pyyaml.MappingGet(item, "rule") != nil {
				// A rule (parse_rule.go): a config's own entries only,
				// never a key in an agent's hook file.
				parse = cfg.parseRuleEntry
				cfg.opaKeysElsewhere(path, item)
			} else if item.Kind == yaml.MappingNode {
				cfg.ruleKeysElsewhere(path, item)
			}
			e := cfg.readOrGuard(skipped{ev: ev, declared: name, path: path, index: j, node: item, dialect: dialect, source: source},
				func() *Entry { return parse(ev, name, path, j, item, dialect, nil, source) })
			if e != nil {
				cfg.Entries = append(cfg.Entries, e)
			}
		}
	}
}

// parseEntry validates one hook definition exactly as Hermes does (see the
// Hermes reference §1.3), plus our keys: dialect, priority, onFailure,
// worker, workers, worker_idle, mode, skill_commands, examples. codec (nil:
// none; dialect is then its own) is how a hook of an agent's flat file
// talks; its EventRules apply to the matcher and fail_closed.
func (cfg *Config) parseEntry(ev *protocol.Event, declared, path string, index int, n *yaml.Node, dialect protocol.Dialect, codec protocol.Codec, source string) *Entry {
	if n.Kind != yaml.MappingNode {
		cfg.warn(path, " must be a mapping with a 'command' key; got "+pyyaml.Type(n)+entryTextHint(n))
		return nil
	}
	cmdNode := pyyaml.MappingGet(n, "command")
	// A plain yes/no/on/off is a bool to Hermes' PyYAML (YAML 1.1), not
	// a command, as it is not a matcher below.
	if cmdNode == nil || cmdNode.Kind != yaml.ScalarNode || cmdNode.Tag != "!!str" || pyyaml.IsYAML11Bool(cmdNode) || strings.TrimSpace(cmdNode.Value) == "" {
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
		Codec:      codec,
		Source:     source,
	}
	if d := pyyaml.MappingGet(n, "dialect"); d != nil {
		if v, ok := protocol.ParseDialect(d.Value); ok && d.Kind == yaml.ScalarNode {
			e.Dialect = v
		} else {
			cfg.warn(path, ".dialect must be 'hermes' or 'claude'; got "+pyyaml.Repr(d)+"; using "+string(e.Dialect))
		}
	}
	if e.Dialect != protocol.Hermes {
		// Claude Code's timeouts, for a Codec's too: hooks written for an
		// agent that waits long, not for Hermes' 60 s.
		e.Timeout = claudeDefaultTimeout(ev)
	}
	cfg.parseEntryKeys(e, path, n, e.Dialect)
	cfg.parseWorker(e, path, n)
	return cfg.finishEntry(e, path, n)
}

// parseEntryKeys reads what an entry of any kind may set first: matcher,
// timeout (read as dialect reads it; a rule's as parseRuleTimeout does),
// fail_closed and priority.
func (cfg *Config) parseEntryKeys(e *Entry, path string, n *yaml.Node, dialect protocol.Dialect) {
	if m := pyyaml.MappingGet(n, "matcher"); m != nil {
		cfg.parseMatcher(e, path, m)
	}
	if t := pyyaml.MappingGet(n, "timeout"); t != nil {
		if e.Rule() != nil { // our own key, not Hermes'
			e.Timeout, e.TimeoutSet = cfg.parseRuleTimeout(path, t, e.Timeout)
		} else {
			e.Timeout, e.TimeoutSet = cfg.parseTimeout(path, t, dialect, e.Timeout)
		}
	}
	cfg.parseFailClosed(e, path, n)
	if p := pyyaml.MappingGet(n, "priority"); p != nil {
		if v, ok := pyyaml.Int(p); ok && p.Tag != "!!bool" && !pyyaml.IsYAML11Bool(p) {
			e.Priority = v
		} else {
			cfg.warn(path, ".priority must be an integer (got "+pyyaml.Repr(p)+"); using 0")
		}
	}
}

// finishEntry reads what an entry of any kind may set last (mode,
// skill_commands, examples) and builds its matcher.
func (cfg *Config) finishEntry(e *Entry, path string, n *yaml.Node) *Entry {
	cfg.parseMode(e, path, n)
	cfg.parseSkillCommands(e, path, n)
	cfg.parseExamples(e, path, n)
	e.match = compileMatcher(e, func(msg string) { cfg.warn(path, ".matcher: "+msg) })
	e.ready = true
	return e
}

func (cfg *Config) parseMatcher(e *Entry, path string, m *yaml.Node) {
	if m.Kind == yaml.ScalarNode && m.Tag == "!!null" {
		return
	}
	if m.Kind != yaml.ScalarNode || m.Tag != "!!str" || pyyaml.IsYAML11Bool(m) {
		// Hermes ignores it and runs the hook on every tool: so does
		// this (matcher: no read as the text "no" matched no tool, so a
		// guard that Hermes runs never ran here).
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
	if r, ok := e.Codec.(protocol.EventRules); ok {
		if why := r.MatcherIgnored(e.DeclaredAs, e.Event); why != "" {
			cfg.warn(path, ".matcher is ignored on "+e.DeclaredAs+": "+why)
			return
		}
	}
	e.Matcher = matcher
}

// failClosedKey is the key of the hook mapping n that decides whether it
// fails closed, and its value: fail_closed, which wins when present (even
// false), else failClosed, else Claude's onFailure ("" and nil: none).
// It is the one place that chooses, for the reader (parseFailClosed) and
// for a guard the reader would drop (asksFailClosed).
func failClosedKey(n *yaml.Node) (string, *yaml.Node) {
	for _, key := range []string{"fail_closed", "failClosed", "onFailure"} {
		if v := pyyaml.MappingGet(n, key); v != nil {
			return key, v
		}
	}
	return "", nil
}

// parseFailClosed reads the key failClosedKey chooses. Hermes hooks may
// fail closed only on pre_tool_call and pre_gateway_dispatch; Claude hooks
// on any event whose hooks can block.
func (cfg *Config) parseFailClosed(e *Entry, path string, n *yaml.Node) {
	key, v := failClosedKey(n)
	var on bool
	switch key {
	case "":
		return
	case "onFailure":
		switch strings.ToLower(strings.TrimSpace(v.Value)) {
		case "block":
			on = true
		case "allow", "ignore", "continue", "":
		default:
			cfg.warn(path, ".onFailure must be 'block' or 'allow' (got "+pyyaml.Repr(v)+"); ignoring")
		}
	default:
		b, ok := pyyaml.Bool(v)
		if !ok {
			cfg.warn(path, "."+key+" must be a boolean (got "+pyyaml.Repr(v)+"); treating as false")
			return
		}
		on = b
	}
	if !on {
		return
	}
	if !failClosedHonored(e.Event, e.DeclaredAs, e.Dialect, e.Codec) {
		cfg.warn(path, "."+key+" is only honored for pre_tool_call and pre_gateway_dispatch (hooks that can block); ignored on "+e.DeclaredAs)
		return
	}
	e.FailClosed = true
}

// failClosedHonored reports whether a hook of ev, declared as declared,
// in dialect (codec: nil, or the agent's) may fail closed: Hermes hooks
// only on pre_tool_call and pre_gateway_dispatch, Claude hooks on any
// event whose hooks can block, an agent's where its event's hooks can
// refuse (Cursor: not on stop, where a failing hook must not keep the
// agent going). The reader (parseFailClosed) and text it cannot read
// (textGuard) ask it alike.
func failClosedHonored(ev *protocol.Event, declared string, dialect protocol.Dialect, codec protocol.Codec) bool {
	if r, ok := codec.(protocol.EventRules); ok {
		return r.Refuses(declared) && ev.Can(protocol.CapBlock)
	}
	if dialect == protocol.Claude {
		return ev.Can(protocol.CapBlock | protocol.CapContinue)
	}
	return ev.FailsClosed()
}

// entryKeys are the keys of a hook entry in YAML: Hermes' (command,
// matcher, timeout, fail_closed and its alias failClosed) and ours. A key
// outside them is ignored — a misspelt fail_closed switches a guard's
// protection off — so it is reported, with the closest key.
var entryKeys = []string{"command", "matcher", "timeout", "fail_closed", "failClosed", "onFailure",
	"dialect", "priority", "worker", "workers", "worker_idle", "mode", "skill_commands", "examples",
	"rule", "decision", "message", "id", "opa", "headers", "allowed_env_vars"}

// topLevelKeys are the top-level keys hermes-hooks reads.
func topLevelKeys() []string {
	keys := []string{"hooks", "hooks_auto_accept", "tool_aliases", "journal", "export", "rules", keyManagedOnly, keyTrustedKeys}
	for _, k := range agentFileKinds() {
		keys = append(keys, k.key)
	}
	return keys
}
