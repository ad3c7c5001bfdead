package hookconfig

import (
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

// unreadableGuard is what a YAML entry the parser skipped (with the
// warnings from on) becomes when it says fail_closed on an event where
// that is honored: a handler that cannot run, which on that event blocks
// the calls its matcher selects, naming why. Hermes skips such an entry,
// as it skips any it cannot read, and the call then went through
// unguarded: the one failure its author asked to be refused. Without
// fail_closed, or where the event refuses nothing, it stays skipped.
//
// Its fail_closed and matcher are read as for any entry, but quietly (the
// warnings said already why the entry cannot be read); it is listed,
// approved and reported by a summary that names where it is written.
func (cfg *Config) unreadableGuard(ev *protocol.Event, declared, path string, index int, n *yaml.Node, dialect protocol.Dialect, source string, from int) *Entry {
	if n.Kind != yaml.MappingNode || from >= len(cfg.Warnings) {
		return nil
	}
	e := &Entry{Event: ev, DeclaredAs: declared, Index: index, Dialect: dialect, Source: source,
		Timeout: DefaultTimeoutSeconds * time.Second}
	quiet := &Config{Path: cfg.Path, Tools: cfg.Tools}
	quiet.parseFailClosed(e, path, n)
	if !e.FailClosed {
		return nil
	}
	if m := pyyaml.MappingGet(n, "matcher"); m != nil {
		quiet.parseMatcher(e, path, m)
	}
	var why []string
	for _, w := range cfg.Warnings[from:] {
		if strings.HasPrefix(w.Path, path) {
			why = append(why, strings.TrimSpace(w.Path+w.Message))
		}
	}
	if len(why) == 0 {
		return nil
	}
	where := path + " of " + cfg.Path
	if n.Line > 0 {
		where = path + " (" + cfg.Path + ":" + strconv.Itoa(n.Line) + ")"
	}
	text := "unreadable fail_closed entry " + where
	cannot := "cannot be read: " + strings.Join(why, "; ")
	e.Spec = &UnsupportedSpec{Type: TypeUnreadable, Text: text, Why: cannot,
		Refuses: "hook " + text + " " + cannot + "; it says fail_closed, so this tool call is blocked rather than let it through unguarded; fix the entry (hermes-hooks validate names it)"}
	e.match = compileMatcher(e, func(string) {})
	e.ready = true
	return e
}
