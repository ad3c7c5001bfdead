package consent

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
)

// isTruthy is Hermes' reading of an opt-in string: 1, true, yes or on, after
// trimming, in any case.
func isTruthy(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// SafeMode reports whether a HERMES_SAFE_MODE value turns hooks off.
func SafeMode(env string) bool { return isTruthy(env) }

// EnvAccept reports whether a HERMES_ACCEPT_HOOKS value accepts hooks.
func EnvAccept(env string) bool { return isTruthy(env) }

// AutoAccept reports whether a decoded YAML value of hooks_auto_accept
// accepts hooks: only boolean true or a truthy string. Everything else,
// including the integer 1, null and the string "false", does not; Python
// truthiness once made "false" accept (Hermes #16244).
func AutoAccept(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		return isTruthy(v)
	}
	return false
}

// PolicyOptions are the inputs of NewPolicy beyond the environment.
type PolicyOptions struct {
	// AcceptFlag is --accept-hooks: approve (and record) every hook not
	// yet approved, a repository's included — it is given on purpose, for
	// one run.
	AcceptFlag bool
	// ConfigAutoAccept is the config's hooks_auto_accept (AutoAccept).
	ConfigAutoAccept bool
	// Env is the environment HERMES_SAFE_MODE and HERMES_ACCEPT_HOOKS are
	// read from (nil: the process's own), once.
	Env []string
	// Warn and Prompter are as in Policy.
	Warn     func(string)
	Prompter *Prompter
}

// NewPolicy builds the consent policy from the accept channels, the one
// way the CLI, serve and Go hosts assemble it: HERMES_SAFE_MODE runs
// nothing; --accept-hooks approves every hook; HERMES_ACCEPT_HOOKS and
// hooks_auto_accept approve global hooks only, never a repository's.
func NewPolicy(store *Store, o PolicyOptions) *Policy {
	get := func(k string) string {
		v, _ := cmdpin.Getenv(o.Env, k)
		return v
	}
	p := &Policy{
		Store:      store,
		SafeMode:   SafeMode(get("HERMES_SAFE_MODE")),
		Accept:     o.AcceptFlag,
		AutoAccept: EnvAccept(get("HERMES_ACCEPT_HOOKS")) || o.ConfigAutoAccept,
		Warn:       o.Warn,
		Prompter:   o.Prompter,
	}
	if store != nil {
		// One-shot processes share the digests of large hook binaries.
		p.hashes.File = filepath.Join(store.Home(), cmdpin.CacheFileName)
	}
	return p
}

// effectiveAccept combines the three accept channels: the --accept-hooks
// flag, the HERMES_ACCEPT_HOOKS value and the hooks_auto_accept config
// value. Any one of them accepts.
func effectiveAccept(flag bool, env string, autoAccept any) bool {
	return flag || EnvAccept(env) || AutoAccept(autoAccept)
}

// Request is what the policy needs to know about one configured hook to
// decide whether it may run: its approval key (event, command, scope) and
// where and how it would start.
type Request struct {
	Event, Command string
	// Scope is where the hook came from; a project's hooks are approved
	// per project and source file (see Scope).
	Scope Scope
	// File is the file the hook is written in when that is not
	// Scope.Source: a rule file the scope's hooks file includes (rules:).
	// The approval stays the scope's; the warnings name this file, the one
	// a person opens to review the hook (as list and doctor do).
	File string
	// RuleID is a repository rule's id: ("" for anything else). Its
	// approval records it, so that the rule changed under the same id (a
	// contributor's weakened expression) is "changed since approval" —
	// a fail_closed one blocks, as a changed script does — rather than a
	// new rule nobody approved, which is skipped.
	RuleID string
	// Shell: the command runs through /bin/sh -c (the Claude dialect).
	Shell bool
	// Env is the hook's environment ($VAR, ~ and PATH are resolved in it);
	// nil means the process's own.
	Env []string
	// Vars are set over Env (CLAUDE_PROJECT_DIR for Claude-dialect hooks,
	// or HOME), for callers that do not build a whole environment.
	Vars map[string]string
	// Dir is the directory the hook starts in; empty means the process's
	// working directory.
	Dir string
	// Argv and ShellPath are as in Command (exec form; the shell of a
	// Shell command).
	Argv      []string
	ShellPath string
	// Target is Resolve's answer for this hook, when the caller has it
	// already (the dispatcher resolves once and starts what it resolved);
	// nil means Decide and ApproveHook resolve it themselves.
	Target *cmdpin.Target
	// AckTextOnly: an approval of this hook by its text only is given
	// knowingly (approve --text-only); ApproveHook records it.
	AckTextOnly bool
	// BundleKeys, for a bundle's hook (Scope.Bundle), are the managed
	// layer's trusted_bundle_keys the config was loaded under: when there
	// are any, the bundle runs only when one of them signed it (a bundle
	// installed before the list, or put in place by hand, too). Decide
	// and Inspect both hold it.
	BundleKeys []string
	// ManagedBundle: the bundle is the managed layer's (installed beside a
	// managed config, in a directory root's alone): safe mode does not
	// skip it, as it skips no managed hook; its signature still decides.
	ManagedBundle bool
	// Guard: the hook is a fail_closed guard on an event it can refuse. One
	// of the user's own config that nobody approved refuses that event
	// (the caller blocks; the warning says so) rather than be skipped: a
	// guard the user wrote must not be off until they think of approving
	// it. A repository's is skipped like any of its hooks.
	Guard bool
	// Reviewed, when not nil, is what the person approving was shown of
	// the files the hook runs (each path and its digest, "" for one that
	// could not be read): ApproveHook records the approval only when the
	// files are still exactly those, so that a file swapped while the
	// person read the plan is not approved in its new content.
	Reviewed []FileRecord
}

// Verdict is the gate's decision for one hook.
type Verdict struct {
	// Run says whether the hook may run now.
	Run bool
	// Reason says why, for logs and per-hook reports; when Run is false
	// it is the message to show.
	Reason string
	// Warning, when set, should be shown even though the hook runs (mtime
	// drift, an approval that could not be saved).
	Warning string
	// Approved is true when the hook is approved (allowlisted, or approved
	// during this call or earlier in this process), even if drift stops it
	// from running.
	Approved bool
	// Drift is the comparison of what the hook runs with its approval.
	Drift DriftKind
	// Changed says what changed since approval (Drift.Message) when Drift
	// is DriftHash; Reason then adds the command that re-approves it. A
	// caller that words its own refusal quotes Changed, so that the
	// change and the hint are said once.
	Changed string
	// Unapproved is true when the hook is skipped because nobody approved
	// it (and no accept channel or prompt did); Reason then holds the
	// warning, which was also sent to Warn.
	Unapproved bool
	// Unknown is true when the allowlist could not be read or is corrupt,
	// so whether the hook was approved cannot be told: a fail-closed guard
	// must then block rather than be skipped.
	Unknown bool
	// TextOnly is set (to the reason) when the hook is approved by its text
	// only: the files it runs cannot be determined.
	TextOnly string
	// TextOnlyAck: the approval acknowledged that it is by text only
	// (Entry.TextOnlyAck). A fail-closed guard needs it to run by text.
	TextOnlyAck bool
	// Pins holds the files the hook runs, open, as they were checked (only
	// when Run). The caller starts the hook through them (Pins.Verify,
	// Pins.ExecPath) and must Close them.
	Pins *cmdpin.Pins
}

// Reasons given in Verdict.Reason.
const (
	reasonSafeMode      = "safe mode (HERMES_SAFE_MODE)"
	reasonAllowlisted   = "allowlisted"
	reasonManaged       = "managed (approved by the managed config)"
	reasonAccepted      = "approved by accept policy (--accept-hooks / HERMES_ACCEPT_HOOKS / hooks_auto_accept)"
	reasonPrompted      = "approved at the prompt"
	reasonThisRun       = "approved for this run (the allowlist could not be saved)"
	reasonElsewhere     = "allowlisted in another checkout of this repository, with the same content"
	reasonDeclined      = "declined at the prompt"
	reasonPromptTimeout = "no answer at the prompt in time"
	reasonPromptEOF     = "no answer at the prompt (end of input)"
	reasonNoStore       = "no allowlist configured"
)

// notAllowlistedMessage is the warning for a hook that is skipped because
// nobody approved it: Hermes' opening words, then what to run. Hermes also
// offers "the TTY prompt next run"; an agent's hook call never has one (its
// stdin is the payload), so the command that approves it comes first. The
// command is quoted as ShownCommand shows it, and the approve line is
// ApproveHint's, for the warnings and the reasons alike.
func notAllowlistedMessage(event, command string) string {
	return fmt.Sprintf("shell hook for %s (%s) not allowlisted — skipped. Review it, then run: %s (or approve every hook of your own config with --accept-hooks once, HERMES_ACCEPT_HOOKS=1 or hooks_auto_accept: true)",
		event, ShownCommand(command), ApproveHint(event, command, Scope{}))
}

// guardNotApprovedMessage is the warning for a fail_closed guard of the
// user's own config that nobody approved (Request.Guard): it is not run,
// and what it guards is refused until it is approved.
func guardNotApprovedMessage(event, command string) string {
	return fmt.Sprintf("fail_closed guard for %s (%s) is not approved, so what it guards is refused: review it, then run: %s",
		event, ShownCommand(command), ApproveHint(event, command, Scope{}))
}

// projectNotApprovedMessage is the warning for a repository's hook that is
// skipped because nobody approved it. Ambient accept channels
// (hooks_auto_accept, HERMES_ACCEPT_HOOKS) never approve a repository's
// hooks, so the message does not offer them. The repository wrote the
// command and the warning is printed at every dispatch: it is quoted cut
// and escaped (ShownCommand), and the approve line is approve --project,
// which lists it whole.
func projectNotApprovedMessage(event, command string, scope Scope, file string) string {
	return fmt.Sprintf("hook for %s (%s) from %s not approved — skipped. A repository's hooks run only once you approve them for that repository (hooks_auto_accept and HERMES_ACCEPT_HOOKS do not approve them): review it, then run %s",
		event, ShownCommand(command), file, ProjectApproveHint(scope.Project))
}

// writtenIn is the file h is written in: File, else its scope's source.
func (h *Request) writtenIn() string {
	if h.File != "" {
		return h.File
	}
	return h.Scope.Source
}

// Policy is the consent gate the dispatcher asks before running any hook.
// Set its fields before the first Decide and do not change them after; a
// Policy must not be copied once used. It is safe for concurrent use.
type Policy struct {
	Store *Store
	// SafeMode runs nothing (HERMES_SAFE_MODE).
	SafeMode bool
	// Accept approves, and records, every hook not yet allowlisted — a
	// repository's hooks included (--accept-hooks, given on purpose).
	Accept bool
	// AutoAccept approves, and records, every global hook not yet
	// allowlisted (hooks_auto_accept, HERMES_ACCEPT_HOOKS). It never
	// approves a repository's hooks: a setting made once must not let every
	// repository cloned later run its hooks.
	AutoAccept bool
	// Prompter, when it is a TTY, asks about hooks not yet allowlisted.
	Prompter *Prompter
	// Warn receives warnings for the user. Each distinct message is sent
	// once until the allowlist file changes, so a server dispatching the
	// same unapproved hook on every event does not flood its log. It is
	// called synchronously, possibly while a prompt is being serialised,
	// so it must not call Decide.
	Warn func(string)

	// snap is the parsed allowlist with the identity of the file version
	// it came from; Decide re-reads only when the file's identity changed.
	snap     atomic.Pointer[snapshot]
	reloadMu sync.Mutex

	mu sync.Mutex
	// session holds approvals granted in this process that could not be
	// saved; they hold until the process ends, as in Hermes.
	session map[pair]Entry
	// declined remembers prompts answered no (or not answered), so one
	// unattended prompt cannot stall every later event.
	declined map[pair]Answer
	warned   map[string]struct{}

	// promptMu serialises new approvals (prompts and accept-policy
	// writes); decisions about approved hooks never take it.
	promptMu sync.Mutex
	hashes   cmdpin.Cache
}

type pair struct {
	event, command string
	scope          Scope
}

type snapshot struct {
	key    cmdpin.FileKey
	exists bool
	file   *File
	// broken: the file exists but could not be read or parsed.
	broken bool
	// projects indexes file.Projects for Screen (projectIndex).
	projOnce sync.Once
	projects map[pair]struct{}
	// portable indexes the approvals that may hold in other checkouts
	// (portableIndex).
	portOnce sync.Once
	portable map[string]struct{}
	// rules indexes the approvals of repository rules by id (ruleIndex).
	ruleOnce sync.Once
	rules    map[ruleKey]struct{}
}

// Decide says whether h may run, approving and recording it when an accept
// channel or the prompt allows. The order is: safe mode runs nothing (but
// the managed layer's hooks and bundles: no user switch turns them off); a
// bundle's hook runs iff its signed manifest still covers it (bundle.go);
// an approved hook runs unless a file it runs changed since approval (a
// changed mtime only warns); an accept policy approves and runs; a TTY
// prompt asks; otherwise it is skipped with a warning. The files it runs
// are hashed here and handed over open (Verdict.Pins) to be started.
func (p *Policy) Decide(h Request) Verdict {
	if h.Scope.Managed {
		// Before safe mode and the allowlist: nothing a user or a
		// repository sets switches the managed layer off.
		return p.decideManaged(&h)
	}
	if p.SafeMode && !(h.ManagedBundle && h.Scope.Bundle != "") {
		return Verdict{Reason: reasonSafeMode}
	}
	if h.Scope.Bundle != "" {
		return p.decideBundle(&h)
	} else if p.Store == nil {
		return Verdict{Reason: reasonNoStore}
	}
	k := pair{h.Event, h.Command, h.Scope}
	if v, ok := p.decideApproved(&h, k); ok {
		return v
	}
	if p.Accept || (p.AutoAccept && h.Scope.Global()) {
		// Serialised and re-checked like prompts, so that many goroutines
		// meeting the same new hook at once write one approval, not one
		// each.
		p.promptMu.Lock()
		defer p.promptMu.Unlock()
		if v, ok := p.decideApproved(&h, k); ok {
			return v
		}
		return p.approve(&h, k, reasonAccepted)
	}
	if p.Prompter != nil && p.Prompter.IsTTY {
		return p.prompt(&h, k)
	}
	if v, ok := p.decideRuleChanged(&h); ok {
		return v
	}
	msg := notAllowlistedMessage(h.Event, h.Command)
	switch {
	case !h.Scope.Global():
		msg = projectNotApprovedMessage(h.Event, h.Command, h.Scope, h.writtenIn())
	case h.Guard:
		msg = guardNotApprovedMessage(h.Event, h.Command)
	}
	p.warn(msg)
	return Verdict{Reason: msg, Unapproved: true, Unknown: p.current().broken}
}

// decideApproved handles hooks that are already approved, in the file or in
// this process.
func (p *Policy) decideApproved(h *Request, k pair) (Verdict, bool) {
	reason := reasonAllowlisted
	file := p.current().file
	e, ok := file.LookupIn(h.Event, h.Command, h.Scope)
	if !ok {
		p.mu.Lock()
		e, ok = p.session[k]
		p.mu.Unlock()
		reason = reasonThisRun
	}
	// Approvals given in other checkouts of the hook's repository are
	// looked for only when this checkout's own does not hold: the checkout
	// a hook was approved in pays nothing for them.
	var others []Entry
	othersDone := false
	elsewhere := func() []Entry {
		if !othersDone {
			others, othersDone = file.elsewhere(h, &p.hashes), true
		}
		return others
	}
	var exact *Entry
	if ok {
		exact = &e
	} else if len(elsewhere()) == 0 {
		return Verdict{}, false
	}
	return p.checkScript(h, exact, elsewhere, reason), true
}

// checkScript turns an approval into a verdict after comparing what the
// hook runs now with it (see approvalFor).
func (p *Policy) checkScript(h *Request, exact *Entry, others func() []Entry, reason string) Verdict {
	t := h.target()
	pins := cmdpin.Pin(t, &p.hashes)
	e, d, moved, _ := approvalFor(exact, others, h, t, pins)
	if moved {
		reason = reasonElsewhere
	}
	v := Verdict{Run: true, Reason: reason, Approved: true, Drift: d.Kind, TextOnly: t.Opaque, TextOnlyAck: e.TextOnlyAck, Pins: pins}
	switch d.Kind {
	case DriftHash:
		pins.Close()
		v.Run, v.Pins = false, nil
		v.Changed = d.Message()
		v.Reason = v.Changed + "; re-approve with: " + ApproveHint(h.Event, h.Command, h.Scope)
		p.warn(fmt.Sprintf("shell hook for %s (%s) not run: %s", h.Event, ShownCommand(h.Command), v.Reason))
	case DriftMtime:
		v.Warning = fmt.Sprintf("shell hook for %s (%s): %s", h.Event, ShownCommand(h.Command), d.Message())
		p.warn(v.Warning)
	}
	return v
}

func (p *Policy) warn(msg string) {
	if p.Warn == nil {
		return
	}
	p.mu.Lock()
	_, seen := p.warned[msg]
	if !seen {
		if p.warned == nil {
			p.warned = make(map[string]struct{})
		}
		p.warned[msg] = struct{}{}
	}
	p.mu.Unlock()
	if !seen {
		p.Warn(msg)
	}
}

// MayRunIn reports whether a hook of the project rooted at root could run
// under this policy: the project has an approval in the allowlist (or in
// this process), --accept-hooks or a TTY prompt could approve one, or the
// allowlist cannot be read (so nobody can tell). The dispatcher asks it
// when a project's hooks file cannot be loaded: if nothing of that project
// could have run, no guard was lost and a warning is enough; otherwise the
// gating event is refused, as a guard may be missing.
func (p *Policy) MayRunIn(root string) bool {
	if p.SafeMode || p.Store == nil {
		return false
	}
	if p.Accept || (p.Prompter != nil && p.Prompter.IsTTY) {
		return true
	}
	s := p.current()
	if s.broken {
		return true
	}
	if s.file.HasProject(root) {
		return true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for k := range p.session {
		if k.scope.Project == root {
			return true
		}
	}
	return false
}
