package hookconfig

import (
	"errors"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"
	"github.com/hermes-hooks/hermes-hooks/internal/suggest"
	"github.com/hermes-hooks/hermes-hooks/protocol"

	"gopkg.in/yaml.v3"
)

// Rule entries (rule:): a policy rule decided in-process. Only their text
// is read here; the dispatcher compiles a rule when its entry first fires
// (a one-shot `hook` must not pay for compiling every rule of the config),
// and validate compiles them all.

// ruleKinds are the keys that make an entry another kind: a rule entry
// cannot have them (hooks: a matcher group of handlers).
var ruleKinds = []string{"command", "worker", "workers", "worker_idle", "opa", "hooks"}

// otherKind reports a mapping with hooks: that says it is a rule or an
// opa: policy: no matcher group, whose keys but matcher and hooks Claude
// Code ignores (so would the reader, and a fail_closed rule beside them
// would vanish without a word), but an entry of that kind, whose reader
// refuses the hooks: beside it.
func otherKind(n *yaml.Node) bool {
	return pyyaml.MappingGet(n, "rule") != nil || pyyaml.MappingGet(n, "opa") != nil
}

// ruleDecisions are a rule's decisions and the capabilities (any of them)
// each needs of its event. A block on a stop event (CapContinue) keeps the
// agent going with the message, as a hook's does.
var ruleDecisions = []struct {
	name string
	cap  protocol.Capability
	what string
}{
	{RuleBlock, protocol.CapBlock | protocol.CapContinue, "block"},
	{RuleAsk, protocol.CapApprove, "ask the user"},
	{RuleContext, protocol.CapContext, "add context"},
}

// parseRuleEntry reads a rule entry. What would make it mean something
// other than what it says (another kind's key beside rule:, a decision
// its event cannot take, no message) is an error that stops the file from
// loading, naming its line: a guard must not be dropped with a warning.
// The keys every entry has (matcher, timeout, fail_closed, priority, mode,
// skill_commands, examples) are read as for a command.
func (cfg *Config) parseRuleEntry(ev *protocol.Event, declared, path string, index int, n *yaml.Node, dialect protocol.Dialect, codec protocol.Codec, source string) *Entry {
	rn := pyyaml.MappingGet(n, "rule")
	fail := func(at *yaml.Node, msg string) *Entry {
		cfg.loadFail(&ConfigError{Path: source, Line: at.Line, Column: at.Column, Err: errors.New(path + msg)})
		return nil
	}
	for _, k := range ruleKinds {
		if kn := keyNode(n, k); kn != nil {
			return fail(kn, ": rule: and "+k+": cannot be in one entry (a rule decides in-process; write the "+k+" as an entry of its own)")
		}
	}
	if text, ok := pyyaml.OwnText(rn); !ok || strings.TrimSpace(text) == "" {
		return fail(rn, ".rule must be a non-empty string: an expression over the firing, e.g. rule: 'args.command matches \"rm -rf\"'")
	}
	spec := &RuleSpec{Source: strings.TrimSpace(rn.Value), Line: rn.Line, DoubleQuoted: rn.Style&yaml.DoubleQuotedStyle != 0}
	if rn.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		spec.Line++ // rule: | starts on the next line
	}
	if rn.Style == 0 {
		spec.Comment = rn.LineComment
	}
	dn := pyyaml.MappingGet(n, "decision")
	if dn == nil {
		return fail(n, ": a rule needs decision: block, ask or context")
	}
	spec.Decision = strings.ToLower(strings.TrimSpace(dn.Value))
	known := false
	for _, d := range ruleDecisions {
		if dn.Kind == yaml.ScalarNode && spec.Decision == d.name {
			known = true
			if !ev.Can(d.cap) {
				return fail(dn, ".decision: "+d.name+" is not possible on "+declared+" (its hooks cannot "+d.what+")")
			}
		}
	}
	if !known {
		msg := ".decision must be block, ask or context; got " + pyyaml.Repr(dn)
		if near := suggest.ClosestCutoff(spec.Decision, []string{RuleBlock, RuleAsk, RuleContext}, 0.6); near != "" && dn.Kind == yaml.ScalarNode {
			msg += " (did you mean '" + near + "'?)"
		} else if spec.Decision == "deny" {
			msg += denyIsBlock
		}
		return fail(dn, msg)
	}
	mn := pyyaml.MappingGet(n, "message")
	if text, ok := pyyaml.OwnText(mn); !ok || strings.TrimSpace(text) == "" {
		at := n
		if mn != nil {
			at = mn
		}
		return fail(at, ".message must be a non-empty string (the reason shown for a block or ask, the text of a context)")
	}
	spec.Message = strings.TrimSpace(mn.Value)
	if in := pyyaml.MappingGet(n, "id"); in != nil {
		if in.Kind != yaml.ScalarNode || in.Tag != "!!str" || !validRuleID(in.Value) {
			return fail(in, ".id must be a name of 1 to 128 letters, digits and . _ - / : (how the journal and export name the rule)")
		}
		if placeShaped(in.Value) {
			return fail(in, ".id "+in.Value+" ends in :NUMBER, a file and line, which is how a rule without an id is named (/etc/hermes-hooks/config.yaml:12): log --hook, replay and export would show it as the rule at that place; name it otherwise (no-rm-rf, team/no-rm-rf:v2)")
		}
		spec.ID = in.Value
	}
	e := &Entry{
		Event:      ev,
		DeclaredAs: declared,
		Index:      index,
		Timeout:    DefaultTimeoutSeconds * time.Second,
		Dialect:    dialect,
		Codec:      codec,
		Source:     source,
		Spec:       spec,
	}
	// A rule's timeout is hermes-hooks' own key, not Hermes': seconds
	// with fractions (0.2), since a rule's bound is below a second; read
	// as Hermes' whole seconds it could never shorten it, and 0.2 was
	// refused as "below 1" (parseRuleTimeout).
	cfg.parseEntryKeys(e, path, n, dialect)
	return cfg.finishEntry(e, path, n)
}

// validRuleID reports whether id can name a rule in a journal line, a
// syslog structured-data value and an OTLP attribute as it is.
func validRuleID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("._-/:", c)) {
			return false
		}
	}
	return true
}

// placeShaped reports whether id ends in ":" and digits, the form of
// the name a rule without an id gets (Identity: its file and line). A
// repository's rule spelt so would read, wherever rules are named, as
// the user's rule at that place.
func placeShaped(id string) bool {
	i := strings.LastIndexByte(id, ':')
	if i < 0 || i == len(id)-1 {
		return false
	}
	for _, c := range id[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// ruleKeysElsewhere warns of a rule's keys on an entry that is no rule.
// An opa: entry runs no command: what decides is named as it is.
func (cfg *Config) ruleKeysElsewhere(path string, n *yaml.Node) {
	decides := " (a command decides by its reply)"
	if pyyaml.MappingGet(n, "opa") != nil {
		decides = " (an opa: entry decides by OPA's answer)"
	}
	cfg.keysOnlyOn(path, n, []string{"decision", "message", "id"}, "rule:", decides)
}

// keysOnlyOn warns of the keys of n read on entries of one kind only
// (kind) on an entry of another: they are ignored there (entryKeys lists
// them, so no other warning does); why ends each warning.
func (cfg *Config) keysOnlyOn(path string, n *yaml.Node, keys []string, kind, why string) {
	for _, k := range keys {
		if pyyaml.MappingGet(n, k) != nil {
			cfg.warn(path, "."+k+" is read on "+kind+" entries only; ignoring it"+why)
		}
	}
}

// keyNode is the key node of k in mapping n (nil: absent), for its line.
// (A key given twice in an entry is refused before its kind is read:
// keysOnce.)
func keyNode(n *yaml.Node, k string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == k {
			return n.Content[i]
		}
	}
	return nil
}

// Rule is the entry's rule (nil unless it is a rule entry).
func (e *Entry) Rule() *RuleSpec {
	r, _ := e.Spec.(*RuleSpec)
	return r
}

// NeedsApproval reports whether the entry runs only once approved: every
// entry but a rule of the user's own config, which is data the user wrote
// and runs nothing. A repository's rule is approved like its hooks; a
// bundle's rule by the bundle's signature, which the gate checks against
// the fragment as installed (an edited fragment is drift).
//
// An entry of the user's own config that stands for a fail_closed guard
// that cannot be read (unreadableGuard) runs nothing and only blocks: it
// needs none either. A repository's is approved like its hooks: an
// unapproved guard of a repository is skipped, and one that cannot be
// read must not be a way to block every call without an approval.
func (e *Entry) NeedsApproval() bool {
	if e.Unreadable() && e.Scope.Global() && e.Scope.Bundle == "" {
		return false
	}
	return e.Rule() == nil || !e.Scope.Global() || e.Scope.Bundle != ""
}

// SameRuleApproval reports whether rules a and b, of one repository and
// event with one expression, are approved alike: what an approval pins
// beside the expression (decision, message, id, mode) is the same, so one
// approval covers both (they differ only where no approval looks, such as
// the matcher). approve holds to it too, so that it never says it approved
// two rules of which one approval can hold only one.
func SameRuleApproval(a, b *Entry) bool {
	ar, br := a.Rule(), b.Rule()
	return ar != nil && br != nil && ar.Decision == br.Decision && ar.Message == br.Message && ar.ID == br.ID && a.Shadow == b.Shadow
}

// sharedRuleApprovals warns of a repository's rule whose approval another
// rule of that repository and event already holds: an approval is keyed
// by the event, the expression (the entry's Text) and the repository, with
// the decision, message, id and shadow mode pinned, so of two rules with
// one expression and other decisions, messages, ids or modes (an
// enforcing copy beside a shadow one; a copy renamed with another id:)
// only one can be approved at a time (the other reads as changed since
// approval, and a fail_closed one refuses what it matches, or, by its
// id, what the other's matcher selects). Entries are in config order;
// duplicates are skipped.
func (cfg *Config) sharedRuleApprovals(e *Entry, first map[string]*Entry) {
	r := e.Rule()
	if r == nil || !e.NeedsApproval() {
		return
	}
	key := e.DeclaredAs + "\x00" + e.Text() + "\x00" + e.Scope.Project
	f, ok := first[key]
	if !ok {
		first[key] = e
		return
	}
	if SameRuleApproval(f, e) {
		return // the same rule under another matcher: one approval covers both
	}
	cfg.warnBeside(e, f, func(was string) string {
		return "has the same expression as " + was + " with another decision, message, id or mode: a repository's rule is approved by its expression, " +
			"so only one of them can be approved at a time (the other is changed since approval); make the expressions differ, or merge the rules"
	})
}

// duplicateRuleID warns of a rule whose id: an earlier rule of the config
// has (first: the rule each id was first given to). The journal's "rule",
// `log --hook` and export name a rule by its id, so two rules under one
// id would read as one there. The same rule under another matcher may
// share its id: it is one rule.
func (cfg *Config) duplicateRuleID(e *Entry, first map[string]*Entry) {
	r := e.Rule()
	if r == nil || r.ID == "" {
		return
	}
	f, ok := first[r.ID]
	if !ok {
		first[r.ID] = e
		return
	}
	if f.Text() == e.Text() && SameRuleApproval(f, e) {
		return
	}
	if IsBuiltin(e.Source) && !IsBuiltin(f.Source) {
		e, f = f, e // said where the id can be changed: not in the binary
	}
	cfg.warnBeside(e, f, func(was string) string {
		return "id: " + r.ID + " is also the id of another rule, " + was + ": the journal, log --hook and export name a rule by its id, so the two would read as one; give each its own"
	})
}

// warnBeside warns of entry e at its key in its file, in words about f,
// an earlier entry it clashes with: msg is given f's key (and f's file,
// when it is another).
func (cfg *Config) warnBeside(e, f *Entry, msg func(was string) string) {
	at, was := entryKeyPath(e), entryKeyPath(f)
	if f.Source != e.Source {
		was += " of " + f.Source
	}
	cfg.Warnings = append(cfg.Warnings, Warning{Path: e.Source + ": " + at, File: e.Source, Key: at, Message: msg(was)})
}
