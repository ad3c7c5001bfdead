package protocol

import (
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/termsafe"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
)

// Dialect is the protocol a hook entry speaks.
type Dialect string

const (
	// Hermes is the Hermes shell-hook protocol (the default).
	Hermes Dialect = "hermes"
	// Claude is the Claude Code command-hook protocol.
	Claude Dialect = "claude"
)

// ParseDialect accepts "hermes" and "claude" (any case, trimmed): the
// dialects a config's dialect: key may choose. An agent's own dialect (a
// Codec's) is not among them: its entries need the agent's event names,
// which only that agent's hook file declares.
func ParseDialect(s string) (Dialect, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case string(Hermes):
		return Hermes, true
	case string(Claude), "claude-code", "claude_code":
		return Claude, true
	}
	return "", false
}

// Decision is the gating verdict of a contribution or an outcome.
type Decision string

const (
	DecisionNone  Decision = "none"
	DecisionAllow Decision = "allow"
	DecisionAsk   Decision = "ask"
	DecisionBlock Decision = "block"
	// DecisionDefer is a Claude hook's "defer": no verdict of its own, but
	// it overrides ask and allow (the host's normal permission flow
	// decides). It appears in contributions only; an outcome it wins is
	// "none".
	DecisionDefer Decision = "defer"
)

// Rank orders decisions as the fold does: block over defer over ask over
// allow over none (0).
func (d Decision) Rank() int {
	switch d {
	case DecisionAllow:
		return 1
	case DecisionAsk:
		return 2
	case DecisionDefer:
		return 3
	case DecisionBlock:
		return 4
	}
	return 0
}

// Contribution is what one hook's reply asks for, in dialect-neutral terms.
// The zero value asks for nothing.
type Contribution struct {
	// Decision is the gating verdict ("" or none: no verdict). On pre_verify
	// and subagent_stop, block means "do not stop; continue with Message".
	Decision Decision `json:"decision,omitempty"`
	// Message accompanies Decision: the block reason for the model, the
	// continuation instruction, the question for the human (ask).
	Message string `json:"message,omitempty"`
	// RuleKey is the Hermes approve rule key.
	RuleKey string `json:"rule_key,omitempty"`
	// Args rewrites the tool arguments: merged shallowly (Hermes modify) or,
	// with ReplaceArgs, replacing them whole (Claude updatedInput).
	Args        map[string]any `json:"args,omitempty"`
	ReplaceArgs bool           `json:"replace_args,omitempty"`
	// Context is text for the model.
	Context string `json:"context,omitempty"`
	// Stop asks the agent to stop after this event (Claude continue:false).
	Stop       bool   `json:"stop,omitempty"`
	StopReason string `json:"stop_reason,omitempty"`
	// SystemMessage is for the user, not the model.
	SystemMessage string `json:"system_message,omitempty"`
	// Result replaces the text of a transform_* event (or the tool output,
	// for Claude's updatedToolOutput); on WorktreeCreate it is the path a
	// Claude hook printed. nil leaves it unchanged.
	Result *string `json:"result,omitempty"`
	// InjectSystem and InjectUser are messages to add to the model's
	// request as a system or a user message (pre_llm_call).
	InjectSystem string `json:"inject_system,omitempty"`
	InjectUser   string `json:"inject_user,omitempty"`
	// Metadata is passed to the later hooks of the same firing (a chain, or
	// a later priority tier) in their payload, and returned in the outcome.
	Metadata map[string]any `json:"metadata,omitempty"`
	// State is a patch to the session's state: keys are set, a null value
	// deletes the key. The dispatcher applies it; the fold ignores it.
	State map[string]any `json:"state,omitempty"`
	// Env are the environment variables a Claude SessionStart (Setup,
	// CwdChanged, FileChanged) hook exported through CLAUDE_ENV_FILE, for
	// the host to set for the session's later commands.
	Env map[string]string `json:"env,omitempty"`
	// HookSpecific are the members of a Claude-dialect reply's
	// hookSpecificOutput that hermes-hooks does not model (worktreePath,
	// sessionTitle, watchPaths, retry …): the agent's own reply fields,
	// handed back to an agent that reads Claude Code's reply shape intact.
	HookSpecific map[string]any `json:"hook_specific,omitempty"`
	// TerminalSequence is a Claude-dialect reply's terminalSequence: an
	// escape sequence (a title, a desktop notification) for Claude Code to
	// write to its terminal, which a hook has none of.
	TerminalSequence string `json:"terminal_sequence,omitempty"`
	// ReasonJoin, on a block, is how the hook's agent joins its reason to
	// an earlier refusing hook's (Gemini CLI: a line apart); "": the
	// dialect's rule (Claude's blank line, else the first reason only).
	// Read by the fold only; not part of the outcome's JSON.
	ReasonJoin string `json:"-"`
}

// IsEmpty reports whether c asks for nothing.
func (c *Contribution) IsEmpty() bool {
	return c == nil || (c.Decision.Rank() == 0 && c.Message == "" && c.RuleKey == "" &&
		c.Args == nil && !c.ReplaceArgs && c.Context == "" && !c.Stop && c.StopReason == "" &&
		c.SystemMessage == "" && c.Result == nil && c.InjectSystem == "" && c.InjectUser == "" &&
		c.Metadata == nil && c.State == nil && c.Env == nil && c.HookSpecific == nil && c.TerminalSequence == "")
}

// HookReport records one configured hook's part in a firing: whether it ran,
// how, and what it contributed.
type HookReport struct {
	// Event is the name the entry was declared under (may be an alias).
	Event   string  `json:"event"`
	Command string  `json:"command"`
	Dialect Dialect `json:"dialect"`
	Matcher string  `json:"matcher,omitempty"`
	// Source is the file the entry came from.
	Source string `json:"source,omitempty"`
	// Ran is false when the hook was not started; Skipped says why
	// ("not allowlisted", "script changed since approval", "safe mode", …).
	Ran     bool   `json:"ran"`
	Skipped string `json:"skipped,omitempty"`
	// ExitCode is nil when the process did not exit on its own (spawn
	// error, timeout). A negative code is death by that signal.
	ExitCode  *int    `json:"exit_code"`
	ElapsedMS float64 `json:"elapsed_ms"`
	TimedOut  bool    `json:"timed_out"`
	Error     string  `json:"error,omitempty"`
	// StdoutTruncated and StderrTruncated say the output cap dropped bytes.
	StdoutTruncated bool `json:"stdout_truncated,omitempty"`
	StderrTruncated bool `json:"stderr_truncated,omitempty"`
	// Note explains a reply that contributed nothing or was partly ignored
	// (invalid JSON, a hookEventName mismatch, a non-blocking exit code).
	Note string `json:"note,omitempty"`
	// ForeignRefusal: Note holds a refusal in words the hook's dialect
	// does not read (Read.Foreign), so its parser read nothing: a failed
	// hook. A flag from the parse, since the note's text may echo the
	// hook's own.
	ForeignRefusal bool `json:"foreign_refusal,omitempty"`
	// Shadow marks an entry in mode: shadow, tried on real traffic before
	// it may decide: never folded, Would says what it asked for.
	Shadow bool   `json:"shadow,omitempty"`
	Would  string `json:"would,omitempty"`
	// Rejudged marks a rule entry judged again on the call as another
	// hook of the firing rewrote it (the call as sent, it let through):
	// its contribution, error, Would and Note are that judgement's.
	Rejudged bool `json:"rejudged,omitempty"`
	// Contribution is nil when the hook contributed nothing (or is shadow).
	Contribution *Contribution `json:"contribution"`
}

// Failure says why a hook that was started failed without its reply
// counting ("" when it did not fail): it timed out, could not start,
// exited non-zero with nothing the fold could use, or printed a reply
// that is not one (invalid JSON, a wrong type). Agents show their own
// hooks' failures to the user, so the encoders show these the same way
// (issue 31, item 10). A skipped or shadow hook has not failed, nor has a
// hook whose failure is a block (fail_closed): that refusal speaks for it.
func (r *HookReport) Failure() string {
	if r.Shadow || r.Skipped != "" || r.Contribution != nil && r.Contribution.Decision == DecisionBlock {
		return ""
	}
	switch {
	case r.TimedOut && r.Error == "":
		return "timed out"
	case r.Error != "":
		// A rule past its bound (TimedOut too) says in its error how it
		// stopped.
		return r.Error
	case r.ExitCode != nil && *r.ExitCode != 0 && r.Contribution == nil:
		if r.Note != "" {
			return r.Note
		}
		return exitText(*r.ExitCode)
	case r.Note != "" && (r.ForeignRefusal || badReplyNote(r.Note)):
		return r.Note
	}
	return ""
}

// badReplyNote tells the notes the reply parsers give a reply that is not
// one (of every dialect's parser: their wordings).
func badReplyNote(note string) bool {
	for _, s := range []string{"not valid JSON", "failed validation", "not a JSON object", "JSON but not an object", "holds no JSON object", ambiguousNote} {
		if strings.Contains(note, s) {
			return true
		}
	}
	return false
}

// Failures are the outcome's failed hooks, one line each, for the user:
// "hermes-hooks: hook CMD failed: WHY". The command and the reason are
// escaped (termsafe): a reason quotes what the hook printed, and each
// agent shows these lines to its user (a systemMessage, stderr, or
// Windsurf's stdout), where no byte of a hook's may act on the terminal
// or break the line in two.
func (o *Outcome) Failures() []string {
	var out []string
	for i := range o.Hooks {
		if why := o.Hooks[i].Failure(); why != "" {
			out = append(out, "hermes-hooks: hook "+termsafe.Escape(textutil.Truncate(o.Hooks[i].Command, 120))+" failed: "+termsafe.Escape(textutil.Truncate(why, 300)))
		}
	}
	return out
}

// Outcome is the single answer of one firing. Its JSON form is the contract
// of `hermes-hooks dispatch` and the server (see outcome.schema.json).
// The json tags are the outcome JSON's keys; MarshalJSON writes them in
// this order, omitting the empty optional ones (see object).
type Outcome struct {
	// Event is the canonical name of the event that fired.
	Event string `json:"event"`
	// Decision is the folded gating verdict.
	Decision Decision `json:"decision"`
	// Message goes with Decision (see Contribution.Message).
	Message string `json:"message"`
	// RuleKey is the first ask's Hermes rule key.
	RuleKey string `json:"rule_key"`
	// Args are the rewritten tool arguments; nil when no hook rewrote them.
	Args map[string]any `json:"args"`
	// Context is every context piece, in config order, joined by a blank line.
	Context string `json:"context"`
	// Stop tells the agent to stop; StopReason says why (for the user).
	Stop       bool   `json:"stop"`
	StopReason string `json:"stop_reason"`
	// SystemMessage is for the user.
	SystemMessage string `json:"system_message"`
	// Result is the replacement text of a transform_* event (for
	// transform_user_input, the rewritten user message; for WorktreeCreate,
	// the worktree's path); nil means unchanged.
	Result *string `json:"result"`
	// InjectSystem and InjectUser are the system and user messages hooks
	// asked to add to the model's request, joined by a blank line.
	InjectSystem string `json:"inject_system"`
	InjectUser   string `json:"inject_user"`
	// Metadata is every hook's metadata merged in order (later keys win).
	Metadata map[string]any `json:"metadata"`
	// Env is every hook's CLAUDE_ENV_FILE exports merged in order (later
	// keys win): variables the host should set for the session.
	Env map[string]string `json:"env"`
	// HookSpecific is every hook's unmodelled hookSpecificOutput members
	// merged in config order (later keys win, as for Metadata), for the
	// encoders of agents that read Claude Code's reply shape.
	HookSpecific map[string]any `json:"hook_specific"`
	// TerminalSequence is the last Claude-dialect terminalSequence in
	// config order, for Claude Code to write to its terminal.
	TerminalSequence string `json:"terminal_sequence"`
	// Deferred: a Claude-dialect "defer" won the fold (Decision is then
	// none: hermes-hooks has no verdict to give). Claude Code, whose value
	// it is, parks the tool call for a `claude -p` caller to resume; its
	// encoder answers "defer" (no other host has one).
	Deferred bool `json:"deferred"`
	// Unapproved counts a repository's hooks this firing skipped because
	// nobody approved them as they are now (never approved, revoked, or
	// changed since approval): the caller tells the person, who cannot see
	// a warning on an agent's stderr (issue 32, item 2). Set by the
	// dispatcher after the fold; no hook reply touches it.
	Unapproved int `json:"unapproved"`
	// Hooks has one report per configured hook that matched, in config order.
	Hooks []HookReport `json:"hooks"`
}

// Blocked reports whether the outcome blocks.
func (o *Outcome) Blocked() bool { return o.Decision == DecisionBlock }

// Fold combines the reports of one firing, in config order, into one
// Outcome; the rules are in the package documentation. original is the
// host's tool arguments (a map, or anything else for "none"), the base that
// Hermes modify merges onto.
func Fold(ev *Event, original any, reports []HookReport) Outcome {
	o := Outcome{Decision: DecisionNone, Hooks: reports}
	if ev != nil {
		o.Event = ev.Name
	}
	var (
		args      map[string]any
		rewritten bool
		ctx       []string
		sys       []string
		injSys    []string
		injUser   []string
	)
	if m, ok := original.(map[string]any); ok {
		args = m
	}
	sent, twins := args, [][2]string(nil)
	firstDecides, decided := ev != nil && ev.FirstDecides, false
	// deciders carry a decision that counted, resultFrom the replacement
	// text that is the outcome's: the hookSpecificOutput members that
	// belong to either follow them (followers).
	var deciders []*Contribution
	var resultFrom *Contribution
	for i := range reports {
		c := reports[i].Contribution
		if c == nil || reports[i].Shadow { // shadow: see rule 11
			continue
		}
		// Rule 12: where the first decision is the outcome's, a later
		// contribution's decision and text count for nothing.
		decides := !firstDecides || !decided
		if firstDecides && (c.Decision.Rank() > 0 || c.Result != nil && *c.Result != "") {
			decided = true
		}
		if decides && c.Decision.Rank() > 0 {
			deciders = append(deciders, c)
		}
		switch {
		case decides && c.Decision.Rank() > o.Decision.Rank():
			o.Decision, o.Message, o.RuleKey = c.Decision, c.Message, c.RuleKey
		case decides && c.Decision == DecisionBlock && o.Decision == DecisionBlock:
			if sep := reasonJoin(c, reports[i].Dialect); sep != "" {
				o.Message = textutil.JoinNonEmpty(sep, o.Message, c.Message)
			}
		}
		if (c.ReplaceArgs || len(c.Args) > 0) && !rewritten {
			// Read once, at the first rewrite: a firing nobody rewrites
			// (nearly all) pays nothing for it.
			twins = sentTwice(sent)
		}
		switch {
		case c.ReplaceArgs:
			next := cloneMap(c.Args)
			syncTwins(twins, sent, c.Args, next)
			args, rewritten = next, true
		case len(c.Args) > 0:
			merged := cloneMap(args)
			for k, v := range c.Args {
				merged[k] = v
			}
			syncTwins(twins, sent, c.Args, merged)
			args, rewritten = merged, true
		}
		if c.Context != "" {
			ctx = append(ctx, c.Context)
		}
		if c.Stop {
			o.Stop = true
		}
		if c.StopReason != "" && o.StopReason == "" && c.Stop {
			o.StopReason = c.StopReason
		}
		if c.SystemMessage != "" {
			sys = append(sys, c.SystemMessage)
		}
		if decides && c.Result != nil && *c.Result != "" {
			r := *c.Result
			o.Result, resultFrom = &r, c
		}
		if c.TerminalSequence != "" {
			o.TerminalSequence = c.TerminalSequence
		}
		if c.InjectSystem != "" {
			injSys = append(injSys, c.InjectSystem)
		}
		if c.InjectUser != "" {
			injUser = append(injUser, c.InjectUser)
		}
		o.Metadata = mergeMembers(o.Metadata, c.Metadata, nil)
		o.HookSpecific = mergeMembers(o.HookSpecific, c.HookSpecific, follows)
		if len(c.Env) > 0 {
			if o.Env == nil {
				o.Env = map[string]string{}
			}
			for k, v := range c.Env {
				o.Env[k] = v
			}
		}
	}
	o.HookSpecific = followers(o.HookSpecific, o.Decision, deciders, resultFrom)
	o.InjectSystem = strings.Join(injSys, "\n\n")
	o.InjectUser = strings.Join(injUser, "\n\n")
	if o.Decision == DecisionDefer {
		o.Decision, o.Message, o.RuleKey, o.Deferred = DecisionNone, "", "", true
	}
	if rewritten {
		o.Args = args
	}
	if len(ctx) > 0 {
		o.Context = strings.Join(ctx, "\n\n")
	}
	if len(sys) > 0 {
		o.SystemMessage = strings.Join(sys, "\n")
	}
	return o
}

// reasonJoin is how a later blocking contribution's reason joins the
// outcome's: its agent's rule (ReasonJoin: Gemini CLI's, a line apart),
// else Claude Code's (every blocking hook's message, a blank line apart),
// else none (Hermes returns at the first block: "").
func reasonJoin(c *Contribution, d Dialect) string {
	if c.ReasonJoin != "" || d != Claude {
		return c.ReasonJoin
	}
	return "\n\n"
}

// mergeMembers merges one contribution's members into the outcome's
// (later keys win), except those skip names.
func mergeMembers(into, from map[string]any, skip func(string) bool) map[string]any {
	for k, v := range from {
		if skip != nil && skip(k) {
			continue
		}
		if into == nil {
			into = map[string]any{}
		}
		into[k] = v
	}
	return into
}

// follows reports the unmodelled hookSpecificOutput members that follow a
// part of the reply the fold decides (followers), not the merge of the
// others.
func follows(k string) bool { return k == decisionMember || isToolOutputForm(k) }

// followers adds to hs the hookSpecificOutput members that belong to a
// part of the reply the fold decides: the members of PermissionRequest's
// decision beside behavior and message (interrupt, updatedPermissions …)
// of the contributions that carry the outcome's decision d, merged in
// config order, so that a losing allow's updatedPermissions never ride on
// a deny; and the form the outcome's replacement text was written in (a
// structured updatedToolOutput, the legacy updatedMCPToolOutput), that of
// the contribution whose text it is.
func followers(hs map[string]any, d Decision, deciders []*Contribution, resultFrom *Contribution) map[string]any {
	var members map[string]any
	for _, c := range deciders {
		if m, _ := c.HookSpecific[decisionMember].(map[string]any); c.Decision == d {
			members = mergeMembers(members, m, nil)
		}
	}
	if members != nil {
		hs = withMember(hs, decisionMember, members)
	}
	if resultFrom != nil {
		for _, k := range toolOutputForms {
			if v, ok := resultFrom.HookSpecific[k]; ok {
				hs = withMember(hs, k, v)
				break
			}
		}
	}
	return hs
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
