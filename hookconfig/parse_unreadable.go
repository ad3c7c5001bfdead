package hookconfig

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// TypeUnreadable is the type of an entry that stands for a fail_closed
// guard hermes-hooks could not read (unreadableGuard).
const TypeUnreadable = "unreadable"

// Unreadable reports an entry that stands for a fail_closed guard that
// cannot be read (unreadableGuard).
func (e *Entry) Unreadable() bool {
	u, ok := e.Spec.(*UnsupportedSpec)
	return ok && u.Type == TypeUnreadable
}

// skipped is an entry or handler the parser skipped with a warning, as
// unreadableGuard reads it: a YAML entry, a Claude Code handler (from the
// YAML, a settings file or an agent's grouped file: handler) or a hook of
// an agent's flat file (codec).
type skipped struct {
	ev       *protocol.Event
	declared string
	// path is where it is written, "FILE: hooks.X[i]…" in an agent's file;
	// why is where the warnings that skipped it are ("": path; a group's
	// path when the group was skipped whole).
	path, why string
	index     int
	node      *yaml.Node
	// raw is a JSON handler, made the node only when it was skipped.
	raw     map[string]any
	dialect protocol.Dialect
	codec   protocol.Codec
	source  string
	// matcher is its group's, for a handler without one of its own.
	matcher string
	// handler: a Claude Code handler, whose own options (async; stop
	// hooks) decide too whether fail_closed is honored.
	handler bool
}

// unreadableGuard is what an entry the parser skipped (with the warnings
// from on) becomes when it says fail_closed on an event where that is
// honored: a handler that cannot run, which on that event blocks the calls
// its matcher selects, naming why. Hermes skips such an entry, as it skips
// any it cannot read, and Claude Code and the other agents a handler they
// cannot read; the call then went through unguarded: the one failure its
// author asked to be refused. Without fail_closed, or where the event
// refuses nothing (an async handler, a stop hook: parseHandlerOptions), it
// stays skipped. It is the one place that decides so, for every shape.
//
// Its fail_closed and matcher are read as for any entry, but quietly (the
// warnings said already why the entry cannot be read); it is listed,
// approved and reported by a summary that names where it is written. The
// caller gives it the scope of its file, as any entry of that file.
func (cfg *Config) unreadableGuard(s skipped, from int) *Entry {
	n := s.node
	if n == nil && s.raw != nil {
		n = toNode(s.raw)
	}
	if n == nil || n.Kind != yaml.MappingNode || from >= len(cfg.Warnings) {
		return nil
	}
	e := &Entry{Event: s.ev, DeclaredAs: s.declared, Index: s.index, Dialect: s.dialect, Codec: s.codec,
		Source: s.source, Timeout: DefaultTimeoutSeconds * time.Second}
	quiet := &Config{Path: cfg.Path, Tools: cfg.Tools}
	quiet.parseFailClosed(e, s.path, n)
	if s.handler {
		quiet.parseHandlerOptions(s.ev, e, s.path, n)
		// once would let a guard refuse one call a session and then
		// vanish: what it guards stays refused.
		e.Once = false
	}
	if !e.FailClosed {
		return nil
	}
	if m := pyyaml.MappingGet(n, "matcher"); m != nil {
		quiet.parseMatcher(e, s.path, m)
	} else if s.matcher != "" {
		quiet.parseMatcher(e, s.path, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s.matcher})
	}
	// In an agent's file the path starts with the file: it is named once,
	// by the guard, and each reason says where in it.
	file := cfg.Path + ": "
	at := s.why
	if at == "" {
		at = s.path
	}
	var why []string
	for _, w := range cfg.Warnings[from:] {
		switch {
		case w.Path == "" && strings.HasPrefix(w.Key, at):
			why = append(why, w.Message) // Hermes' wording names the key
		case w.Path == "" || !strings.HasPrefix(w.Path, at):
		case strings.HasPrefix(w.Message, ".") || strings.HasPrefix(w.Message, " "):
			why = append(why, strings.TrimSpace(strings.TrimPrefix(w.Path, file)+w.Message))
		default: // a message that does not go on from its path
			why = append(why, strings.TrimPrefix(w.Path, file)+": "+w.Message)
		}
	}
	if len(why) == 0 {
		return nil
	}
	where := s.path + " of " + cfg.Path
	if loc, cut := strings.CutPrefix(s.path, file); cut {
		where = loc + " of " + cfg.Path
	} else if n.Line > 0 {
		where = s.path + " (" + cfg.Path + ":" + strconv.Itoa(n.Line) + ")"
	}
	text := "unreadable fail_closed entry " + where
	cannot := "cannot be read: " + strings.Join(why, "; ")
	e.Spec = &UnsupportedSpec{Type: TypeUnreadable, Text: text, Why: cannot}
	e.match = compileMatcher(e, func(string) {})
	e.ready = true
	return e
}

// readOrGuard reads an entry or handler with read; one it skips becomes
// an unreadable guard when it asks for one (unreadableGuard).
func (cfg *Config) readOrGuard(s skipped, read func() *Entry) *Entry {
	from := len(cfg.Warnings)
	if e := read(); e != nil {
		return e
	}
	return cfg.unreadableGuard(s, from)
}

// runByOf is who runs an entry of an agent's file, which that agent
// declares (agents.Agent.RunsItself: runBy): an unreadable guard whose
// type the agent knows (knownType) is one it cannot read either, so it
// runs under every caller, that agent's too: its call would go through
// unguarded otherwise. One of a type hermes-hooks does not know may be a
// newer agent's, which that agent runs itself.
func runByOf(e *Entry, runBy string, knownType bool) string {
	if e.Unreadable() && knownType {
		return ""
	}
	return runBy
}

// loneGuards reads an event's hooks written as one mapping (val) — one
// entry, or one Claude Code group — rather than a list of them: Hermes
// skips it whole (the warnings from on say so), and a guard in it went
// unasked. Each part of it that asks to fail closed stands as an
// unreadable guard; a group's matcher, when it is a string, is kept.
func (cfg *Config) loneGuards(ev *protocol.Event, name string, val *yaml.Node, source string, from int) {
	path := "hooks." + name
	if val.Kind != yaml.MappingNode || !cfg.keysOnce(val, path, nil) {
		return
	}
	dialect := yamlDialect(name)
	add := func(e *Entry) {
		if e != nil && cfg.admit(source) {
			cfg.Entries = append(cfg.Entries, e)
		} else if e != nil {
			cfg.pastCapGuard(val.Line, path, capped{e, everyDialect(true)})
		}
	}
	handlers := pyyaml.MappingGet(val, "hooks")
	if handlers != nil {
		handlers = pyyaml.Deref(handlers)
	}
	if pyyaml.MappingGet(val, "command") != nil || otherKind(val) || handlers == nil || handlers.Kind != yaml.SequenceNode && handlers.Kind != yaml.MappingNode {
		add(cfg.unreadableGuard(skipped{ev: ev, declared: name, path: path, node: val, dialect: dialect, source: source}, from))
		return
	}
	matcher, _ := strOf(val, "matcher")
	list := handlers.Content
	if handlers.Kind == yaml.MappingNode {
		list = []*yaml.Node{handlers} // one handler alone, too
	}
	for k, h := range list {
		hp := fmt.Sprintf("%s.hooks[%d]", path, k)
		if h = pyyaml.Deref(h); cfg.keysOnce(h, hp, nil) {
			add(cfg.unreadableGuard(skipped{ev: ev, declared: name, path: hp, why: path, node: h, dialect: protocol.Claude,
				source: source, matcher: matcher, handler: true}, from))
		}
	}
}
