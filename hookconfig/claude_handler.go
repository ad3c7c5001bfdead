package hookconfig

import (
	"fmt"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// parseYAMLClaudeGroup reads a Claude Code matcher group pasted into the
// YAML ({matcher, hooks: [{type, command, timeout}]}) under the event name.
func (cfg *Config) parseYAMLClaudeGroup(ev *protocol.Event, name, path string, index int, group *yaml.Node, source string) {
	// broken: the group is skipped whole (the warnings from this index
	// say why); only its unreadable guards stand, matching guardMatcher.
	matcher, broken, guardMatcher := "", -1, ""
	if m := pyyaml.MappingGet(group, "matcher"); m != nil && m.Kind == yaml.ScalarNode && m.Tag == "!!str" {
		matcher = m.Value
	} else if m != nil && !(m.Kind == yaml.ScalarNode && m.Tag == "!!null") {
		broken = len(cfg.Warnings)
		cfg.warn(path, ".matcher must be a string; this group is ignored, as in Claude Code")
	}
	cfg.nearKeys(group, path, claudeGroupKeys)
	handlers := pyyaml.Deref(pyyaml.MappingGet(group, "hooks"))
	list := handlers.Content
	if handlers.Kind != yaml.SequenceNode {
		if handlers.Kind == yaml.MappingNode {
			// One handler, not a list of them (loneGuards): of a group
			// already broken (its matcher), its guard stands all the same.
			list = []*yaml.Node{handlers}
		} else if broken >= 0 {
			return // skipped whole, and said so
		}
		if broken < 0 {
			broken, guardMatcher = len(cfg.Warnings), matcher
			cfg.warn(path, ".hooks must be a list of handlers; got "+pyyaml.Type(handlers))
		}
	}
	for k, h := range list {
		hp := fmt.Sprintf("%s.hooks[%d]", path, k)
		h = pyyaml.Deref(h)
		if !cfg.admit(source) {
			// A group past the cap stops at its first handler: its list
			// is asked whole, once however many groups name it.
			rest := any(list[k:])
			if k == 0 {
				rest = handlers
			}
			cfg.pastCapGuard(h.Line, hp, capped{rest, yamlRule(ev, name).inGroup()})
			return
		}
		if !cfg.keysOnce(h, hp, nil) {
			continue
		}
		if h.Kind != yaml.MappingNode {
			cfg.warn(hp, " must be a mapping with a 'command' key; got "+pyyaml.Type(h))
		}
		// A list, or a matcher group where a handler belongs: the reader
		// skips it (above, or as missing a command).
		cfg.listGuard(h, h.Line, hp, yamlRule(ev, name).inGroup())
		if h.Kind != yaml.MappingNode {
			continue
		}
		cfg.nearKeys(h, hp, claudeHandlerKeys())
		var e *Entry
		if broken >= 0 {
			// A group whose matcher is no string: what it was meant to
			// select is unknown, so a handler of it that asks to fail
			// closed blocks every call of the event (docs/config.md).
			e = cfg.unreadableGuard(skipped{ev: ev, declared: name, path: hp, why: path, index: index, node: h,
				dialect: protocol.Claude, source: source, matcher: guardMatcher, handler: true}, broken)
		} else {
			e = cfg.parseClaudeHandler(ev, name, hp, index, h, matcher, source)
		}
		if e != nil {
			cfg.Entries = append(cfg.Entries, e)
		}
	}
}

// parseClaudeHandler reads one Claude Code handler — from a settings file or
// a Claude group pasted into the YAML — into an entry whose Spec is what its
// type makes of it (handlerTypes): a command (shell form, or exec form with
// args), an http endpoint, or a handler type that needs a model or an MCP
// client (prompt, agent, mcp_tool). Those are kept, marked Unsupported, so
// that list shows them and a PreToolUse guard among them is never skipped
// silently. matcher is the group's.
//
// One it skips (an unknown type, no command …) that asks to fail closed is
// an unreadable guard (unreadableGuard).
func (cfg *Config) parseClaudeHandler(ev *protocol.Event, name, path string, index int, h *yaml.Node, matcher, source string) *Entry {
	return cfg.readOrGuard(skipped{ev: ev, declared: name, path: path, index: index, node: h, dialect: protocol.Claude,
		source: source, matcher: matcher, handler: true},
		func() *Entry { return cfg.readClaudeHandler(ev, name, path, index, h, matcher, source) })
}

// readClaudeHandler is parseClaudeHandler without the guard: nil for a
// handler it skips.
func (cfg *Config) readClaudeHandler(ev *protocol.Event, name, path string, index int, h *yaml.Node, matcher, source string) *Entry {
	typ := TypeCommand
	if t := pyyaml.MappingGet(h, "type"); t != nil {
		if t.Kind != yaml.ScalarNode || t.Tag != "!!str" {
			cfg.warn(path, ".type must be a string; skipped")
			return nil
		}
		typ = t.Value
	}
	parse, known := handlerTypes[typ]
	if !known {
		cfg.warn(path, " has unknown type '"+typ+"'; skipped")
		return nil
	}
	hp, ok := parse(cfg, typ, path, h)
	if !ok {
		return nil
	}
	h = hp.node
	if hp.spec.Label() != "" {
		// parseEntry reads every entry's command: the text it is shown by
		// stands in for it, and is not kept as a command.
		h = pyyaml.WithMapping(h, "command", hp.spec.Label())
	}
	if pyyaml.MappingGet(h, "matcher") == nil && matcher != "" {
		h = pyyaml.WithMapping(h, "matcher", matcher)
	}
	e := cfg.parseEntry(ev, name, path, index, h, protocol.Claude, nil, source)
	if e == nil {
		return nil
	}
	if hp.spec.Label() != "" {
		e.Command = ""
	}
	if hp.args != nil {
		// Exec form: the program and its arguments, no shell. The approval
		// is of the whole argument vector, so it is keyed by it.
		hp.args = append([]string{e.Command}, hp.args...)
		e.Command = shellJoin(hp.args)
	}
	switch s := hp.spec.(type) {
	case *CommandSpec:
		s.Args = hp.args
		if w := e.Worker(); w != nil {
			w.CommandSpec = *s // worker: true, read by parseEntry
		} else {
			e.Spec = s
		}
	case *UnsupportedSpec:
		e.Spec = s
		cfg.warnUnsupported(path, typ, s.Why)
	default:
		e.Spec = s
	}
	cfg.parseHandlerOptions(ev, e, path, h)
	return e
}

// parseHandlerOptions reads what every Claude Code handler type may have:
// async, asyncRewake, once and its if rule.
func (cfg *Config) parseHandlerOptions(ev *protocol.Event, e *Entry, path string, h *yaml.Node) {
	b := func(key string) bool {
		v, ok := pyyaml.Bool(mappingGetOr(h, key))
		return ok && v
	}
	e.Async, e.AsyncRewake, e.Once = b("async"), b("asyncRewake"), b("once")
	if e.AsyncRewake {
		e.Async = true
	}
	if cond := pyyaml.MappingGet(h, "if"); cond != nil {
		if v, ok := strOf(h, "if"); ok && strings.TrimSpace(v) != "" {
			e.If = strings.TrimSpace(v)
		} else {
			cfg.warn(path, ".if must be a permission rule string such as \"Bash(git *)\"; the handler never runs")
			e.If = "\x00invalid"
		}
		if !ev.IfRule {
			cfg.warn(path, ".if only applies to tool events; on "+ev.ClaudeName()+" the handler never runs, as in Claude Code")
		}
		e.CompileIf()
		if e.ifBroken != "" {
			cfg.warn(path, ".if: "+e.ifBroken+"; on PreToolUse the handler blocks every call it would have filtered, rather than be skipped")
		}
	}
	if e.FailClosed && (e.Async || (ev.Can(protocol.CapContinue) && !ev.Can(protocol.CapBlock))) {
		// Claude Code's onFailure: block does not apply to stop hooks (a
		// failing stop hook must not keep the agent going) nor to async
		// hooks (nothing is waiting for them).
		cfg.warn(path, " fail_closed / onFailure: block is ignored on async and stop hooks, as in Claude Code")
		e.FailClosed = false
	}
	if _, isHTTP := e.Spec.(*HTTPSpec); e.Async && isHTTP {
		e.Async = false
		cfg.warn(path, ".async is ignored on http handlers; it runs synchronously")
	}
}

// handlerParts is what a Claude Code handler's type makes of it: its spec,
// the exec form's arguments after the program (nil: the shell form), and
// the handler itself (node).
type handlerParts struct {
	spec Spec
	args []string
	node *yaml.Node
}

// handlerType reads a handler of one type (typ) into its parts; ok is
// false for a handler that is skipped, with its warning. A spec with a
// Label is listed and approved by it; one without runs the handler's
// command.
type handlerType func(cfg *Config, typ, path string, h *yaml.Node) (handlerParts, bool)

// handlerTypes are the Claude Code handler types, by the type: key: a new
// hook kind is one case here (tests add theirs).
var handlerTypes = map[string]handlerType{
	TypeCommand: parseCommandHandler,
	TypeHTTP:    parseHTTPHandler,
	"prompt":    parseModelHandler,
	"agent":     parseModelHandler,
	"mcp_tool":  parseMCPToolHandler,
}

// parseCommandHandler reads a command handler: its exec form's args, and
// its shell (bash, sh, powershell; any other cannot run here).
func parseCommandHandler(cfg *Config, typ, path string, h *yaml.Node) (handlerParts, bool) {
	p := handlerParts{node: h}
	if a := pyyaml.MappingGet(h, "args"); a != nil {
		if a.Kind != yaml.SequenceNode {
			cfg.warn(path, ".args must be a list of strings; skipped")
			return p, false
		}
		p.args = []string{}
		for _, item := range a.Content {
			if item.Kind != yaml.ScalarNode || item.Tag == "!!null" || item.Kind == yaml.MappingNode {
				cfg.warn(path, ".args must be a list of strings; skipped")
				return p, false
			}
			p.args = append(p.args, item.Value)
		}
	}
	sh, ok := strOf(h, "shell")
	switch {
	case ok && sh != "" && sh != "bash" && sh != "sh" && sh != "powershell":
		p.spec = &UnsupportedSpec{Type: typ, Why: "a " + sh + " shell command (only bash, sh and powershell run here)"}
	case (sh == "bash" || sh == "powershell") && p.args == nil:
		// powershell: pwsh, else powershell.exe (internal/cmdpin), as
		// Claude Code runs it.
		p.spec = &CommandSpec{Shell: sh}
	default:
		p.spec = &CommandSpec{}
	}
	return p, true
}

// parseHTTPHandler reads an http handler: its URL, headers and the
// variables their values may name.
func parseHTTPHandler(cfg *Config, _, path string, h *yaml.Node) (handlerParts, bool) {
	url, ok := strOf(h, "url")
	if !ok || strings.TrimSpace(url) == "" {
		cfg.warn(path, " is an http handler without a 'url'; skipped")
		return handlerParts{}, false
	}
	s := &HTTPSpec{URL: strings.TrimSpace(url)}
	// An alias (headers: *h, a value *token) is its anchor's value, as
	// PyYAML reads it; read as the alias node it sent nothing.
	if hn := pyyaml.MappingGet(h, "headers"); hn != nil {
		if hn = pyyaml.Deref(hn); hn.Kind == yaml.MappingNode {
			s.Headers = map[string]string{}
			for i := 0; i+1 < len(hn.Content); i += 2 {
				s.Headers[pyyaml.Deref(hn.Content[i]).Value] = pyyaml.Deref(hn.Content[i+1]).Value
			}
		} else {
			cfg.warn(path, ".headers must be a mapping of header names to values; it is sent without them")
		}
	}
	if an := pyyaml.MappingGet(h, "allowedEnvVars"); an != nil {
		if an = pyyaml.Deref(an); an.Kind == yaml.SequenceNode {
			for _, item := range an.Content {
				s.AllowedEnvVars = append(s.AllowedEnvVars, pyyaml.Deref(item).Value)
			}
		} else {
			cfg.warn(path, ".allowedEnvVars must be a list of variable names; no variable is filled in")
		}
	}
	return handlerParts{spec: s, node: h}, true
}

// parseModelHandler reads a prompt or agent handler: it needs a model, so
// it cannot run here; it is shown by its prompt.
func parseModelHandler(_ *Config, typ, _ string, h *yaml.Node) (handlerParts, bool) {
	prompt, _ := strOf(h, "prompt")
	return handlerParts{node: h, spec: &UnsupportedSpec{Type: typ, Why: "a " + typ + " handler: it needs a model",
		Text: strings.TrimSpace(typ + ": " + textutil.Truncate(strings.Join(strings.Fields(prompt), " "), 60))}}, true
}

// parseMCPToolHandler reads an mcp_tool handler: it needs an MCP client,
// so it cannot run here; it is shown by its server and tool.
func parseMCPToolHandler(_ *Config, typ, _ string, h *yaml.Node) (handlerParts, bool) {
	server, _ := strOf(h, "server")
	tool, _ := strOf(h, "tool")
	return handlerParts{node: h, spec: &UnsupportedSpec{Type: typ, Why: "an mcp_tool handler: it needs an MCP client",
		Text: strings.TrimSpace("mcp_tool: " + server + "/" + tool)}}, true
}

// warnUnsupported reports a handler that cannot run here (why), and what
// becomes of it: a guard among such handlers is never skipped silently.
func (cfg *Config) warnUnsupported(path, typ, why string) {
	cfg.warn(path, " has type '"+typ+"': "+why+", so it cannot run here; once approved it blocks PreToolUse calls rather than let a guard be skipped, and is skipped on other events")
}

// mappingGetOr is mappingGet with a null node for a missing key.
func mappingGetOr(n *yaml.Node, key string) *yaml.Node {
	if v := pyyaml.MappingGet(n, key); v != nil {
		return v
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}
}

// shellJoin quotes words so that the string reads (and splits) back into
// them: the consent key of an exec-form command.
func shellJoin(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		if w != "" && !strings.ContainsAny(w, " \t\n'\"\\$`!*?[](){}<>|&;#~") {
			b.WriteString(w)
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(w, "'", `'\''`) + "'")
	}
	return b.String()
}

// strOf is the string value of key in mapping h ("", false: none, or not a
// string).
func strOf(h *yaml.Node, key string) (string, bool) {
	n := pyyaml.MappingGet(h, key)
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		return "", false
	}
	return n.Value, true
}
