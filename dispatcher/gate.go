package dispatcher

import (
	"slices"
	"time"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/internal/termsafe"
)

// VerdictKind is what a Gate decided for one hook.
type VerdictKind uint8

const (
	// VerdictSkip: the hook does not run; Verdict.Reason says why.
	VerdictSkip VerdictKind = iota
	// VerdictRun: the hook runs.
	VerdictRun
	// VerdictBlock: the hook does not run, and the firing is blocked with
	// Verdict.Reason: a fail-closed guard whose consent cannot be confirmed
	// (its files changed since approval, or the allowlist is unreadable)
	// must not silently stop protecting.
	VerdictBlock
)

// Verdict is a Gate's answer for one hook.
type Verdict struct {
	Kind VerdictKind
	// Reason says why a hook does not run (or why it blocks); it lands in
	// the hook's report.
	Reason string
	// Unapproved marks a skip because nobody approved the hook as it is
	// now (never approved, revoked, or changed since approval): a
	// repository's such hooks are counted in Outcome.Unapproved.
	Unapproved bool

	// pins, when set, holds the files the gate checked, open: the runner
	// verifies them immediately before it starts the hook and starts a
	// pinned binary through its descriptor. The dispatcher closes it. Only
	// ConsentGate pins (a host's own Gate cannot make the internal type,
	// so it is not part of the host API).
	pins *cmdpin.Pins
}

// Run reports whether the hook may run.
func (v Verdict) Run() bool { return v.Kind == VerdictRun }

// Gate decides whether a hook may run. The dispatcher asks it for every
// matching hook of every firing and never runs a hook it refuses; the policy
// (allowlist, accept channels, drift) lives behind it, in package consent.
type Gate interface {
	Check(h Invocation) Verdict
}

// Invocation is one entry about to run in one firing: where and how it will run,
// so that the gate checks the very files that would be executed.
type Invocation struct {
	Entry *hookconfig.Entry
	// Dir is the directory the hook starts in, where a relative script path
	// is found: the entry's own, the session's cwd for Claude hooks, else
	// Options.Cwd. The dispatcher always sets it.
	Dir string
	// ProjectDir is CLAUDE_PROJECT_DIR for Claude-dialect hooks.
	ProjectDir string
	// Env is the hook's environment.
	Env []string
	// target is what the command runs (cmdpin.Resolve), worked out once:
	// the gate pins its files and the runner starts it. Hosts see it
	// through Files and TextOnly, not as the internal type.
	target cmdpin.Target
	// text is the command text as its agent runs it (agentCommand; "":
	// the entry's), what target was resolved from.
	text string

	pins *cmdpin.Pins // the gate's pinned files, for the runner
	kind hookKind     // how it runs (kind.go), mapped once
	// undecided, when set, says why the entry's matcher could not tell
	// whether it accepts the firing (the backtracking engine ran out of
	// time; see matcher.fits): the hook fails as one that cannot start,
	// with this as its error.
	undecided string
	// fields are what the hook fires with, set by runInto (a transform
	// chain's rewrites included): what an in-process kind decides from.
	fields map[string]any
	// cwd is the firing's bound working directory (protocol.Firing.Cwd),
	// for an in-process kind: the firing's fields alone cannot say it
	// when the host named none (then it is the dispatcher's, or a
	// replay's recorded one).
	cwd string
	// budgetEnd, when set, is when the event's shared budget ends
	// (budget.go): the hook's timeout ends then at the latest.
	budgetEnd time.Time
}

// hookKind is the hook's kind: as hookFor mapped it, else its entry's
// (d's, when d is not nil).
func (h *Invocation) hookKind(d *Dispatcher) hookKind {
	switch {
	case h.kind != nil:
		return h.kind
	case d != nil:
		return d.kindOf(h.Entry)
	}
	return kindOf(h.Entry)
}

// Files are the local files the hook's command runs or hands to an
// interpreter, absolute, the primary script first: what a host's Gate
// compares with what it approved. None when the hook starts no local file
// (an http hook) or when they cannot be told (TextOnly says why).
func (h Invocation) Files() []string { return slices.Clone(h.target.Files) }

// TextOnly says why the files the command runs cannot be told (a compound
// shell command, a make target, python -m), "" when they can: such a hook
// can be approved by its text only, and an edit to what it runs goes
// unnoticed.
func (h Invocation) TextOnly() string { return h.target.Opaque }

// GateFunc adapts a function to Gate.
type GateFunc func(h Invocation) Verdict

// Check calls f.
func (f GateFunc) Check(h Invocation) Verdict { return f(h) }

// AllowAll runs every hook. It exists for tests and for `hermes-hooks
// test`, which runs unapproved hooks on purpose; a host must never use it.
var AllowAll Gate = GateFunc(func(Invocation) Verdict { return Verdict{Kind: VerdictRun} })

// ConsentGate is the Gate hosts use: every hook goes through the consent
// policy (allowlist, content drift, accept channels, the prompt of a
// dispatch at a terminal, safe mode).
// Where each hook runs comes with it (Invocation.Dir), so the policy checks the
// files the runner will start.
//
// A fail-closed entry whose consent cannot be confirmed — approved, but a
// file it runs changed or vanished since; or the allowlist cannot be read —
// blocks with a clear reason instead of being skipped: an approved guard
// must not be switched off by editing its script or breaking the allowlist.
// A fail-closed entry of the user's own config that nobody approved blocks
// too, naming the command that approves it; a repository's is skipped like
// any of its hooks (a repository cannot make every call refused).
func ConsentGate(p *consent.Policy) ScopedGate { return consentGate{p} }

// consentGate is ConsentGate's Gate; it also screens a repository's hooks
// before their matchers run (screener), and tells whether a project's
// hooks could run at all (ScopedGate).
type consentGate struct{ p *consent.Policy }

// MayRunIn asks the policy whether any hook of the project could run.
func (g consentGate) MayRunIn(project string) bool { return g.p.MayRunIn(project) }

// Check decides one hook (see ConsentGate).
func (g consentGate) Check(h Invocation) Verdict {
	p := g.p
	e := h.Entry
	if !e.NeedsApproval() {
		// A rule of the user's own config: data they wrote, which runs
		// nothing (hookconfig.Entry.NeedsApproval). Safe mode still
		// runs nothing of the user's; the managed layer's rules are the
		// administrator's, which no user setting switches off. An entry
		// that needs no approval yet cannot run here (the user's
		// fail_closed entry that cannot be read: NeedsApproval) runs
		// nothing either: it only blocks, in safe mode too, so that what
		// it guards stays refused. The gate phase blocks it (cannotRun).
		if why := e.CannotRun(); why != "" {
			return Verdict{Kind: VerdictRun, Reason: "runs nothing: it " + why + ", so it only blocks (needs no approval)"}
		}
		if p.SafeMode && !e.Scope.Managed {
			return Verdict{Kind: VerdictSkip, Reason: "safe mode (HERMES_SAFE_MODE)"}
		}
		if e.Scope.Managed {
			return Verdict{Kind: VerdictRun, Reason: "a rule of the managed config (approved by being there)"}
		}
		return Verdict{Kind: VerdictRun, Reason: "a rule of your own config (needs no approval)"}
	}
	ch := entryRequest(e)
	ch.Shell, ch.Env, ch.Dir = e.ViaShell(), h.Env, h.Dir
	ch.Target = &h.target
	ch.Guard = e.FailClosed && e.Event.FailsClosed()
	v := p.Decide(ch)
	verdict := g.refusal(h, v)
	// What a refusal says reaches the agent, the model, the journal and a
	// terminal: whatever it quotes (a drift's file name, the allowlist's
	// path) is shown escaped; the hook's own text is cut too (shown).
	verdict.Reason = termsafe.Escape(verdict.Reason)
	return verdict
}

// agentMustNot ends every refusal that names an approve command. The
// refusal reaches the model, which follows instructions: told to run
// approve, it would approve the very hook that refuses, a hostile
// repository's included. Consent must come from the person, so the
// refusal addresses them and says so to the agent.
const agentMustNot = "an agent must not approve hooks for them"

// refusal turns the policy's verdict v on h into the gate's (see
// ConsentGate). It quotes the hook's text as consent.ShownCommand shows it
// and offers consent.ApproveHint: a hostile repository's command reaches
// the reply cut and escaped, and the approve line works when run.
func (g consentGate) refusal(h Invocation, v consent.Verdict) Verdict {
	p, e := g.p, h.Entry
	if v.Run {
		if v.TextOnlyAck || h.hookKind(nil).cannotRun() != "" || !consent.NeedsTextOnlyAck(e.FailClosed, &h.target) {
			return Verdict{Kind: VerdictRun, Reason: v.Reason, pins: v.Pins}
		}
		// Its approval pins nothing it runs, and nobody said that was
		// meant: an older approval, or a command that became opaque.
		v.Pins.Close()
		return Verdict{Kind: VerdictBlock, Reason: "guard " + consent.ShownCommand(e.Text()) + " is approved by its text only (" + v.TextOnly +
			"): the files it runs cannot be pinned, so an edit to them would run unnoticed; it blocks until the user reviews it and approves it knowingly at their own terminal (" +
			consent.ApproveTextOnlyHintFor(e.DeclaredAs, e.Text(), e.Scope) + "); " + agentMustNot}
	}
	// Worded only for a hook that does not run: the common case builds
	// neither.
	shown := consent.ShownCommand(e.Text())
	hint := consent.ApproveHint(e.DeclaredAs, e.Text(), e.Scope)
	switch {
	case e.Scope.Bundle != "" && (!p.SafeMode || e.ManagedBundle) && e.Event.FailsClosed():
		// A verified bundle's hook that no longer matches its signed
		// manifest (or cannot be checked): fails closed, guard or not,
		// naming the file (consent/bundle.go).
		return Verdict{Kind: VerdictBlock, Reason: "bundle hook " + shown + " refused: " + v.Reason}
	case e.Scope.Bundle != "":
		return Verdict{Kind: VerdictSkip, Reason: v.Reason}
	case e.FailClosed && v.Approved && v.Drift == consent.DriftHash:
		// Changed says what changed (and that it changed since
		// approval); the hint follows it once, not v.Reason's own.
		if r := e.Rule(); r != nil && r.ID != "" && !e.Scope.Global() {
			// A repository's rule is changed in its text, which
			// nobody approved: the refusal (which the model reads)
			// names it by its approved id and its line; Changed
			// quotes the approved text.
			shown = "rule " + r.ID + ruleAt(e)
		}
		if consent.NeedsTextOnlyAck(e.FailClosed, &h.target) {
			// Now text only: approved without the flag it would go on
			// blocking, as unacknowledged text only.
			hint = consent.ApproveTextOnlyHintFor(e.DeclaredAs, e.Text(), e.Scope)
		}
		return Verdict{Kind: VerdictBlock, Reason: "guard " + shown + " refused: " + v.Changed +
			"; it blocks until the user reviews it and re-approves it at their own terminal (" + hint + "); " + agentMustNot}
	case e.FailClosed && !v.Approved && v.Unknown:
		return Verdict{Kind: VerdictBlock, Reason: "guard " + shown + " cannot be confirmed approved: the allowlist " +
			p.Store.Path() + " cannot be read or is corrupt; it blocks until the user fixes the allowlist or re-approves the guard at their own terminal (" + hint + "); " + agentMustNot}
	case e.FailClosed && v.Unapproved && e.Scope.Global() && e.Event.FailsClosed():
		// The user's own guard, never approved (or revoked): refused, not
		// skipped, with what to run (issue 32, item 2). A repository's
		// unapproved guard never runs and refuses nothing: it is skipped
		// below, as a repository cannot make every call refused.
		return Verdict{Kind: VerdictBlock, Reason: "guard " + shown + " is not approved, so what it guards is refused until the user reviews it and approves it at their own terminal (" + hint + "); " + agentMustNot}
	case v.Unapproved && v.Unknown:
		// Not a guard that blocks, but its approval could not be
		// checked: the report (and the journal) must say so, not call
		// it merely unapproved.
		return Verdict{Kind: VerdictSkip, Reason: "consent unknown: the allowlist " + p.Store.Path() + " cannot be read or is corrupt, so it was not run"}
	case v.Unapproved:
		// The policy's warning (Hermes' wording) already went to the
		// user; the report keeps the short form.
		return Verdict{Kind: VerdictSkip, Reason: "not allowlisted (approve with: " + hint + ")", Unapproved: true}
	}
	// Changed since approval: not approved as it is now.
	return Verdict{Kind: VerdictSkip, Reason: v.Reason, Unapproved: v.Approved && v.Drift == consent.DriftHash}
}

// screen implements screener.
func (g consentGate) screen() consent.Screen { return g.p.Screen() }

// screener is a Gate that can refuse a repository's entries before their
// matchers run: what its screen refuses, Check would skip whatever the
// firing (a hook nobody approved), so the entry costs the dispatch nothing
// — neither its matcher (which a repository may make slow) nor resolving
// and hashing what it runs. Only ConsentGate is one; any other Gate sees
// every matching entry.
type screener interface {
	// screen is the screen for one firing, taken before selection.
	screen() consent.Screen
}

// ConsentRequest describes an entry to the consent package as `list`, `doctor`
// and `approve` see it, run from cwd with no host fields: approvals are
// keyed by the event name as declared, the command string and the entry's
// scope; what it runs is resolved where the hook would run, with the
// dispatcher's environment (and CLAUDE_PROJECT_DIR for Claude-dialect
// hooks) — env nil means the process's own environment.
func ConsentRequest(e *hookconfig.Entry, cwd string, env []string) consent.Request {
	dir := e.WorkDir
	if dir == "" {
		dir = cwd
	}
	if env == nil {
		env = hookBaseEnv(nil)
	}
	project := dir
	if e.ViaShell() {
		project = projectOf(e, env, dir)
		env = projectEnv(e, env, project)
	}
	c := commandOf(e, env, dir)
	text := c.Text
	spec := agentCommand(e, &c, project, "")
	r := entryRequest(e)
	r.Dir, r.Env = dir, c.Env
	r.Shell, r.Argv, r.ShellPath = c.Shell, c.Argv, c.ShellPath
	r.Target = kindOf(e).fixed(e)
	if r.Target == nil && (c.Prefix != "" || c.Text != text || spec != "") {
		// A Request has no prefix, rewritten text or variables of its own
		// for consent to resolve from: what the hook runs is resolved
		// here, as the dispatcher resolves it (hookFor).
		t := resolveTarget(c, spec)
		r.Target = &t
	}
	return r
}

// entryRequest is the part of a consent request that is e's own: what it
// is approved as (event, text, scope), the file it is written in when
// that is not its scope's (a repository's rule file: the warnings name
// it) and, for a bundle's hook, the keys its bundle must be signed by.
func entryRequest(e *hookconfig.Entry) consent.Request {
	r := consent.Request{Event: e.DeclaredAs, Command: e.Text(), Scope: e.Scope, BundleKeys: e.BundleKeys, ManagedBundle: e.ManagedBundle}
	if e.Source != e.Scope.Source {
		r.File = e.Source
	}
	r.RuleID = ruleID(e)
	return r
}

// ruleID is the id: of a repository's rule ("" for anything else): its
// approval records it (consent.Request.RuleID).
func ruleID(e *hookconfig.Entry) string {
	if r, ok := e.Spec.(*hookconfig.RuleSpec); ok && !e.Scope.Global() {
		return r.ID
	}
	return ""
}
