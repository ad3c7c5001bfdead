package hookconfig

import (
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"
	"github.com/hermes-hooks/hermes-hooks/internal/suggest"
	"github.com/hermes-hooks/hermes-hooks/internal/termsafe"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Guards that would vanish. unreadableGuard keeps a fail_closed entry the
// reader cannot read as a guard of its event. Three shapes drop entries
// whole, with no event to guard: entries under a name that is no event
// (pre_tool_cal:, PreToolUs), a hooks: that is no mapping (a list, a
// string), and a repository's entries past MaxProjectEntries. Each was a
// warning, and a guard its author asked to fail closed was gone.
//
// When what such a shape drops asks to fail closed, the file does not
// load (Config.loadErr), as a file with any other mistake that loses a
// guard: the user's own config fails Load, and the caller refuses every
// gating event (RefusalFor); a repository's file is Unloaded, refused
// while that repository may run hooks. Guessing the event a misspelt name
// meant would guard the wrong calls when the guess is wrong; refusing
// every gating event is safe whatever was meant, and the refusal names
// the file, the line and the fix. Without fail_closed the shapes stay
// warnings, as before (docs/config.md, "Guards that cannot be placed").

// guardVanishes makes the file being read one that does not load: what
// it drops whole asks to fail closed (failClosedAt); problem says where
// and why it is dropped, fix what to do. It is the one place that decides
// so; the first such problem is the file's (the others its More).
func (cfg *Config) guardVanishes(line int, problem, fix string) {
	cfg.loadFail(&ConfigError{Path: cfg.Path, Line: line, Err: errors.New(problem + ": " + fix)})
}

// noEventGuard is guardVanishes for the hooks written under name, which
// is no event of the file's: a's hook file (nil: the YAML config), for a
// did-you-mean. The name is not bounded for it: suggest passes over every
// event name it is too long to be near, so a megabyte-long one costs a few
// milliseconds, once per file (the first guard found is the file's).
func (cfg *Config) noEventGuard(v any, line int, name string, a *agents.Agent) {
	if found, _ := cfg.failClosedOrText(v, everyDialect(true)); !found {
		return
	}
	// The name is the file's: bounded, and escaped here, since the
	// refusal reaches the model and the agent's screen as well as ours.
	shown := termsafe.Escape(textutil.Truncate(name, maxShown))
	problem := "hooks." + shown + " holds a fail_closed guard, but '" + shown + "' is no event"
	if s := suggestEvent(name, a); s != "" {
		problem += " (did you mean '" + s + "'?)"
	}
	cfg.guardVanishes(line, problem, "fix the name")
}

// outsideHooksGuard is guardVanishes for the entries of event name
// written at the top level, where nobody reads them.
func (cfg *Config) outsideHooksGuard(v any, line int, name string) {
	if found, _ := cfg.failClosedOrText(v, everyDialect(true)); found {
		cfg.guardVanishes(line, "'"+name+"' holds a fail_closed guard, but entries outside hooks: are read by nobody", "indent them under hooks:")
	}
}

// suggestEvent is the event name closest to name, "" when none is close:
// among a's (nil: the YAML config), or Hermes' and Claude Code's when a's
// Source reads names of its own (Claude Code's settings take a Hermes
// name too).
func suggestEvent(name string, a *agents.Agent) string {
	if a == nil || a.Source.Event != nil {
		return protocol.SuggestEvent(name)
	}
	return suggest.Closest(name, a.AgentEvents())
}

// notMappingGuard is guardVanishes for a hooks: block that is no mapping.
func (cfg *Config) notMappingGuard(v any, line int) {
	kind := "value"
	switch x := v.(type) {
	case []any:
		kind = "list"
	case string:
		kind = "string"
	case *yaml.Node:
		if x.Kind == yaml.SequenceNode {
			kind = "list"
		} else if x.Kind == yaml.ScalarNode && x.Tag == "!!str" {
			kind = "string"
		}
	}
	if found, _ := cfg.failClosedOrText(v, everyDialect(true)); !found {
		return
	}
	problem := "hooks: is a " + kind + ", not a mapping of event names, and holds a fail_closed guard no event can run"
	cfg.guardVanishes(line, problem, "write hooks: as event names, each with its list of hooks")
}

// textGuard is guardVanishes for an event's hooks (v, at path) written as
// text where a hook or a list of hooks belongs, or a list holding such
// text, or a matcher group whose hooks: is such text, when the text
// spells a fail_closed key (textAsks): no entry is read from a string, so
// the guard would be gone behind a warning. honored is whether a hook
// there may fail closed (failClosedHonored): where none may, the same
// hook written as a mapping loads with a warning, and so does its text,
// rather than refuse every gating call.
func (cfg *Config) textGuard(v any, line int, path string, honored bool) {
	if cfg.loadErr != nil || !honored {
		return
	}
	found, at, in := cfg.textAsks(v)
	if !found {
		return
	}
	if at > 0 {
		line = at
	}
	path = termsafe.Escape(textutil.Truncate(path+in, 2*maxShown))
	cfg.guardVanishes(line, path+" is a string, not a hook, and spells a fail_closed guard that cannot be read",
		"write the hook as a mapping (command: …, fail_closed: true), not as text")
}

// listGuard is guardVanishes for v, at path, when it is a list where one
// hook, matcher group or handler belongs, or a matcher group where a
// handler or a flat hook belongs (a mapping with hooks: and no command:):
// the reader skips it with a warning ("must be a mapping", "missing a
// non-empty 'command' field"), so a guard in it, at any depth (an alias
// or a group's handlers too: failClosedAt), would be gone. rule is which
// hooks there may fail closed, each by its own dialect (dialectRule).
// Text in it is textGuard's, asked before.
func (cfg *Config) listGuard(v any, line int, path string, rule dialectRule) {
	if cfg.loadErr != nil || !rule.any() {
		return
	}
	kind, fix := "a list", "write its hooks in the event's list itself, not in a list inside it"
	group := func() {
		// Its handlers, read in Claude's dialect unless they say
		// otherwise, as a group's are.
		kind, fix = "a matcher group", "write its handlers in place of the group, not in a group inside it"
		rule = rule.inGroup()
	}
	switch x := v.(type) {
	case *yaml.Node:
		if x = pyyaml.Deref(x); x == nil {
			return
		}
		switch {
		case x.Kind == yaml.SequenceNode:
		case isGroupNode(x):
			group()
			v = pyyaml.MappingGet(x, "hooks")
		default:
			return
		}
	case []any:
	case map[string]any:
		if !isGroupMap(x) {
			return
		}
		group()
		v = x["hooks"]
	default:
		return
	}
	found, at := cfg.failClosedAt(v, rule)
	if !found {
		return
	}
	if at > 0 {
		line = at
	}
	path = termsafe.Escape(textutil.Truncate(path, 2*maxShown))
	cfg.guardVanishes(line, path+" is "+kind+", not a hook, and holds a fail_closed guard that cannot be read", fix)
}

// yamlHonored is failClosedHonored for a hook of the YAML config under
// the event name: in the name's own dialect or, as an entry may say
// dialect: claude or hermes, in the other. Text, which cannot be read to
// say which, is counted by it (textGuard).
func yamlHonored(ev *protocol.Event, name string) bool {
	return yamlRule(ev, name).any()
}

// failClosedOrText is failClosedAt for what is dropped whole where hooks
// or a list of them belong, counting text there that spells a fail_closed
// key (textAsks) too, where any hook may fail closed (rule.any): a block
// scalar of pasted YAML or an escaped JSON object is no less a guard its
// author meant.
func (cfg *Config) failClosedOrText(v any, rule dialectRule) (found bool, line int) {
	if found, line = cfg.failClosedAt(v, rule); found || cfg.loadErr != nil || !rule.any() {
		return found, line
	}
	found, line, _ = cfg.textAsks(v)
	return found, line
}

// capped is hooks a file past its cap leaves unread, and the rule they
// would have been read by (dialectRule).
type capped struct {
	hooks any
	rule  dialectRule
}

// pastCapGuard is guardVanishes for what a file past its cap leaves
// unread (admit): rest, from the entry at where (its line) on. A caller
// passes the rest of its list, and the hooks of the events after it that
// it will not visit, each with its rule; where it visits a list again
// only to stop at its first entry, the list's own node (an alias's
// anchor, however many name it, is walked once: failClosedAt, textAsks).
// Each of rest is where hooks belong, so text there spelling a
// fail_closed key counts too (failClosedOrText), as it does before the
// cap.
func (cfg *Config) pastCapGuard(line int, where string, rest ...capped) {
	found, at := false, 0
	for _, r := range rest {
		if found, at = cfg.failClosedOrText(r.hooks, r.rule); found || cfg.loadErr != nil {
			break
		}
	}
	if !found {
		return
	}
	if at > 0 {
		line = at
	}
	// where holds an event name of the file's: bounded and escaped.
	where = termsafe.Escape(textutil.Truncate(where, 2*maxShown))
	problem := fmt.Sprintf("declares more than %d hooks, and one from %s on asks to fail closed: a guard past the cap cannot be trusted to run", cfg.limit.max, where)
	cfg.guardVanishes(line, problem, fmt.Sprintf("keep the file's hooks to %d at most", cfg.limit.max))
}

// pastCapHooks are the hooks the YAML config's hooks: mapping n leaves
// unread when its cap stops it inside the list of its i-th event (rest:
// that list from there on), for pastCapGuard: rest, and the hooks under
// each later name, each by its event's rule (yamlRule): a fail_closed
// hook where its dialect cannot fail closed is no guard, and loads with
// a warning before the cap; an event where none can is left out. A name
// that is no event keeps its hooks, as noEventGuard counts them; the
// reserved keys hold no hooks.
func pastCapHooks(n *yaml.Node, i int, rest []*yaml.Node) []capped {
	var hooks []capped
	for k := i; k+1 < len(n.Content); k += 2 {
		name := n.Content[k].Value
		if reservedHookKeys[name] {
			continue
		}
		rule := everyDialect(true)
		if ev, known := protocol.Lookup(name); known {
			if rule = yamlRule(ev, name); !rule.any() {
				continue
			}
		}
		if k == i {
			hooks = append(hooks, capped{rest, rule})
		} else {
			hooks = append(hooks, capped{n.Content[k+1], rule})
		}
	}
	return hooks
}

// failClosedAt reports whether v holds, anywhere in it, a hook that asks
// to fail closed and counts by rule (dialectRule): a mapping whose
// deciding key says so (asksFailClosed, as parseFailClosed reads it), or
// an *Entry that fails closed; line is that mapping's (0: not known, in
// JSON). v is a *yaml.Node, a decoded JSON value, an *Entry, or a list of
// those. It is false once the file does not load (there is nothing left
// to decide). Each anchored YAML node is visited once per file and rule
// (dialectRule.bit), however many aliases name it: one visited before
// held no such hook (else the file would not load), so neither an alias
// bomb nor thousands of entries naming one big anchor (- *big) cost more
// than the file's size.
func (cfg *Config) failClosedAt(v any, rule dialectRule) (found bool, line int) {
	if cfg.loadErr != nil || !rule.any() {
		return false, 0
	}
	type item struct {
		v   any
		def protocol.Dialect // the dialect a hook here is read in by default
	}
	seen := cfg.walkedNodes()
	stack := []item{{v, rule.byDefault}}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		cfg.failClosedVisits++
		def := top.def
		switch x := top.v.(type) {
		case *yaml.Node:
			bit := rule.bit(def)
			if x == nil || seen[x]&bit != 0 {
				continue
			}
			if x.Anchor != "" {
				// Only an anchored node can be reached twice (by its
				// aliases); every other one has one parent.
				seen[x] |= bit
			}
			if x.Kind == yaml.AliasNode {
				stack = append(stack, item{x.Alias, def})
				continue
			}
			if x.Kind == yaml.MappingNode && asksFailClosed(x) && rule.counts(nodeDialect(x), def) {
				return true, x.Line
			}
			if isGroupNode(x) {
				def = protocol.Claude
			}
			for _, c := range x.Content {
				stack = append(stack, item{c, def})
			}
		case []*yaml.Node:
			for _, c := range x {
				stack = append(stack, item{c, def})
			}
		case *Entry:
			if x != nil && x.FailClosed {
				return true, 0
			}
		case map[string]any:
			d, _ := x["dialect"].(string)
			if jsonAsks(x) && rule.counts(d, def) {
				return true, 0
			}
			if isGroupMap(x) {
				def = protocol.Claude
			}
			for _, c := range x {
				stack = append(stack, item{c, def})
			}
		case []any:
			for _, c := range x {
				stack = append(stack, item{c, def})
			}
		}
	}
	return false, 0
}

// asksFailClosed reports whether the hook mapping n asks to fail closed
// itself, by the key the reader decides by (failClosedKey): so a hook
// under a name that is no event counts exactly when, under the right name,
// it would be read as a guard (where the event honours one).
func asksFailClosed(n *yaml.Node) bool {
	key, v := failClosedKey(n)
	switch key {
	case "":
		return false
	case "onFailure":
		return isBlock(pyyaml.Deref(v).Value)
	}
	b, ok := pyyaml.Bool(pyyaml.Deref(v))
	return ok && b
}

// jsonAsks is asksFailClosed for a decoded JSON hook, whose deciding keys
// become the node the reader reads it as (toNode). A list or an object
// there is neither a boolean nor 'block': it is not copied, as the walk
// goes on into it anyway.
func jsonAsks(m map[string]any) bool {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for _, key := range []string{"fail_closed", "failClosed", "onFailure"} {
		v, ok := m[key]
		if !ok {
			continue
		}
		switch v.(type) {
		case map[string]any, []any:
			v = nil
		}
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, toNode(v))
	}
	return asksFailClosed(n)
}

func isBlock(s string) bool { return strings.EqualFold(strings.TrimSpace(s), "block") }

// walks are what the walks of a file's parse have asked of an anchored
// node (Config.failClosedSeen): one asked before held no answer (else the
// file would not load), so it is not asked again.
type walks uint8

const (
	walkedGuard    walks = 1 << iota // failClosedAt
	walkedHooks                      // textAsks, where an event's hooks belong
	walkedHandlers                   // textAsks, where a group's handlers belong
	// failClosedAt by a rule counting one dialect's hooks only
	// (dialectRule.bit): Hermes', where a hook is Hermes' by default, then
	// Claude's; Claude's, likewise.
	walkedGuardHermes
	walkedGuardHermesClaudeDefault
	walkedGuardClaude
	walkedGuardClaudeClaudeDefault
)

// walkedNodes is Config.failClosedSeen, made on first use.
func (cfg *Config) walkedNodes() map[*yaml.Node]walks {
	if cfg.failClosedSeen == nil {
		cfg.failClosedSeen = map[*yaml.Node]walks{}
	}
	return cfg.failClosedSeen
}

// textAsks reports whether v, where an event's hooks belong, is text
// spelling a fail_closed key, or a list holding such text, or a Claude
// matcher group (a mapping with hooks: and no command:, alone or in the
// list) whose hooks: is such text or a list holding it: where handlers
// belong, as the reader reads a group in YAML and in a settings file.
// A list inside such a list is read as a hook that is no mapping, and
// skipped with a warning, so its text counts too, at any depth.
// in is the path to that text from v ("": v itself; "[1]", "[0].hooks[2]",
// ".hooks", "[0][1]"); line is the text's (0: not known, in JSON). It is
// the one place that counts text so. Only there: a string inside a hook
// (its command: echo fail_closed) is what it says.
func (cfg *Config) textAsks(v any) (found bool, line int, in string) {
	return cfg.textIn(v, true)
}

// textIn is textAsks where an event's hooks belong (groups: a mapping or
// an item may be a matcher group) or where a group's handlers do.
func (cfg *Config) textIn(v any, groups bool) (found bool, line int, in string) {
	switch x := v.(type) {
	case string:
		return spellsFailClosed(x), 0, ""
	case map[string]any:
		if groups && isGroupMap(x) {
			found, line, in = cfg.textIn(x["hooks"], false)
			return found, line, ".hooks" + in
		}
	case []any:
		for i, item := range x {
			if found, line, in = cfg.textIn(item, groups); found {
				return found, line, fmt.Sprintf("[%d]%s", i, in)
			}
		}
	case []*yaml.Node:
		for i, item := range x {
			if item == nil {
				continue
			}
			if found, line, in = cfg.textIn(item, groups); found {
				return found, line, fmt.Sprintf("[%d]%s", i, in)
			}
		}
	case *yaml.Node:
		return cfg.textInNode(x, groups)
	}
	return false, 0, ""
}

// textInNode is textIn for a YAML node. An anchored one is asked once a
// file for each place it is named in (walks), so neither an alias bomb
// nor thousands of groups naming one big anchored list cost more than
// the file's size.
func (cfg *Config) textInNode(x *yaml.Node, groups bool) (found bool, line int, in string) {
	if x = pyyaml.Deref(x); x == nil {
		return false, 0, ""
	}
	cfg.failClosedVisits++
	if x.Anchor != "" {
		seen, bit := cfg.walkedNodes(), walkedHandlers
		if groups {
			bit = walkedHooks
		}
		if seen[x]&bit != 0 {
			return false, 0, ""
		}
		seen[x] |= bit
	}
	switch x.Kind {
	case yaml.ScalarNode:
		return spellsFailClosed(x.Value), x.Line, ""
	case yaml.SequenceNode:
		return cfg.textIn(x.Content, groups)
	case yaml.MappingNode:
		if groups && isGroupNode(x) {
			found, line, in = cfg.textInNode(pyyaml.MappingGet(x, "hooks"), false)
			return found, line, ".hooks" + in
		}
	}
	return false, 0, ""
}

// spellsFailClosed: text that names a fail_closed key.
func spellsFailClosed(s string) bool {
	return strings.Contains(s, "fail_closed") || strings.Contains(s, "failClosed")
}
