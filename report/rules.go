package report

import (
	"cmp"
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/rule"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
	"github.com/hermes-hooks/hermes-hooks/protocol/permrule"
)

// Rules (rule: entries) in the reports. A rule runs no file: list and
// doctor say whether it compiles instead of whether a script exists, and
// a rule of the user's own config needs no approval. Its examples are
// evaluated directly, with the example's cwd as the firing's. validate
// evaluates the examples of the user's own rules and of a repository's
// approved ones only: a rule is pure but not free (its bounds are time and
// expr's element budget, not bytes), and an unapproved repository rule
// evaluated on its repository's own examples is that repository's code
// running on the user's machine, which is what approval exists to stop.

// RuleInfo is a rule entry's part of HookInfo.
type RuleInfo struct {
	// ID is the rule's id: ("" when it has none): what the journal,
	// `log --hook` and exports name it by, and part of what is approved.
	ID       string `json:"id,omitempty"`
	Decision string `json:"decision"`
	Message  string `json:"message"`
	// Line is the rule's line in its file (HookInfo.Source).
	Line int `json:"line,omitempty"`
	// Error says why the rule does not compile ("" when it does).
	Error string `json:"error,omitempty"`
	// NoApproval: a rule of the user's own config needs no approval.
	NoApproval bool `json:"no_approval,omitempty"`
}

// ruleStatus fills in a rule entry's status: whether it compiles (in
// StartProblem, as a command that cannot start), and that one of the
// user's own config needs no approval.
func ruleStatus(st *HookStatus) {
	e := st.Entry
	st.TextOnly, st.textOnlyGuard, st.Files, st.Script = "", false, nil, ""
	st.Executable = true
	if _, err := rule.Compile(e.Rule().Source); err != nil {
		st.Executable, st.StartProblem = false, ruleError(e, err)
	}
	if !e.NeedsApproval() {
		st.NoApproval, st.Approved = true, true
	}
}

// ruleError names where in its file a rule is wrong: file:line: message.
func ruleError(e *hookconfig.Entry, err error) string {
	line, msg := ruleErrorAt(e, err)
	if line <= 0 {
		return e.Source + ": " + msg
	}
	return e.Source + ":" + strconv.Itoa(line) + ": " + msg
}

// ruleErrorAt is the line of its file a rule's error is on (0: unknown)
// and the error without the position in the rule.
func ruleErrorAt(e *hookconfig.Entry, err error) (int, string) {
	line := e.Rule().Line
	var re *rule.Error
	if !errors.As(err, &re) {
		return line, yamlAdvice(e.Rule(), err.Error())
	}
	if re.Line > 1 && line > 0 {
		line += re.Line - 1
	}
	return line, yamlAdvice(e.Rule(), re.Msg)
}

// yamlAdvice adds to a compile error what YAML did to the rule before
// expr saw it, where that is the likely cause: the error alone ("invalid
// char escape", "unexpected token EOF") points at the rule's text, which
// looks right in the file.
func yamlAdvice(r *hookconfig.RuleSpec, msg string) string {
	switch {
	case r.DoubleQuoted && strings.Contains(msg, "invalid char escape"):
		return msg + " (this rule is a double-quoted YAML string, and YAML reads its \\ escapes first: a \\\\s there reaches the rule as \\s; write the rule in single quotes, rule: '…', where YAML leaves \\ alone)"
	case r.Comment != "":
		return msg + " (YAML read ` " + r.Comment + "` as a comment, so the rule ends before it: quote the whole rule, rule: '…')"
	}
	return msg
}

func ruleInfo(st *HookStatus) *RuleInfo {
	r := st.Entry.Rule()
	if r == nil {
		return nil
	}
	return &RuleInfo{ID: r.ID, Decision: r.Decision, Message: r.Message, Line: r.Line, Error: st.StartProblem, NoApproval: st.NoApproval}
}

// doctorRule is doctor's first line for a rule: it compiles, or where it
// does not.
func doctorRule(r *DoctorResult) {
	if r.Status.StartProblem != "" {
		r.add(CheckFail, "rule does not compile: "+r.Status.StartProblem)
		return
	}
	r.add(CheckOK, "rule compiles")
}

// ruleExamples evaluates a rule's examples (see exampleEval.run).
func (x ExampleRunner) ruleExamples(ctx context.Context, h HookExamples) HookExamples {
	e := h.Status.Entry
	var ev exampleEval
	for i := range e.Examples {
		ex := &e.Examples[i]
		if ex.Invalid != "" {
			h.Results = append(h.Results, ExampleResult{Example: ex, Got: "invalid example (" + ex.Key + ex.Invalid + ")"})
			continue
		}
		o := ev.outcome(ctx, e, ex, x.Tools, x.Cwd)
		if e.Shadow {
			shadowed(&o)
		}
		passed, got := checkExample(ex, &o)
		if !passed {
			got += commandsNote(e, ex)
		}
		h.Results = append(h.Results, ExampleResult{Example: ex, Passed: passed, Got: got, Would: shadowWould(&o)})
	}
	return h
}

// run evaluates one example of a rule entry as dispatch would
// on the example's firing (its tool, args and cwd; cwd as the working
// directory when the example names none): the matcher, then the rule. It
// checks what the rule decides, whatever its mode: validate's question is
// whether the rule says what its examples say, and a rule tried in shadow
// mode keeps the examples it will be enforced with.
func (ev *exampleEval) run(ctx context.Context, e *hookconfig.Entry, ex *hookconfig.Example, tools *protocol.ToolTable, cwd string) (bool, string) {
	o := ev.outcome(ctx, e, ex, tools, cwd)
	passed, got := checkExample(ex, &o)
	if !passed {
		got += commandsNote(e, ex)
	}
	return passed, got
}

// commandsNote, for a failed example of a rule that reads commands(), is
// what commands() lists for the example's command: what the rule judged,
// which its author cannot see otherwise ("" for another rule, an example
// without a command, or one commands() cannot read: the rule's error
// says so).
func commandsNote(e *hookconfig.Entry, ex *hookconfig.Example) string {
	r := e.Rule()
	cmd, ok := ex.Args["command"].(string)
	if r == nil || !ok || !strings.Contains(r.Source, "commands(") {
		return ""
	}
	forms, err := permrule.Commands(cmd)
	if err != nil {
		return "" // the rule's evaluation error says why already
	}
	quoted := make([]string, len(forms))
	for i, f := range forms {
		quoted[i] = strconv.Quote(f)
	}
	return " (commands(args.command) lists [" + textutil.Truncate(strings.Join(quoted, ", "), 300) + "])"
}

// exampleEval evaluates the examples of one rule in turn. Once one passes
// the rule's time bound, or they have together, the others are not
// evaluated (they fail, saying so): each would take up to the bound again,
// and a repository's approved rules (256 of 32 examples) made validate,
// doctor and test --examples take over half an hour. A rule needs
// microseconds; one that takes its bound, even over 32 calls, is broken
// anyway.
type exampleEval struct {
	stopped error
	spent   time.Duration
}

// errExamplesStopped and errExamplesSpent are the errors of the examples
// not evaluated.
var (
	errExamplesStopped = errors.New("not evaluated: an earlier example passed the rule's time bound")
	errExamplesSpent   = errors.New("not evaluated: the rule's earlier examples together passed the rule's time bound")
)

// shadowed makes a rule example's outcome what the agent gets from a rule
// in mode: shadow — nothing — with what the rule would have done beside
// it, as a shadow hook's example is judged (checkExample).
func shadowed(o *protocol.Outcome) {
	if len(o.Hooks) == 0 {
		return
	}
	rep := &o.Hooks[0]
	rep.Shadow = true
	switch {
	case o.Decision == protocol.DecisionBlock || o.Decision == protocol.DecisionAsk:
		rep.Would = string(o.Decision) + ": " + o.Message
	case o.Context != "":
		rep.Would = "context"
	}
	o.Decision, o.Message, o.Context = protocol.DecisionNone, "", ""
}

// outcome is the outcome of one rule example (exampleEval.run): no hook
// report when the matcher does not select it.
func (ev *exampleEval) outcome(ctx context.Context, e *hookconfig.Entry, ex *hookconfig.Example, tools *protocol.ToolTable, cwd string) protocol.Outcome {
	if tools == nil {
		tools = protocol.DefaultTools()
	}
	fields, _ := e.Event.SyntheticFields()
	fields["tool_name"] = ex.Tool
	fields["args"] = ex.Args
	if ex.Cwd != "" {
		fields["cwd"] = ex.Cwd
	}
	o := protocol.Outcome{Decision: protocol.DecisionNone}
	if !e.Matches(fields, tools) {
		return o
	}
	r, err := rule.Compile(e.Rule().Source)
	var ok bool
	if err == nil && ev.stopped != nil {
		err = ev.stopped
	} else if err == nil {
		f := protocol.NewFiring(e.Event, "", fields)
		f.Bind(tools, cwd, nil)
		if ex.Cwd != "" {
			f.Cwd = ex.Cwd // the example's word: its directory need not exist here
		}
		// The bound dispatch gives it: a shorter timeout: of the entry's
		// is what a call gets, and an example that takes longer would pass
		// here while every such call fails.
		bound := cmp.Or(ruleBound(e), rule.DefaultTimeout)
		ectx, cancel := context.WithTimeout(ctx, bound)
		start := time.Now()
		ok, err = r.Eval(ectx, rule.InputOf(&f, ""))
		ev.spent += time.Since(start)
		cancel()
		switch {
		case errors.Is(err, rule.ErrTimeout) || errors.Is(err, rule.ErrQuarantined):
			ev.stopped = errExamplesStopped
		case ev.spent >= bound:
			ev.stopped = errExamplesSpent
		}
	}
	rep := protocol.HookReport{Ran: err == nil}
	switch {
	case errors.Is(err, rule.ErrTimeout):
		// Past its bound: a timeout, as dispatch reports it (and as a
		// command killed at its timeout fails its example), its words
		// kept. Quarantined, or not evaluated after an earlier example
		// timed out, is not.
		rep.TimedOut, rep.Error = true, err.Error()
	case err != nil:
		rep.Error = "rule: " + err.Error()
	}
	o.Hooks = []protocol.HookReport{rep}
	if ok {
		spec := e.Rule()
		switch spec.Decision {
		case hookconfig.RuleBlock:
			o.Decision, o.Message = protocol.DecisionBlock, spec.Message
		case hookconfig.RuleAsk:
			o.Decision, o.Message = protocol.DecisionAsk, spec.Message
		case hookconfig.RuleContext:
			o.Context = spec.Message
		}
	}
	return o
}

// ruleProblems are validate's findings on rules: every rule compiles, and
// every example of a rule gives what it expects (each located at its
// line). A repository's rule that is not approved as it is now (allow)
// is compiled, never evaluated: its examples are a warning saying so.
func ruleProblems(ctx context.Context, cfg *hookconfig.Config, cwd string, allow *consent.File, lines lineFinder) []Problem {
	var out []Problem
	for _, e := range listedOf(cfg) {
		r := e.Rule()
		if r == nil || e.Duplicate {
			continue
		}
		where := "[" + e.DeclaredAs + "] " + textutil.Truncate(e.Text(), 120)
		if _, err := rule.Compile(r.Source); err != nil {
			line, msg := ruleErrorAt(e, err)
			out = append(out, Problem{File: e.Source, Line: line, Key: entryKey(e) + ".rule", Level: LevelError,
				Message: where + ": does not compile: " + msg})
			continue
		}
		if e.NeedsApproval() {
			if why := unapprovedRule(e, cwd, allow); why != "" {
				if len(e.Examples) > 0 {
					out = append(out, Problem{File: e.Source, Line: r.Line, Key: entryKey(e) + ".examples", Level: LevelWarning,
						Message: where + ": examples not evaluated: " + why})
				}
				continue
			}
		}
		msg := anyToolError(ctx, e, cfg.Tools, cwd)
		if msg == "" {
			msg = madeUpCallError(ctx, e, cfg.Tools, cwd)
		}
		if msg == "" {
			msg = toolNameWarning(e, cfg.Tools)
		}
		if msg == "" {
			msg = toolWarning(e, cfg.Tools)
		}
		if msg != "" {
			out = append(out, Problem{File: e.Source, Line: r.Line, Key: entryKey(e) + ".rule", Level: LevelWarning,
				Message: where + ": " + msg})
		}
		var ev exampleEval
		for i := range e.Examples {
			ex := &e.Examples[i]
			if ex.Invalid != "" {
				continue // a warning already says why
			}
			if passed, got := ev.run(ctx, e, ex, cfg.Tools, cwd); !passed {
				line := lines.find(e.Source, ex.Key)
				if line == 0 {
					line = r.Line
				}
				out = append(out, Problem{File: e.Source, Line: line, Key: ex.Key, Level: LevelError,
					Message: where + ": example " + ex.Label() + ": expected " + string(ex.Expect) + ", got " + got})
			}
		}
	}
	return out
}

// unapprovedRule says why a repository's rule may not be evaluated (""
// when it is approved as it is now), with what approves it.
func unapprovedRule(e *hookconfig.Entry, cwd string, allow *consent.File) string {
	if allow == nil {
		allow = &consent.File{}
	}
	st := consent.Inspect(dispatcher.ConsentRequest(e, cwd, nil), allow)
	switch {
	case !st.Approved:
		return "a repository's rule runs only once approved (review it, then: " + approveHint(e) + ")"
	case st.Drift.Kind == consent.DriftHash:
		return "the rule changed since approval (review it and re-approve)"
	}
	return ""
}

func listedOf(cfg *hookconfig.Config) []*hookconfig.Entry {
	if cfg.Listed != nil {
		return cfg.Listed
	}
	return cfg.Entries
}
