package hookconfig

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// parseClaudeShaped reads the hooks block of a file in Claude Code's shape.
// At most limit handlers are read (0: no limit; see MaxProjectEntries).
func parseClaudeShaped(data []byte, path string, shape *agents.Agent, limit int) (entries []*Entry, warnings []Warning, err error) {
	defer func() {
		if r := recover(); r != nil {
			entries, warnings, err = nil, nil, &ConfigError{Path: path, Err: recovered("settings", r)}
		}
	}()
	// Past a byte order mark when the agent reads it so (the error's
	// column counted from there too, as an editor shows it); a mark the
	// agent refuses is refused here too (agents.Agent.ReadPastBOM).
	data, err = shape.ReadPastBOM(data)
	if err != nil {
		return nil, nil, bomError(path, err)
	}
	v, err := pyjson.Decode(data)
	if err != nil {
		return nil, nil, jsonSyntaxError(path, data, err)
	}
	root, ok := v.(map[string]any)
	if !ok {
		return nil, nil, &ConfigError{Path: path, Err: errors.New("a settings file must hold a JSON object")}
	}
	// Path: the warnings are about this file, and validate shows its lines.
	f := &shapedFile{cfg: &Config{Path: path, limit: entryLimit{max: limit}}, path: path, shape: shape}
	if d, _ := root["disableAllHooks"].(bool); d {
		f.warn("disableAllHooks", "is true: no hooks from this file run")
		return nil, f.cfg.Warnings, nil
	}
	if list, ok := root["allowedHttpHookUrls"].([]any); ok {
		f.allowedURLs = []string{}
		for _, u := range list {
			if s, ok := u.(string); ok {
				f.allowedURLs = append(f.allowedURLs, s)
			}
		}
	}
	if shape.Source.Document != nil {
		root = shape.Source.Document(root, f.warn)
	}
	rawHooks, present := root["hooks"]
	if !present || rawHooks == nil {
		return nil, nil, nil
	}
	hooks, ok := rawHooks.(map[string]any)
	if !ok {
		f.warn("hooks", "must be an object of event names, not "+jsonKind(rawHooks)+"; ignoring")
		f.cfg.notMappingGuard(rawHooks, 0)
		if f.cfg.loadErr != nil {
			return nil, nil, f.cfg.loadErr
		}
		return nil, f.cfg.Warnings, nil
	}
	f.projectDir = agentProjectDir(shape, path)
	for _, name := range sortedNames(hooks) {
		ev, known := shape.SourceEvent(name)
		if !known {
			f.warn("hooks."+name, f.cfg.unknownEvent(name, shape.UnknownEventWarning))
			f.cfg.noEventGuard(hooks[name], 0, name, shape)
			continue
		}
		f.cfg.textGuard(hooks[name], 0, "hooks."+name, f.honored(ev, name))
		groups, ok := hooks[name].([]any)
		if !ok {
			lone := &brokenGroup{at: f.path + ": hooks." + name, from: len(f.cfg.Warnings), keepMatcher: true}
			f.warn("hooks."+name, "must be a list of matcher groups, [{\"matcher\": …, \"hooks\": [{\"type\": \"command\", \"command\": …}]}], not "+jsonKind(hooks[name])+"; skipped")
			if _, isObject := hooks[name].(map[string]any); isObject {
				// One group, not a list of them: skipped whole, but a
				// guard in it stands (loneGuards).
				f.group(ev, name, 0, hooks[name], lone)
			}
			continue
		}
		for gi, g := range groups {
			f.group(ev, name, gi, g, nil)
		}
	}
	if f.cfg.loadErr != nil {
		return nil, nil, f.cfg.loadErr
	}
	return f.cfg.Entries, f.cfg.Warnings, nil
}

// shapedFile is one agent hook file in Claude Code's shape being read.
type shapedFile struct {
	cfg              *Config
	path, projectDir string
	shape            *agents.Agent
	allowedURLs      []string // nil: no allowedHttpHookUrls key
}

func (f *shapedFile) warn(p, msg string) { f.cfg.warn(f.path+": "+p, msg) }

// honored is failClosedHonored for a handler of the file under the event
// name: Claude Code's dialect, or the agent's codec.
func (f *shapedFile) honored(ev *protocol.Event, name string) bool {
	return failClosedHonored(ev, name, protocol.Claude, f.shape.Source.Codec)
}

// claudeKeys reports a file whose groups and handlers have Claude Code's
// keys as they are: no agent-specific reading of its document, handlers
// or flat entries (Claude Code's own settings).
func (f *shapedFile) claudeKeys() bool {
	s := f.shape.Source
	return s.Codec == nil && s.Handler == nil && s.Document == nil && !s.FlatToo
}

// unknownKeys reports the keys of obj (at path p) that are near misses of
// known ones — `timeOut`, `comand`, `matchers` are ignored by Claude Code,
// so the hook runs without what they meant. A key unlike any known one is
// left alone: it may be a newer Claude Code's.
func (f *shapedFile) unknownKeys(p string, obj map[string]any, known []string) {
	for _, k := range sortedNames(obj) {
		if suggest := f.cfg.nearKey(k, known); suggest != "" {
			f.cfg.Warnings = append(f.cfg.Warnings, Warning{Path: f.path + ": " + p, File: f.path, Key: p + "." + k,
				Message: "unknown key '" + textutil.Truncate(k, maxShown) + "' is ignored by Claude Code — did you mean '" + suggest + "'?"})
		}
	}
}

// group reads the gi-th matcher group (or, in a file that allows them,
// flat entry) of the event name; of a broken one (lone: written alone, not
// in a list), only its unreadable guards.
func (f *shapedFile) group(ev *protocol.Event, name string, gi int, g any, lone *brokenGroup) {
	gpath := fmt.Sprintf("hooks.%s[%d]", name, gi)
	group, ok := g.(map[string]any)
	if !ok {
		f.warn(gpath, "must be an object with a hooks list; skipped")
		f.cfg.listGuard(g, 0, gpath, everyDialect(f.honored(ev, name)))
		return
	}
	if f.claudeKeys() {
		f.unknownKeys(gpath, group, claudeGroupKeys)
	}
	matcher, isString := group["matcher"].(string)
	broken := lone
	if raw, present := group["matcher"]; present && raw != nil && !isString {
		// Claude Code ignores a group whose matcher is not a string;
		// running it for every tool instead would widen a hook far beyond
		// what its author wrote. Only a handler of it that asks to fail
		// closed stands, as a guard of every call (brokenGroup).
		broken = &brokenGroup{at: f.path + ": " + gpath, from: len(f.cfg.Warnings)}
		f.warn(gpath, ".matcher must be a string; this group is ignored, as in Claude Code")
	}
	handlers, ok := group["hooks"].([]any)
	if lone, isObject := group["hooks"].(map[string]any); isObject {
		// One handler, not a list of them: skipped, but a guard stands
		// (loneGuards).
		if broken == nil {
			broken = &brokenGroup{at: f.path + ": " + gpath, from: len(f.cfg.Warnings), keepMatcher: true}
			f.warn(gpath, ".hooks must be a list of handlers; skipped")
		}
		handlers, ok = []any{lone}, true
	}
	_, grouped := group["hooks"]
	_, hasCommand := group["command"]
	if broken == nil && !grouped && hasCommand && !f.shape.Source.FlatToo {
		// A handler written where a matcher group belongs (the group
		// around it left out): skipped, but a guard stands, as one
		// written alone under the event does.
		broken = &brokenGroup{at: f.path + ": " + gpath, from: len(f.cfg.Warnings), keepMatcher: true}
		f.warn(gpath, "is a handler, not a matcher group; skipped")
	}
	// A flat entry; or a handler where a group belongs (written alone
	// under the event, or in its list without a group): skipped (broken),
	// but a guard stands, as loneGuards keeps the YAML's. An object with
	// hooks: is a group even beside a command key: its handlers' guards
	// stand.
	flatEntry := f.shape.Source.FlatToo && !grouped || broken != nil && hasCommand && !grouped
	if flatEntry {
		// A flat entry: the handler itself, its matcher its own.
		handlers, ok, matcher = []any{group}, true, ""
	}
	if f.shape.Source.Matcher != nil && matcher != "" {
		matcher = f.shape.Source.Matcher(name, matcher)
	}
	if !ok {
		if broken == nil { // else skipped whole, and said so
			f.warn(gpath, ".hooks must be a list of handlers; skipped")
		}
		return
	}
	first := len(f.cfg.Entries)
	for hi, h := range handlers {
		hpath := fmt.Sprintf("%s.hooks[%d]", gpath, hi)
		if flatEntry {
			hpath = gpath
		}
		if !f.cfg.admit(f.path) {
			f.cfg.pastCapGuard(0, hpath, capped{handlers[hi:], everyDialect(f.honored(ev, name))})
			break
		}
		f.handler(ev, name, gi, hpath, h, matcher, broken)
	}
	if seq := f.shape.Source.Sequential; seq != nil && seq(group) {
		for _, e := range f.cfg.Entries[first:] {
			e.Sequential = true
		}
	}
}

// brokenGroup is a matcher group skipped whole (its matcher is not a
// string): what it was meant to select is unknown, so a handler of it
// that asks to fail closed is an unreadable guard of every call of its
// event, for the warning at at (from: its index).
type brokenGroup struct {
	at   string
	from int
	// keepMatcher: the group's matcher is a string, and selects its calls
	// (a group written alone).
	keepMatcher bool
}

// handler reads one handler of a group (index gi) into an entry; of a
// broken group, only its unreadable guard.
func (f *shapedFile) handler(ev *protocol.Event, name string, gi int, hpath string, h any, matcher string, broken *brokenGroup) {
	handler, ok := h.(map[string]any)
	if !ok {
		f.warn(hpath, "must be an object; skipped")
	}
	// A list, or a matcher group where a handler belongs: the reader
	// skips it (above, or as missing a command).
	f.cfg.listGuard(h, 0, hpath, everyDialect(f.honored(ev, name)))
	if !ok {
		return
	}
	raw := handler
	if f.shape.Source.Handler != nil {
		handler = f.shape.Source.Handler(name, handler, func(msg string) { f.warn(hpath, msg) })
		if handler == nil {
			return // one the agent itself discards (Handler said why)
		}
	}
	if f.claudeKeys() {
		f.unknownKeys(hpath, handler, claudeHandlerKeys())
	}
	if m, isStr := handler["matcher"].(string); isStr && m != "" && f.shape.Source.Matcher != nil {
		handler = maps.Clone(handler)
		handler["matcher"] = f.shape.Source.Matcher(name, m)
	}
	var e *Entry
	if broken != nil {
		kept := ""
		if broken.keepMatcher {
			kept = matcher
		}
		e = f.cfg.unreadableGuard(skipped{ev: ev, declared: name, path: f.path + ": " + hpath, why: broken.at, index: gi,
			node: toNode(handler), dialect: protocol.Claude, source: f.path, matcher: kept, handler: true}, broken.from)
	} else {
		e = f.cfg.parseClaudeHandler(ev, name, f.path+": "+hpath, gi, toNode(handler), matcher, f.path)
	}
	if e == nil {
		return
	}
	if e.Once && f.shape.Source.OnceIgnored {
		e.Once = false
		f.warn(hpath, ".once is ignored in a "+f.shape.Title+" settings file, as "+f.shape.Title+" ignores it (it honours once only in a skill's frontmatter): the hook runs on every event")
	}
	e.StopGrace = f.shape.Source.StopGrace
	// An own command: `hermes-hooks install AGENT` put it there; it is
	// this program answering the agent, not a hook of the user's, and
	// running it from here would run every hook a second time:
	// parseAgentFileOwn sets it apart, as it is.
	e.ownLine = f.shape.IsOwnLine(e.Text())
	e.ProjectDir = f.projectDir
	typ, isStr := handler["type"].(string)
	_, known := handlerTypes[typ]
	e.FileOf, e.RunBy = f.shape.Name, runByOf(e, f.shape.RunsItself(f.path), !isStr || known)
	if c := f.shape.Source.Codec; c != nil {
		e.Codec, e.Dialect = c, c.Dialect()
	}
	if s, isCmd := e.Spec.(*CommandSpec); isCmd && f.shape.Source.Env != nil {
		s.Env = f.shape.Source.Env(raw, func(msg string) { f.warn(hpath, msg) })
	}
	if s, isHTTP := e.Spec.(*HTTPSpec); isHTTP && f.allowedURLs != nil && !urlAllowed(s.URL, f.allowedURLs) {
		f.warn(hpath, "url "+ShownURL(s.URL)+" is not in allowedHttpHookUrls; skipped, as in Claude Code")
		return
	}
	if f.projectDir != "" {
		// A project's settings file: its hooks are that repository's,
		// approved per repository.
		e.Scope = projectScope(f.projectDir, f.path)
	}
	f.cfg.Entries = append(f.cfg.Entries, e)
}

// claudeSwitches are the settings keys that turn other files' hooks off.
type claudeSwitches struct {
	// project is the project of the file ("": the user's own).
	project                 string
	path                    string
	disableAll, managedOnly bool
	// httpURLs and httpEnvVars are allowedHttpHookUrls and
	// httpHookAllowedEnvVars (nil: the key is absent).
	httpURLs, httpEnvVars []string
}

// readClaudeSwitches reads disableAllHooks and allowManagedHooksOnly from a
// settings file's top level.
func readClaudeSwitches(a *agents.Agent, data []byte, path string) claudeSwitches {
	sw := claudeSwitches{path: path}
	if v, err := pyjson.Decode(a.SkipBOM(data)); err == nil {
		if root, ok := v.(map[string]any); ok {
			sw.disableAll, _ = root["disableAllHooks"].(bool)
			sw.managedOnly, _ = root["allowManagedHooksOnly"].(bool)
			sw.httpURLs, sw.httpEnvVars = stringList(root["allowedHttpHookUrls"]), stringList(root["httpHookAllowedEnvVars"])
		}
	}
	return sw
}

// isManagedSettings reports Claude Code's managed-policy settings file.
func isManagedSettings(path string) bool {
	return filepath.Base(path) == "managed-settings.json"
}

// applyClaudeSwitches honours disableAllHooks and allowManagedHooksOnly
// the way Claude Code does, within what a file may decide. A managed
// settings file may turn every settings hook off (disableAllHooks) or all
// but managed ones (allowManagedHooksOnly); so may the user's own settings
// files (those not inside a project), except managed hooks. A project's
// settings file turns off only its own hooks (parseClaudeSettings already
// returns none): a repository must not be able to switch off the user's
// guards. Hooks from the YAML config are never affected.
func (cfg *Config) applyClaudeSwitches() {
	cfg.applyClaudeHTTPPolicy()
	offAll, offUnmanaged := "", ""
	for _, sw := range cfg.claudeSwitches {
		managed := isManagedSettings(sw.path)
		switch {
		case sw.disableAll && managed:
			offAll = sw.path
		case (sw.disableAll || sw.managedOnly) && (managed || sw.project == ""):
			offUnmanaged = sw.path
		}
	}
	if offAll == "" && offUnmanaged == "" {
		return
	}
	settings := cfg.switchedFiles()
	kept := cfg.Entries[:0]
	dropped := 0
	for _, e := range cfg.Entries {
		if settings[e.Source] && (offAll != "" || !isManagedSettings(e.Source)) {
			dropped++
			continue
		}
		kept = append(kept, e)
	}
	cfg.Entries = kept
	by := offAll
	if by == "" {
		by = offUnmanaged
	}
	if dropped > 0 {
		cfg.warn(by, "turns Claude settings hooks off (disableAllHooks / allowManagedHooksOnly): "+hooksCount(dropped)+" from settings files not loaded")
	}
}

// urlAllowed reports whether url matches one of Claude Code's
// allowedHttpHookUrls patterns, where * matches any run of characters.
func urlAllowed(url string, patterns []string) bool {
	for _, p := range patterns {
		if globMatch(p, url) {
			return true
		}
	}
	return false
}

// globMatch matches s against a pattern whose only special character is *.
func globMatch(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for _, part := range parts[1 : len(parts)-1] {
		i := strings.Index(s, part)
		if i < 0 {
			return false
		}
		s = s[i+len(part):]
	}
	return strings.HasSuffix(s, parts[len(parts)-1])
}

// markedProjectDir is the project root of an agent's hook file: the parent
// of the agent's folder (marker) found within levels directories above the
// file — .claude/settings.json, .github/hooks/x.json — except in the home
// directory, whose hooks are the user's own ("").
func markedProjectDir(path, marker string, levels int) string {
	dir := filepath.Dir(path)
	for i := 0; i < levels && filepath.Base(dir) != marker; i++ {
		dir = filepath.Dir(dir)
	}
	if filepath.Base(dir) != marker {
		return ""
	}
	if home, err := os.UserHomeDir(); err == nil && filepath.Clean(dir) == filepath.Join(home, marker) {
		return ""
	}
	return filepath.Dir(dir)
}

// toNode turns a decoded JSON value into the YAML node parseEntry validates,
// so settings entries get exactly the checks and messages YAML entries get.
func toNode(v any) *yaml.Node {
	switch x := v.(type) {
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, toNode(x[k]))
		}
		return n
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, e := range x {
			n.Content = append(n.Content, toNode(e))
		}
		return n
	case string:
		// Quoted style: a JSON string is never a YAML 1.1 boolean.
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: x, Style: yaml.DoubleQuotedStyle}
	case bool:
		if x {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"}
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "false"}
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: x.String()}
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: x.String()}
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
}

// hooksCount says "1 hook" or "3 hooks".
func hooksCount(n int) string {
	if n == 1 {
		return "1 hook"
	}
	return strconv.Itoa(n) + " hooks"
}

// jsonKind names the kind of a decoded JSON value, for a schema error:
// "an object", "a string" ….
func jsonKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number, float64:
		return "a number"
	case nil:
		return "null"
	}
	return "a value"
}
