package report

import (
	"context"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
)

// HookStatus is one configured hook with its consent and script state: what
// `list` and `doctor` report.
type HookStatus struct {
	Entry *hookconfig.Entry
	// Script is the hook's primary script (the first of Files), "" when it
	// runs no file of its own.
	Script string
	// Files are every file the hook runs (cmdpin.Resolve).
	Files []string
	// TextOnly, when set, says why the files the hook runs cannot be
	// determined: it is approved by its text only.
	TextOnly string
	// textOnlyGuard: a fail_closed guard approved by its text only needs
	// the approval to acknowledge it (consent.NeedsTextOnlyAck).
	textOnlyGuard bool
	// Executable follows Hermes' doctor rule, except that a bare command
	// found on PATH counts as present (Hermes reports it missing even though
	// it runs).
	Executable bool
	// StartProblem says why the hook cannot start ("" when it can):
	// cmdpin.Target.StartProblem, the verdict validate, doctor, test and
	// dispatch share.
	StartProblem string
	// Approved: the hook is in the allowlist (in its scope), or needs no
	// approval (NoApproval: a rule of the user's own config).
	Approved   bool
	NoApproval bool
	Approval   consent.Entry
	// Elsewhere: the approval was given in another checkout of the hook's
	// repository (a clone, a worktree) with the same content.
	Elsewhere bool
	// Drift compares what the hook runs with its approval (approved hooks
	// only).
	Drift consent.Drift
}

// Runs reports whether dispatch would run the hook now (approved, and its
// content unchanged when a hash was recorded).
func (s *HookStatus) Runs() bool {
	return s.Approved && s.Drift.Kind != consent.DriftHash && !s.TextOnlyUnacknowledged()
}

// NeedsTextOnlyAck reports a fail_closed guard whose files cannot be
// determined: only `approve --text-only` approves it.
func (s *HookStatus) NeedsTextOnlyAck() bool { return s.textOnlyGuard }

// TextOnlyUnacknowledged reports a fail_closed guard approved by its text
// only without --text-only (an older approval, or a command that became
// opaque since): dispatch blocks the events it guards.
func (s *HookStatus) TextOnlyUnacknowledged() bool {
	return s.Approved && s.textOnlyGuard && !s.Approval.TextOnlyAck
}

// Inspect reports every configured hook, in config order, against the
// allowlist file. What each hook runs is resolved with env (nil: the
// process's environment, as a dispatcher started here would give it).
func Inspect(cfg *hookconfig.Config, allow *consent.File, cwd string) []HookStatus {
	listed := cfg.Listed
	if listed == nil {
		listed = cfg.Entries
	}
	out := make([]HookStatus, 0, len(listed))
	for _, e := range listed {
		cs := consent.Inspect(dispatcher.ConsentRequest(e, cwd, nil), allow)
		st := HookStatus{
			Entry:         e,
			Script:        cs.Target.Primary(),
			Files:         cs.Target.Files,
			TextOnly:      cs.Target.Opaque,
			textOnlyGuard: e.CannotRun() == "" && consent.NeedsTextOnlyAck(e.FailClosed, &cs.Target),
			Executable:    cs.Target.Executable(),
			StartProblem:  cs.Target.StartProblem(),
			Approved:      cs.Approved,
			Approval:      cs.Approval,
			Elsewhere:     cs.Elsewhere,
			Drift:         cs.Drift,
		}
		if e.Rule() != nil {
			ruleStatus(&st)
		}
		if e.Unreadable() {
			// Runs nothing: it only blocks (hookconfig's unreadableGuard).
			st.TextOnly, st.textOnlyGuard, st.Files, st.Script = "", false, nil, ""
			st.Executable, st.StartProblem = false, e.CannotRun()
			if !e.NeedsApproval() {
				st.NoApproval, st.Approved = true, true
			}
		}
		out = append(out, st)
	}
	return out
}

// CheckLevel grades one doctor line.
type CheckLevel string

const (
	CheckOK   CheckLevel = "ok"
	CheckWarn CheckLevel = "warn"
	CheckFail CheckLevel = "fail"
	CheckInfo CheckLevel = "info"
)

// Symbol is the mark Hermes prints before a doctor line.
func (l CheckLevel) Symbol() string {
	switch l {
	case CheckOK:
		return "✓"
	case CheckWarn:
		return "⚠"
	case CheckFail:
		return "✗"
	}
	return "ℹ"
}

// Check is one line of a doctor report; warn and fail lines are problems.
type Check struct {
	Level CheckLevel `json:"level"`
	Text  string     `json:"text"`
}

// DoctorResult is the doctor's report on one hook.
type DoctorResult struct {
	Status   HookStatus
	Checks   []Check
	Problems int
}

func (r *DoctorResult) add(level CheckLevel, text string) {
	r.Checks = append(r.Checks, Check{level, text})
	if level == CheckWarn || level == CheckFail {
		r.Problems++
	}
}

// WarnRunTwice marks the hooks of hermesConfig (the config.yaml Hermes'
// own shell-hook layer reads) when the hermes-hooks plugin is installed in
// that Hermes: Hermes would run each of them itself and again through the
// plugin.
func WarnRunTwice(results []DoctorResult, hermesConfig string) {
	for i := range results {
		if e := results[i].Status.Entry; e.Source == hermesConfig && !e.Duplicate && e.Event.Hermes { // Hermes runs no gateway event
			results[i].add(CheckWarn, "Hermes runs this hook itself (its shell hooks read "+hermesConfig+") and again through the installed hermes-hooks plugin: move the hooks: block into a file of its own and point the plugin at it (HERMES_HOOKS_CONFIG), leaving hooks: {} in config.yaml")
		}
	}
}

// DoctorOptions adjust Doctor.
type DoctorOptions struct {
	// NoRun skips every smoke run (and every example).
	NoRun bool
	// Examples, when set, runs the examples of the hooks that get a smoke
	// run (see doctorExamples).
	Examples *ExampleRunner
}

// Doctor checks every hook: script present and executable (and able to
// start: CRLF line endings, a bad interpreter), allowlisted, unchanged since
// approval, and — for approved, unchanged hooks that hermes-hooks itself
// runs, unless o.NoRun — one smoke run on the event's synthetic payload
// (valid reply? how long?). It never executes a hook that dispatch would
// not run, nor one its agent runs itself (a Claude Code settings entry):
// a formatter hook's smoke run rewrites real files.
func Doctor(ctx context.Context, d *dispatcher.Dispatcher, statuses []HookStatus, o DoctorOptions) []DoctorResult {
	out := make([]DoctorResult, len(statuses))
	for i, st := range statuses {
		r := DoctorResult{Status: st}
		e := st.Entry
		if e.Duplicate {
			r.add(CheckInfo, "duplicate of an entry above (same event, matcher and command): it runs once, as that entry")
			out[i] = r
			continue
		}
		switch {
		case e.Rule() != nil:
			doctorRule(&r)
		case e.Unreadable() && st.NoApproval:
			// Said below: it runs nothing, and blocks.
		case e.Unreadable():
			// A repository's: approved like its hooks, it then blocks.
			when := "once approved like the repository's hooks, it blocks"
			if st.Approved {
				when = "it blocks"
			}
			r.add(CheckFail, "a fail_closed entry that "+e.CannotRun()+": "+when+" every "+e.DeclaredAs+" it matches until it is fixed")
		case !e.RunsCommand() && e.CannotRun() == "":
			// An http hook or an opa: entry: its URL is all there is,
			// reached at the smoke run.
			r.add(CheckOK, "no script: the payload is posted to its URL")
		case st.Executable && st.StartProblem == "":
			r.add(CheckOK, "script exists and is executable")
		case st.Executable:
			r.add(CheckFail, "cannot start: "+st.StartProblem)
		default:
			r.add(CheckFail, "script missing or not executable (chmod +x the file, or fix the path)")
			if st.StartProblem != "" {
				r.add(CheckInfo, "why: "+st.StartProblem)
			}
		}
		hint := approveHint(e)
		switch {
		case e.Scope.Managed:
			r.add(CheckOK, "managed: approved by the managed config "+e.Source+" (no user setting switches it off)")
		case st.NoApproval && e.Unreadable():
			r.add(CheckFail, "a fail_closed entry that "+e.CannotRun()+": it blocks every "+e.Event.Name+" it matches until it is fixed (needs no approval: it runs nothing)")
		case st.NoApproval:
			r.add(CheckOK, "needs no approval (a rule of your own config)")
		case st.Approved:
			at := st.Approval.ApprovedAt
			if at == "" {
				at = "?"
			}
			r.add(CheckOK, "allowlisted (approved "+at+")")
		default:
			r.add(CheckFail, "not allowlisted — hook will NOT fire at runtime ("+notApprovedFix(e, hint)+")")
			switch {
			case e.FailClosed && e.Scope.Global() && e.Event.FailsClosed():
				r.add(CheckFail, "fail_closed guard not approved: every "+e.Event.Name+" it matches is refused until you review it and run: "+hint)
			case e.FailClosed && !e.Scope.Global():
				r.add(CheckFail, "fail_closed guard protects nothing until approved: a repository's unapproved guard is skipped, not enforced")
			}
		}
		switch {
		case st.TextOnlyUnacknowledged():
			r.add(CheckFail, "fail_closed guard approved by its text only ("+st.TextOnly+") without --text-only: it BLOCKS the events it guards until you review it and approve it knowingly: "+
				consent.ApproveTextOnlyHintFor(e.DeclaredAs, e.Text(), e.Scope))
		case st.TextOnly != "" && !e.RunsCommand():
			// A URL (an http hook, an opa: entry) or a prompt: its text is
			// all there is to approve, so nothing is left to fix, and as a
			// warning it failed every doctor run (a CI job's too) of a
			// config that has one.
			r.add(CheckInfo, "approved by its text only ("+st.TextOnly+")")
		case st.TextOnly != "":
			r.add(CheckWarn, "approved by its text only ("+st.TextOnly+"): the files it runs cannot be determined, so what it runs can change without a new approval")
		}
		if by := RunByText(e); by != "" {
			r.add(CheckInfo, by)
		}
		if e.Shadow {
			r.add(CheckInfo, shadowText(e))
		}
		if st.Approved && !st.NoApproval && !e.Scope.Managed && !e.Unreadable() {
			switch st.Drift.Kind {
			case consent.DriftMtime:
				r.add(CheckWarn, st.Drift.Message()+" — review changes, then `hermes-hooks revoke` + re-approve to refresh")
			case consent.DriftHash:
				r.add(CheckFail, st.Drift.Message()+" — hook will NOT fire until re-approved"+refusesMeanwhile(e)+": "+hint)
			case consent.DriftNone:
				r.add(CheckOK, unchangedText(e))
			}
		}
		switch {
		case !st.Approved:
			r.add(CheckInfo, "skipped "+smokeName(e)+" — not allowlisted yet. Approve the hook first ("+hint+"), then re-run `hermes-hooks doctor`.")
		case st.Drift.Kind == consent.DriftHash:
			r.add(CheckInfo, "skipped "+smokeName(e)+" — "+changedName(e)+" changed since it was approved; review it and re-approve first.")
		case !st.Executable || st.StartProblem != "":
		case e.RunBy != "":
			r.add(CheckInfo, "skipped smoke test — "+agentTitle(e.RunBy)+" runs this hook itself; doctor does not run it")
		case o.NoRun:
			r.add(CheckInfo, "skipped smoke test (--no-run)")
		default:
			smoke(ctx, d, &r)
			if msg := anyToolError(ctx, e, d.Config().Tools, ""); msg != "" {
				r.add(CheckWarn, msg)
			}
			doctorExamples(ctx, o.Examples, &r)
		}
		out[i] = r
	}
	return out
}

// HookInfo is one hook as `list --json`, `doctor --json` and the server's
// GET /v1/hooks show it.
type HookInfo struct {
	Event      string  `json:"event"`
	Canonical  string  `json:"canonical_event"`
	Command    string  `json:"command"`
	Matcher    string  `json:"matcher,omitempty"`
	Timeout    float64 `json:"timeout"`
	Dialect    string  `json:"dialect"`
	FailClosed bool    `json:"fail_closed"`
	Priority   int     `json:"priority"`
	// Shadow: mode: shadow, run and recorded without deciding.
	Shadow    bool `json:"shadow,omitempty"`
	Duplicate bool `json:"duplicate,omitempty"`
	// Managed: the managed layer's, approved by being in its file.
	Managed  bool     `json:"managed,omitempty"`
	Source   string   `json:"source"`
	RunBy    string   `json:"run_by,omitempty"`
	Worker   bool     `json:"worker,omitempty"`
	Workers  int      `json:"workers,omitempty"`
	Script   string   `json:"script"`
	Files    []string `json:"files"`
	TextOnly string   `json:"text_only,omitempty"`
	// TextOnlyBlocks: a fail_closed guard approved by its text only
	// without --text-only; dispatch blocks the events it guards.
	TextOnlyBlocks bool   `json:"text_only_blocks,omitempty"`
	Executable     bool   `json:"executable"`
	Approved       bool   `json:"approved"`
	ApprovedAt     string `json:"approved_at,omitempty"`
	// ApprovedElsewhere: approved in another checkout (clone, worktree)
	// of the same repository, with the same content.
	ApprovedElsewhere bool       `json:"approved_elsewhere,omitempty"`
	Runs              bool       `json:"runs"`
	Rule              *RuleInfo  `json:"rule,omitempty"`
	Drift             *DriftInfo `json:"drift,omitempty"`
	Checks            []Check    `json:"checks,omitempty"`
	Problems          *int       `json:"problems,omitempty"`
}

// DriftInfo is a script's comparison with its approval, for JSON output.
type DriftInfo struct {
	Kind    string `json:"kind"`
	Was     string `json:"was,omitempty"`
	Now     string `json:"now,omitempty"`
	Message string `json:"message,omitempty"`
}

// NewHookInfo describes one inspected hook.
func NewHookInfo(st *HookStatus) HookInfo {
	e := st.Entry
	h := HookInfo{
		Event: e.DeclaredAs, Canonical: e.Event.Name, Command: e.Text(), Matcher: e.Matcher,
		Timeout: TimeoutSeconds(e), Dialect: string(e.Dialect), FailClosed: e.FailClosed,
		Priority: e.Priority, Shadow: e.Shadow, Duplicate: e.Duplicate, Managed: e.Scope.Managed, Source: e.Source, RunBy: e.RunBy, Script: st.Script, Files: st.Files, TextOnly: st.TextOnly, TextOnlyBlocks: st.TextOnlyUnacknowledged(), Executable: st.Executable,
		Approved: st.Approved, ApprovedAt: st.Approval.ApprovedAt, ApprovedElsewhere: st.Elsewhere, Runs: st.Runs(),
		Rule: ruleInfo(st),
	}
	if w := e.Worker(); w != nil {
		h.Worker, h.Workers = true, w.Workers
	}
	if h.Files == nil {
		h.Files = []string{}
	}
	if st.Approved && !st.NoApproval {
		h.Drift = &DriftInfo{Kind: st.Drift.Kind.String(), Was: st.Drift.Was, Now: st.Drift.Now, Message: st.Drift.Message()}
	}
	return h
}

// agentTitle is the agent called name as people call it.
func agentTitle(name string) string {
	if a, ok := agents.Lookup(name); ok {
		return a.Title
	}
	return name
}

// RunByText says which agent runs an entry itself ("" for none): the
// entries of an agent's own hook file, which `hermes-hooks hook AGENT`
// skips so that the agent does not see them run twice.
func RunByText(e *hookconfig.Entry) string {
	if e.RunBy == "" {
		return ""
	}
	title := e.RunBy
	if a, ok := agents.Lookup(e.RunBy); ok {
		title = a.Title
	}
	return "run by " + title + " itself (its own hook file); `hermes-hooks hook " + e.RunBy + "` does not run it again"
}
