package report

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// A hook's examples (hookconfig.Example), run by `test --examples` and
// doctor: each through Dispatch — matcher, if rule, consent gate, run,
// fold — of a dispatcher that holds that hook alone, so what is checked is
// what an agent would get from that hook, and no other hook runs.

// ExampleRunner runs hooks' examples.
type ExampleRunner struct {
	// Gate is the consent gate of a real dispatch (never AllowAll): an
	// example runs only a hook dispatch would run.
	Gate  dispatcher.Gate
	Tools *protocol.ToolTable
	Cwd   string
	Warn  func(string)
}

// ExampleResult is one example's run.
type ExampleResult struct {
	Example *hookconfig.Example `json:"-"`
	Passed  bool                `json:"passed"`
	// Got is what the hook's outcome was ("block: …", "none", "the hook
	// failed: …").
	Got string `json:"got"`
	// Would is, for an entry in mode: shadow, what it would have decided
	// ("block: …"; "" for nothing): Got is what the agent gets, nothing,
	// so a script can tell an example that fails only because the entry
	// is still in shadow mode.
	Would string `json:"would,omitempty"`
}

// shadowWould is what the hook of an example's outcome would have decided
// in mode: shadow ("" for another mode, or nothing).
func shadowWould(o *protocol.Outcome) string {
	if len(o.Hooks) == 0 || !o.Hooks[0].Shadow {
		return ""
	}
	return o.Hooks[0].Would
}

// HookExamples is one hook's examples and what running them gave.
type HookExamples struct {
	Status *HookStatus
	// NotRun says why the examples were not run ("" when they were).
	NotRun  string
	Results []ExampleResult
}

// Failed counts the examples that did not pass.
func (h *HookExamples) Failed() int {
	n := 0
	for _, r := range h.Results {
		if !r.Passed {
			n++
		}
	}
	return n
}

// notRunReason says why a hook's examples must not run ("" when they may):
// examples never run a hook dispatch would not run.
func notRunReason(st *HookStatus) string {
	e := st.Entry
	switch {
	case e.Duplicate:
		return "duplicate of an entry above, examples not run"
	case !st.Approved:
		return "not approved, examples not run (approve it first: " + approveHint(e) + ")"
	case st.Drift.Kind == consent.DriftHash:
		return "changed since approval, examples not run (review it and re-approve)"
	case st.TextOnlyUnacknowledged():
		return "approved by its text only without --text-only, examples not run"
	case e.RunBy != "":
		return agentTitle(e.RunBy) + " runs this hook itself, examples not run"
	}
	return ""
}

// RunExamples runs the examples of every hook that has some, one example
// at a time, in config order; hooks without examples are left out.
func RunExamples(ctx context.Context, x ExampleRunner, statuses []HookStatus) []HookExamples {
	var out []HookExamples
	for i := range statuses {
		if len(statuses[i].Entry.Examples) > 0 {
			out = append(out, x.Run(ctx, &statuses[i]))
		}
	}
	return out
}

// Run runs one hook's examples, unless dispatch would not run the hook.
func (x ExampleRunner) Run(ctx context.Context, st *HookStatus) HookExamples {
	h := HookExamples{Status: st, NotRun: notRunReason(st)}
	if h.NotRun != "" {
		return h
	}
	e := st.Entry
	if e.Rule() != nil {
		return x.ruleExamples(ctx, h)
	}
	d, err := dispatcher.New(&hookconfig.Config{Entries: []*hookconfig.Entry{e}, Tools: x.Tools},
		dispatcher.Options{Gate: x.Gate, Cwd: x.Cwd, Warn: x.Warn, OneShotWorkers: true})
	if err != nil {
		h.NotRun = "cannot run: " + err.Error()
		return h
	}
	defer d.Close()
	for i := range e.Examples {
		ex := &e.Examples[i]
		if ex.Invalid != "" {
			h.Results = append(h.Results, ExampleResult{Example: ex, Got: "invalid example (" + ex.Key + ex.Invalid + ")"})
			continue
		}
		fields, _ := e.Event.SyntheticFields()
		fields["tool_name"] = ex.Tool
		fields["args"] = ex.Args
		o, err := d.Dispatch(ctx, e.Event.Name, fields)
		if err != nil {
			h.Results = append(h.Results, ExampleResult{Example: ex, Got: "cannot dispatch: " + err.Error()})
			continue
		}
		passed, got := checkExample(ex, &o)
		h.Results = append(h.Results, ExampleResult{Example: ex, Passed: passed, Got: got, Would: shadowWould(&o)})
	}
	return h
}

// checkExample compares an outcome with what the example expects. A hook
// that failed (could not start, timed out, crashed) fails its example even
// when fail_closed turned the failure into the expected block: a guard
// that blocks only by breaking proves nothing.
func checkExample(ex *hookconfig.Example, o *protocol.Outcome) (bool, string) {
	if len(o.Hooks) == 0 {
		// Not selected (its matcher or if rule): the hook let the call be.
		got := "none (the hook's matcher does not select this call)"
		return ex.Expect == hookconfig.ExpectNone && ex.Reason == "", got
	}
	rep := &o.Hooks[0]
	switch {
	case rep.Skipped != "":
		return false, "the hook did not run: " + rep.Skipped
	case rep.TimedOut && rep.Error != "":
		// A rule past its time bound: its words say which bound.
		return false, "the hook timed out (" + rep.Error + ")"
	case rep.TimedOut:
		return false, "the hook timed out"
	case rep.Error != "":
		return false, "the hook failed: " + rep.Error
	}
	kind := outcomeKind(o)
	got := string(kind)
	switch {
	case o.Decision == protocol.DecisionBlock || o.Decision == protocol.DecisionAsk:
		got += ": " + o.Message
	case kind == hookconfig.ExpectRewrite:
		got += ": args " + string(pyjson.Encode(o.Args, pyjson.Compact))
	case kind == hookconfig.ExpectContext:
		got += ": " + o.Context
	}
	if rep.Note != "" {
		got += " (" + rep.Note + ")"
	}
	if rep.Shadow {
		// Judged by what the agent gets, which a shadow hook never
		// changes; what it would have done is shown beside it.
		got += " (mode: shadow, would " + cmp.Or(rep.Would, "do nothing") + ")"
	}
	got = textutil.Truncate(got, 200)
	if kind != ex.Expect && !(ex.Expect == hookconfig.ExpectNone && kind == hookconfig.ExpectAllow) {
		return false, got
	}
	if ex.Reason != "" && !strings.Contains(o.Message, ex.Reason) && !strings.Contains(o.Context, ex.Reason) {
		return false, got + " (the reason lacks " + fmt.Sprintf("%q", ex.Reason) + ")"
	}
	return true, got
}

// outcomeKind is what an outcome does to the call, as an example names it.
func outcomeKind(o *protocol.Outcome) hookconfig.Expect {
	switch {
	case o.Decision == protocol.DecisionBlock:
		return hookconfig.ExpectBlock
	case o.Decision == protocol.DecisionAsk:
		return hookconfig.ExpectAsk
	case o.Args != nil:
		return hookconfig.ExpectRewrite
	case o.Context != "":
		return hookconfig.ExpectContext
	case o.Decision == protocol.DecisionAllow:
		return hookconfig.ExpectAllow
	}
	return hookconfig.ExpectNone
}

// ExampleTotals counts examples passed and failed, and hooks not run.
func ExampleTotals(hooks []HookExamples) (passed, failed, notRun int) {
	for i := range hooks {
		if hooks[i].NotRun != "" {
			notRun++
			continue
		}
		f := hooks[i].Failed()
		failed += f
		passed += len(hooks[i].Results) - f
	}
	return passed, failed, notRun
}

// PrintExamples prints `test --examples`: per hook, a ✓ or ✗ line per
// example with what it got, then the totals.
func PrintExamples(w io.Writer, hooks []HookExamples) {
	if len(hooks) == 0 {
		fmt.Fprintln(w, "No hook declares examples (add examples: [{tool: terminal, args: {command: \"rm -rf /\"}, expect: block}] to an entry).")
		return
	}
	for i := range hooks {
		h := &hooks[i]
		e := h.Status.Entry
		fmt.Fprintf(w, "[%s] %s\n", show(e.DeclaredAs), show(ExampleHeading(e)))
		if h.NotRun != "" {
			fmt.Fprintf(w, "    - %s\n", show(h.NotRun))
			continue
		}
		for _, r := range h.Results {
			mark, verb := "✓", "got"
			switch {
			case r.Example.Invalid != "":
				mark, verb = "✗", "cannot run:"
			case !r.Passed:
				mark, verb = "✗", "expected "+string(r.Example.Expect)+", got"
			}
			fmt.Fprintf(w, "    %s %s: %s %s\n", mark, show(r.Example.Label()), verb, show(r.Got))
			if where := exampleAt(e, r.Example); !r.Passed && where != "" {
				// Where to fix it: rules of one text in several files,
				// or a shadow copy beside its twin, share a heading.
				fmt.Fprintf(w, "        at %s\n", show(where))
			}
		}
	}
	passed, failed, notRun := ExampleTotals(hooks)
	fmt.Fprintf(w, "\n%s passed, %d failed", Count(passed, "example", "examples"), failed)
	if notRun > 0 {
		fmt.Fprintf(w, "; %s not run (not approved or changed)", Count(notRun, "hook's examples", "hooks' examples"))
	}
	fmt.Fprintln(w)
}

// exampleAt is where ex is written: FILE:LINE of e's file ("" when
// unknown).
func exampleAt(e *hookconfig.Entry, ex *hookconfig.Example) string {
	if e.Source == "" || ex.Line <= 0 {
		return ""
	}
	return e.Source + ":" + strconv.Itoa(ex.Line)
}

// ExampleHeading names e above its examples (test --examples) and its
// checks (doctor): its text, and a rule's text longer than a line (a
// ready-made rule's pattern runs to hundreds of characters) cut to one; a
// rule with an id: with that id, the name log and replay give it, else a
// long one with the file and line that hold it.
func ExampleHeading(e *hookconfig.Entry) string {
	const long = 100
	t := e.Text()
	r := e.Rule()
	if r == nil {
		return t
	}
	cut := utf8.RuneCountInString(t) > long
	if cut {
		t = textutil.Truncate(t, long)
	}
	switch {
	case r.ID != "":
		t += " (" + r.ID + ")"
	case cut && e.Source != "" && r.Line > 0:
		t += " (" + e.Source + ":" + strconv.Itoa(r.Line) + ")"
	}
	return t
}

// ExamplesJSON is `test --examples --json` (with --require-all when
// requireAll).
func ExamplesJSON(hooks []HookExamples, requireAll bool) any {
	type exampleJSON struct {
		Name   string `json:"name"`
		Key    string `json:"key"`
		Tool   string `json:"tool"`
		Expect string `json:"expect"`
		// Line is the example's in the hook's source.
		Line int `json:"line,omitempty"`
		ExampleResult
	}
	type hookJSON struct {
		Event   string `json:"event"`
		Command string `json:"command"`
		// ID is a rule's id: (what the journal and log name it by).
		ID string `json:"id,omitempty"`
		// Shadow: the entry is in mode: shadow, so an example judged
		// by what the agent gets (nothing) fails until it decides.
		Shadow   bool          `json:"shadow,omitempty"`
		Source   string        `json:"source"`
		Approved bool          `json:"approved"`
		NotRun   string        `json:"not_run,omitempty"`
		Examples []exampleJSON `json:"examples"`
	}
	passed, failed, notRun := ExampleTotals(hooks)
	out := make([]hookJSON, 0, len(hooks))
	for i := range hooks {
		h := &hooks[i]
		e := h.Status.Entry
		j := hookJSON{Event: e.DeclaredAs, Command: e.Text(), Shadow: e.Shadow, Source: e.Source, Approved: h.Status.Approved, NotRun: h.NotRun, Examples: []exampleJSON{}}
		if r := e.Rule(); r != nil {
			j.ID = r.ID
		}
		for _, r := range h.Results {
			j.Examples = append(j.Examples, exampleJSON{Name: r.Example.Label(), Key: r.Example.Key, Tool: r.Example.Tool, Expect: string(r.Example.Expect), Line: r.Example.Line, ExampleResult: r})
		}
		out = append(out, j)
	}
	j := map[string]any{"hooks": out, "passed": passed, "failed": failed, "not_run": notRun, "ok": failed == 0}
	if requireAll {
		// --require-all: examples that did not run fail the check too.
		j["require_all"], j["ok"] = true, failed == 0 && notRun == 0
	}
	return j
}

// doctorExamples runs the examples of a hook doctor smoke-ran (x nil: no
// examples run) and fails the hook for each example it no longer passes.
func doctorExamples(ctx context.Context, x *ExampleRunner, r *DoctorResult) {
	if x == nil || len(r.Status.Entry.Examples) == 0 {
		return
	}
	h := x.Run(ctx, &r.Status)
	if h.NotRun != "" {
		r.add(CheckInfo, "examples: "+h.NotRun)
		return
	}
	for _, res := range h.Results {
		at := ""
		if where := exampleAt(r.Status.Entry, res.Example); where != "" {
			at = " (at " + where + ")"
		}
		switch {
		case res.Example.Invalid != "":
			r.add(CheckFail, "example "+res.Example.Label()+" cannot run: "+res.Got+at)
		case !res.Passed:
			r.add(CheckFail, "example "+res.Example.Label()+": expected "+string(res.Example.Expect)+", got "+res.Got+at)
		}
	}
	if h.Failed() == 0 {
		r.add(CheckOK, Count(len(h.Results), "example passes", "examples pass"))
	}
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
