package dispatcher

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/internal/hookproc"
	"github.com/hermes-hooks/hermes-hooks/internal/rule"
	"github.com/hermes-hooks/hermes-hooks/internal/termsafe"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// ruleKind is a policy rule (hookconfig.RuleSpec): an expression over the
// firing, decided in-process by internal/rule, no process started. A true
// rule contributes its decision (block, ask, or context) with its message;
// a false one, nothing. An evaluation error or a rule past its time bound
// is a failed hook: it blocks a gating event when fail_closed, and is
// reported (journal, log, doctor) like any failed hook otherwise.
//
// The rule is compiled once, when its entry is first selected for a firing
// (New maps each entry to one ruleKind): a one-shot `hook` pays only for
// the rules its firing reaches. A rule that does not compile fails as an
// evaluation error; validate reports it with its file and line.
//
// Rules are entries like any other in the fold: in config order, in the
// priority tiers of runTiers. A rule's block keeps the tiers after it from
// starting, as a process's block does; within one tier every entry runs
// (a process hook's side effects do not depend on a rule's answer).
// When a hook of the firing rewrites the call, its block and ask rules
// judge the rewritten call again after the fold (rejudge.go).
// In runTiers a tier's rules are decided together (run_rules.go: one pass,
// one bound, one rule.Input), and so are those judging a rewrite again;
// run is the path of a transform chain and of RunEntry.
type ruleKind struct {
	spec *hookconfig.RuleSpec
	once sync.Once
	r    *rule.Rule
	err  error
	// warned: a rule that does not compile has been said on d's warnings
	// (at its first selection, whoever compiled it).
	warned sync.Once
	// ready is set once r and err are (RuleDisabled reads r without
	// compiling a rule no firing reached).
	ready atomic.Bool
}

func ruleKindOf(s hookconfig.Spec) hookKind {
	if r, ok := s.(*hookconfig.RuleSpec); ok {
		return &ruleKind{spec: r}
	}
	return nil
}

// fixed: a rule runs no file; it is approved (when it needs approval: a
// repository's) by its text, with its decision, message and shadow mode
// pinned, so a changed rule needs a new approval.
func (k *ruleKind) fixed(e *hookconfig.Entry) *cmdpin.Target {
	return &cmdpin.Target{Opaque: "a rule, decided in-process: its expression, decision and message are pinned", Spec: ruleSpec(k.spec, e.Shadow)}
}

func (*ruleKind) cannotRun() string { return "" }

// ruleSpec is the canonical text of what a rule decides: its expression,
// decision and message, each Go-quoted so no two rules share a text — and
// its id: when it has one (what the journal and export name it by: a
// repository renaming an approved rule, or taking another rule's name, is
// a change). A rule without an id keeps the text approvals were given for
// before ids existed. A shadow rule says so: approved as one, it decided
// nothing, and turned to enforce it would (a `true` rule's context on
// every call), so that is a change too; an enforcing rule's text is the
// one approvals were given for before modes were pinned.
func ruleSpec(s *hookconfig.RuleSpec, shadow bool) string {
	b := make([]byte, 0, len(s.Source)+len(s.Decision)+len(s.Message)+len(s.ID)+72)
	b = append(b, "rule\nexpr "...)
	b = appendQuote(b, s.Source)
	b = append(b, "\ndecision "...)
	b = appendQuote(b, s.Decision)
	b = append(b, "\nmessage "...)
	b = appendQuote(b, s.Message)
	if s.ID != "" {
		b = append(b, "\nid "...)
		b = appendQuote(b, s.ID)
	}
	if shadow {
		b = append(b, "\nmode \"shadow\""...)
	}
	return string(b)
}

// appendQuote is strconv.AppendQuote, which reads each character for
// whether it is printable (a third of what the rules of a one-shot hook
// cost to gate): a string of printable ASCII needs only \ and " escaped.
func appendQuote(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return strconv.AppendQuote(b, s)
		}
	}
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}

// compiled is the rule, compiled the first time d selects e (or before,
// by CompileRules). A rule that does not compile is said once on d's
// warnings when first selected, as a matcher that does not compile is: a
// mistake in the config, not a failure of one firing.
func (k *ruleKind) compiled(d *Dispatcher, e *hookconfig.Entry) (*rule.Rule, error) {
	r, err := k.compile()
	if err != nil {
		k.warned.Do(func() {
			// fail_closed makes the failure a refusal of every call the
			// rule selects, not nothing: the warning must not say
			// otherwise (a shadow rule's refusal is only recorded).
			then := "so it decides nothing"
			if e.FailClosed && !e.Shadow {
				then = "so, fail_closed, it refuses every call it selects"
			}
			d.warn("rule" + ruleAt(e) + " does not compile, " + then + " (hermes-hooks validate shows it): " + err.Error())
		})
	}
	return r, err
}

// compile compiles the rule, once for the dispatcher's life.
func (k *ruleKind) compile() (*rule.Rule, error) {
	k.once.Do(func() {
		if testRuleCompile != nil {
			testRuleCompile(k.spec.Source)
		}
		k.r, k.err = rule.Compile(k.spec.Source)
		k.ready.Store(true)
	})
	return k.r, k.err
}

// CompileRules compiles every rule of d's config now rather than at its
// first selection, and calls bad, in config order, with each one that
// does not compile and why. It is for a long-lived host that says so when
// a config goes into service (serve's reload): its check is then the
// compilation every firing uses, where it compiled each rule once more.
// The warning on Options.Warn still comes when a firing first selects
// the rule. A one-shot does not call it: it compiles only the rules its
// firing reaches.
//
// A rule that needs approval (a repository's) is compiled for the check
// only, not kept: whether it may run is the gate's to say at a firing,
// and held from here the rules of a repository nobody approved kept their
// compiled patterns for the host's life (hundreds of MB for one hostile
// file under serve --user, per project). An approved one is compiled
// again, and kept, when a firing first selects it.
func (d *Dispatcher) CompileRules(bad func(e *hookconfig.Entry, err error)) {
	for _, e := range d.cfg.Entries {
		k, ok := d.kinds[e].(*ruleKind)
		if !ok {
			continue
		}
		var err error
		if e.NeedsApproval() && !k.ready.Load() {
			_, err = rule.Compile(k.spec.Source)
		} else {
			_, err = k.compile()
		}
		if err != nil {
			bad(e, err)
		}
	}
}

// RuleDisabled reports whether a rule of d's config is disabled now. A
// rule past its time bound is disabled until its evaluation ends
// (internal/rule), and in a long-lived dispatcher (serve) that spans other
// firings: each gets the rule's failure where a process of its own would
// decide the rule. serve asks this before it answers a call forwarded by
// `hermes-hooks hook`, which can decide by itself instead.
func (d *Dispatcher) RuleDisabled() bool {
	for _, k := range d.kinds {
		if k, ok := k.(*ruleKind); ok && k.ready.Load() && k.r != nil && k.r.Disabled() {
			return true
		}
	}
	return false
}

// testRuleEval and testRuleCompile, when a test sets them, are called for
// every evaluation that starts and every compilation: what proves an
// unapproved rule never evaluates, and that only the rules a firing
// reaches are compiled, once.
var testRuleEval, testRuleCompile func(src string)

func (k *ruleKind) run(ctx context.Context, d *Dispatcher, ev *protocol.Event, h Invocation, _ []byte) ran {
	start := time.Now()
	r, err := k.compiled(d, h.Entry)
	var ok bool
	if err == nil {
		if testRuleEval != nil {
			testRuleEval(k.spec.Source)
		}
		if testRuleInput != nil {
			testRuleInput()
		}
		f := d.ruleFiring(runEvent(ev, h.Entry), h)
		ectx, cancel := context.WithTimeout(ctx, min(h.Entry.Timeout, rule.DefaultTimeout))
		ok, err = r.Eval(ectx, rule.InputOf(&f, callingAgent(ctx)))
		cancel()
	}
	return k.answer(ev, h.Entry, ok, err, time.Since(start))
}

// ruleFiring is the firing a rule of h decides under rev: the host's
// fields bound as the dispatcher binds them, in the firing's own
// directory.
func (d *Dispatcher) ruleFiring(rev *protocol.Event, h Invocation) protocol.Firing {
	f := protocol.NewFiring(rev, "", h.fields)
	d.bind(&f)
	if h.cwd != "" {
		// The firing's own binding: the same directory whether it came
		// from the host's fields, the dispatcher, or a replay's record.
		f.Cwd = h.cwd
	}
	return f
}

// answer is what a rule's evaluation (ok, err) makes of e's run.
func (k *ruleKind) answer(ev *protocol.Event, e *hookconfig.Entry, ok bool, err error, elapsed time.Duration) ran {
	out := ran{res: hookproc.Result{Elapsed: elapsed}}
	switch {
	case err == nil:
		out.decided = true
		if ok {
			out.direct = ruleContribution(k.spec)
			if rev := runEvent(ev, e); rev != ev {
				out.direct = ev.Adopt(out.direct)
			}
		}
	case errors.Is(err, rule.ErrTimeout) || errors.Is(err, rule.ErrQuarantined):
		out.res.SpawnError = "rule evaluation stopped: " + err.Error()
		// Past its bound, or never started as its call's rules had none
		// left (ErrNotStarted): a timeout, counted as a command's is.
		// Quarantined (disabled while an earlier firing's evaluation
		// still runs past its bound) is not: this firing ran past
		// nothing, and that earlier firing counted the timeout; it is
		// an error, as it was.
		out.timedOut = errors.Is(err, rule.ErrTimeout)
	case k.r == nil:
		out.res.SpawnError = "rule does not compile" + ruleAt(e) + ": " + err.Error()
	default:
		out.res.SpawnError = "rule evaluation failed: " + err.Error()
	}
	return out
}

// ruleAt is where a rule is written, " (FILE:LINE)" (a repository's:
// " (line N)", rulePlace), "" when unknown.
func ruleAt(e *hookconfig.Entry) string {
	if at := rulePlace(e); at != "" {
		return " (" + at + ")"
	}
	return ""
}

// rulePlace is where a rule is written (FILE:LINE), "" when unknown.
// The reason goes to the model: for a rule that needs approval only its
// line ("line N"), as the approval pins the rule's text and not the file
// it is kept in, so a repository could rename an approved rule's file to
// words of its own; the record's source and validate name the file.
func rulePlace(e *hookconfig.Entry) string {
	r := e.Rule()
	switch {
	case r == nil || r.Line == 0:
		return ""
	case e.NeedsApproval():
		return "line " + strconv.Itoa(r.Line)
	case e.Source == "":
		return ""
	}
	return e.Source + ":" + strconv.Itoa(r.Line)
}

// shownStart is how many code points of a long rule a
// reply's message quotes beside its place: a reminder of the rule should
// its file have changed since, where the 120 a command gets were a wall
// of escaped pattern that hid the place after it.
const shownStart = 24

// ShownHook is how a reply's messages (a fail_closed refusal, an
// ambiguous reply) name e: its text as consent.ShownCommand shows it, and a
// rule's id, the name log, replay and export give it. A rule whose text is
// cut (or escaped) is named by its id, else its place ("rule at
// FILE:LINE"), and the short start of its text: a ready-made rule's
// pattern runs to hundreds of characters, and its first 120 do not say
// which rule of which file refused, nor read as anything a person can act
// on.
func ShownHook(e *hookconfig.Entry) string {
	shown := consent.ShownCommand(e.Text())
	r := e.Rule()
	if r == nil {
		return shown
	}
	if shown == e.Text() {
		if r.ID != "" {
			shown += " (" + r.ID + ")" // letters, digits and ._-/: only
		}
		return shown
	}
	name := r.ID
	if name == "" {
		if at := rulePlace(e); at != "" {
			name = "at " + termsafe.Escape(at)
		}
	}
	if name == "" {
		return shown
	}
	return "rule " + name + " (" + termsafe.Escape(textutil.Truncate(r.Source, shownStart)) + ")"
}

// callingAgent is the agent a dispatch was made for (CalledBy's first
// name: a host that runs several agents' files names the agent first),
// "" when it was not made for one.
func callingAgent(ctx context.Context) string { return protocol.FirstCaller(caller(ctx)) }

// ruleContribution is what a true rule asks for.
func ruleContribution(s *hookconfig.RuleSpec) *protocol.Contribution {
	switch s.Decision {
	case hookconfig.RuleAsk:
		return &protocol.Contribution{Decision: protocol.DecisionAsk, Message: s.Message}
	case hookconfig.RuleContext:
		return &protocol.Contribution{Context: s.Message}
	}
	return &protocol.Contribution{Decision: protocol.DecisionBlock, Message: s.Message}
}
