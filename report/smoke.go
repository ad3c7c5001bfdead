package report

import (
	"context"
	"strconv"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// smoke runs the hook once on its event's synthetic payload and grades the
// reply as Hermes' doctor does; for Claude hooks plain text is a valid reply.
func smoke(ctx context.Context, d *dispatcher.Dispatcher, r *DoctorResult) {
	e := r.Status.Entry
	fields, ok := e.Event.SyntheticFields()
	if !ok {
		// Hermes' fallback passes extra={} as a keyword, so the payload's
		// extra is {"extra": {}} and session_id is "".
		fields = map[string]any{"extra": map[string]any{}}
	}
	run := d.RunEntry(ctx, e.Event, e, fields)
	rep := run.Report
	if e.Rule() != nil {
		warn := ""
		if rep.Error != "" {
			// Evaluated again for its typed error (where the key it lacks
			// is read): only a rule that erred pays for it.
			warn = madeUpCallError(ctx, e, nil, "")
		}
		smokeRule(r, &rep, warn)
		return
	}
	if _, ok := e.Spec.(*hookconfig.OPASpec); ok {
		smokeOPA(r, &run)
		return
	}
	elapsed := pyjson.Seconds(rep.ElapsedMS / 1000)
	stdout := strings.TrimSpace(string(run.Stdout))
	exit := "?"
	if rep.ExitCode != nil {
		exit = strconv.Itoa(*rep.ExitCode)
	}
	switch {
	case rep.TimedOut:
		smokeTimedOut(r, e, elapsed)
	case rep.Error != "":
		r.add(CheckFail, "execution error: "+rep.Error)
	case stdout == "" && decided(rep.Contribution):
		// A decision with no stdout, read from the exit code and stderr.
		// Not "no objection".
		r.add(CheckOK, "answered "+string(rep.Contribution.Decision)+" on synthetic payload (exit="+exit+", "+elapsed+"s)"+shownMessage(rep.Contribution))
	case stdout == "":
		// Empty stdout is "no objection" to this payload, not a sign that
		// the hook never objects: a guard is quiet on harmless calls.
		r.add(CheckOK, "ran clean with empty stdout (exit="+exit+", "+elapsed+"s) — no objection to this payload")
	case validJSON(stdout):
		r.add(CheckOK, "produced valid JSON on synthetic payload (exit="+exit+", "+elapsed+"s)")
	case e.Dialect == protocol.Claude && !strings.HasPrefix(stdout, "{"):
		r.add(CheckOK, "printed plain text on synthetic payload (exit="+exit+", "+elapsed+"s) — Claude Code treats it as context on UserPromptSubmit/SessionStart")
	default:
		r.add(CheckFail, "stdout was not valid JSON (exit="+exit+", "+elapsed+"s): "+textutil.Truncate(stdout, 120))
	}
	replied := e.Dialect != protocol.Hermes && exit == "2" // stderr is the reason of its refusal
	if msg := strings.TrimSpace(string(run.Stderr)); msg != "" && !rep.TimedOut && rep.Error == "" && !replied {
		// A healthy hook is quiet: "jq: not found" here is a guard that
		// reads nothing and decides nothing.
		r.add(CheckWarn, "wrote to stderr on the synthetic payload: "+textutil.Truncate(firstLine(msg), 160)+" — a healthy hook is quiet; fix what it reports")
	}
	code := 0
	if rep.ExitCode != nil {
		code = *rep.ExitCode
	}
	if p := e.ReplyProblem(run.Stdout, code); p != "" {
		// Valid JSON that the event does not read: the guard guards
		// nothing, and would go unnoticed as "valid JSON".
		r.add(CheckFail, "its reply guards nothing: "+p)
	}
}

func smokeTimedOut(r *DoctorResult, e *hookconfig.Entry, elapsed string) {
	r.add(CheckFail, "timed out after "+elapsed+"s on synthetic payload (timeout="+e.TimeoutSeconds()+"s)")
	r.add(CheckInfo, "if it needs longer, raise timeout: in its entry (seconds); to see where it waits, run it alone: "+testCommand(e.DeclaredAs, e.Matcher))
}

// smokeOPA grades an opa: entry's run on the synthetic payload by what OPA
// answered (it has no process: no stdout, no exit code). An undefined
// answer is no objection, and is also what OPA answers at a path where no
// policy is, so that an entry whose URL is misspelt, or whose bundle is not
// active yet, never objects to anything: doctor said "ran clean with empty
// stdout" of it. A package that exists answers {"result": {}} instead,
// which is "no decision".
func smokeOPA(r *DoctorResult, run *dispatcher.HookRun) {
	e, rep := r.Status.Entry, &run.Report
	elapsed := pyjson.Seconds(rep.ElapsedMS / 1000)
	c := rep.Contribution
	switch {
	case rep.TimedOut:
		smokeTimedOut(r, e, elapsed)
	case rep.Error != "":
		r.add(CheckFail, "execution error: "+rep.Error)
	case decided(c):
		r.add(CheckOK, "OPA answered "+string(c.Decision)+" on synthetic payload ("+elapsed+"s)"+shownMessage(c))
	case c != nil && c.Context != "":
		r.add(CheckOK, "OPA answered context on synthetic payload ("+elapsed+"s): "+textutil.Truncate(firstLine(strings.TrimSpace(c.Context)), 120))
	case run.Undefined():
		r.add(CheckOK, "OPA answered undefined on synthetic payload ("+elapsed+"s) — no objection to this payload")
		r.add(CheckInfo, "OPA answers undefined for a rule that is not defined for this call, and also for a path where no policy is (a misspelt package or rule, a bundle not active yet), where this entry never objects; a package that exists answers {\"result\": {}}: check the URL's path ("+testCommand(e.DeclaredAs, e.Matcher)+" shows OPA's answer)")
	default:
		r.add(CheckOK, "OPA answered no decision on synthetic payload ("+elapsed+"s) — no objection to this payload")
	}
}

// shownMessage is c's message as a check line ends with it (": " and its
// first line, cut), "" when it has none.
func shownMessage(c *protocol.Contribution) string {
	if m := strings.TrimSpace(c.Message); m != "" {
		return ": " + textutil.Truncate(firstLine(m), 120)
	}
	return ""
}

// decided reports whether c carries a verdict (block, ask, allow, defer).
func decided(c *protocol.Contribution) bool {
	return c != nil && c.Decision != "" && c.Decision != protocol.DecisionNone
}

func validJSON(s string) bool {
	_, err := pyjson.Decode([]byte(s))
	return err == nil
}

// smokeRule grades a rule's evaluation on the synthetic payload: an
// evaluation error (a key the payload lacks) is worth knowing, its answer
// is not (the payload is made up). warn is validate's madeUpCallError for
// the rule: the payload is a call it selects, and it errs there on a key
// of the tool's arguments, as it will on every call like it.
func smokeRule(r *DoctorResult, rep *protocol.HookReport, warn string) {
	elapsed := pyjson.Seconds(rep.ElapsedMS / 1000)
	if warn != "" {
		r.add(CheckWarn, "on the synthetic payload: "+warn)
		return
	}
	if rep.Error != "" {
		// The payload is made up (a call the matcher does not select, or
		// a host field it lacks): a key it lacks may be one every real
		// call has. The rule's examples are what check it.
		r.add(CheckInfo, "on the synthetic payload (made up): "+rep.Error)
		return
	}
	if !decided(rep.Contribution) {
		r.add(CheckOK, "evaluated on the synthetic payload ("+elapsed+"s)")
		return
	}
	// The payload is a harmless call (a terminal's echo hello): a rule
	// that refuses it refuses every call like it, which a rule that is
	// always true (rule: 'true', or a pattern that matches anything) does
	// unnoticed.
	r.add(CheckOK, "answered "+string(rep.Contribution.Decision)+" on the synthetic payload ("+elapsed+"s)"+shownMessage(rep.Contribution))
	r.add(CheckInfo, "the synthetic payload is a harmless call: a rule that answers "+string(rep.Contribution.Decision)+" to it answers so to every call like it; if that is not what it is for, check what it matches")
}

// testCommand is the test command that fires event with the one tool a
// matcher names (terminal, Bash), or the event's own synthetic tool when
// the matcher is a pattern: doctor's next step for a hook it could not
// finish. Only plain names are put on the command line, so nothing in it
// needs quoting.
func testCommand(event, matcher string) string {
	cmd := "hermes-hooks test " + event
	if !hookconfig.PlainName(matcher) {
		return cmd
	}
	return cmd + " --for-tool " + matcher
}
