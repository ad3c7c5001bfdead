package dispatcher

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"math"
	"os"
	"sync"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/internal/hookproc"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Running the selected hooks: tiers, chains, one hook.

// runTiers runs the hooks tier by tier (inTiers), a tier's hooks at once.
func (d *Dispatcher) runTiers(ctx context.Context, ev *protocol.Event, fields map[string]any, sel []Invocation, runnable []int, reports []protocol.HookReport) {
	rules := d.rulesOf(fields, sel, runnable)
	inTiers(fields, sel, runnable, reports, func(tier []int, tf map[string]any) {
		d.runParallel(ctx, ev, tf, sel, tier, reports, rules)
	})
}

// inTiers hands run the hooks tier by tier: hooks of equal priority
// together, a tier once the previous one has finished, and none after a
// tier in which a hook blocked (their reports say why). With every
// priority at its default, there is one tier. Metadata from a tier reaches
// the tiers after it (tf). It is the order both Dispatch and RunEntries
// (test) keep, so that test starts nothing dispatch would not.
func inTiers(fields map[string]any, sel []Invocation, runnable []int, reports []protocol.HookReport, run func(tier []int, tf map[string]any)) {
	var meta map[string]any
	for start := 0; start < len(runnable); {
		end := start + 1
		for end < len(runnable) && sel[runnable[end]].Entry.Priority == sel[runnable[start]].Entry.Priority {
			end++
		}
		tier := runnable[start:end]
		tf := fields
		if meta != nil {
			tf = withField(fields, "metadata", meta)
			// What the tier was shown, for a rule of it that judges a
			// rewritten call again (rejudge): the same metadata.
			for _, i := range tier {
				sel[i].fields = tf
			}
		}
		run(tier, tf)
		blocked := false
		for _, i := range tier {
			if c := reports[i].Contribution; c != nil {
				blocked = blocked || c.Decision == protocol.DecisionBlock
				meta = mergeMeta(meta, c.Metadata)
			}
		}
		if blocked {
			skipRest(runnable[end:], reports, notStartedAfterTier)
			return
		}
		start = end
	}
}

// Why a hook dispatch selected was not started (its report's Skipped).
const (
	notStartedAfterTier  = "not started: a hook of an earlier priority blocked"
	notStartedAfterChain = "not started: an earlier hook of the chain blocked"
)

func skipRest(rest []int, reports []protocol.HookReport, why string) {
	for _, i := range rest {
		reports[i].Skipped = why
	}
}

func mergeMeta(into, from map[string]any) map[string]any {
	if len(from) == 0 {
		return into
	}
	out := make(map[string]any, len(into)+len(from))
	for k, v := range into {
		out[k] = v
	}
	for k, v := range from {
		out[k] = v
	}
	return out
}

// withField returns a copy of fields with key set to value.
func withField(fields map[string]any, key string, value any) map[string]any {
	out := make(map[string]any, len(fields)+1)
	for k, v := range fields {
		out[k] = v
	}
	out[key] = value
	return out
}

func baseReport(e *hookconfig.Entry) protocol.HookReport {
	return protocol.HookReport{
		Event:   e.DeclaredAs,
		Command: e.Text(),
		Dialect: e.Dialect,
		Matcher: e.Matcher,
		Source:  e.Source,
		Shadow:  e.Shadow,
	}
}

// runParallel starts every runnable hook at once (within the dispatcher's
// bound); each fills in its own report slot, so completion order cannot
// change the fold. Its rules spend the time and Inputs the call's rules
// share (shared).
func (d *Dispatcher) runParallel(ctx context.Context, ev *protocol.Event, fields map[string]any, sel []Invocation, runnable []int, reports []protocol.HookReport, shared *callRules) {
	// One encoded payload per dialect, shared — per declared event for a
	// Codec's, whose payload is that event's.
	payloads := map[string][]byte{}
	payloadFor := func(e *hookconfig.Entry) []byte {
		key := string(e.Dialect)
		if e.Codec != nil {
			key += "\x00" + e.DeclaredAs
		}
		if forwarded(ev, e) {
			key += "\x00" + e.Event.Name // its own event's payload
		}
		p, ok := payloads[key]
		if !ok {
			p = d.payloadOf(e, runEvent(ev, e), fields)
			payloads[key] = p
		}
		return p
	}
	var rules, procs []int
	for _, i := range runnable {
		if _, ok := inlineRule(d, &sel[i]); ok {
			rules = append(rules, i) // a rule reads no payload
		} else {
			procs = append(procs, i)
		}
	}
	seqs, procs := sequences(sel, procs)
	for _, i := range procs {
		payloadFor(sel[i].Entry)
	}
	if len(procs) == 1 && len(rules) == 0 && len(seqs) == 0 {
		i := procs[0]
		d.runInto(ctx, ev, sel[i], payloadFor(sel[i].Entry), fields, &reports[i], nil)
		return
	}
	var wg sync.WaitGroup
	for _, seq := range seqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d.runSequence(ctx, ev, fields, sel, seq, reports)
		}()
	}
	for _, i := range procs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			d.runInto(ctx, ev, sel[i], payloadFor(sel[i].Entry), fields, &reports[i], nil)
		}(i)
	}
	if len(rules) > 0 {
		// Here, while the processes run.
		d.runRules(ctx, ev, fields, sel, rules, reports, shared)
	}
	wg.Wait()
}

// chained reports whether ev's hooks run as a transform chain (inChain)
// rather than in tiers (inTiers).
func chained(ev *protocol.Event) bool {
	return ev.Can(protocol.CapTransform) && ev.TextField != ""
}

// runChain runs transform hooks one after another (inChain).
func (d *Dispatcher) runChain(ctx context.Context, ev *protocol.Event, fields map[string]any, sel []Invocation, runnable []int, reports []protocol.HookReport) {
	inChain(ev, fields, runnable, reports, func(i int, cur map[string]any) {
		payload := d.payloadOf(sel[i].Entry, runEvent(ev, sel[i].Entry), cur)
		d.runInto(ctx, ev, sel[i], payload, cur, &reports[i], nil)
	})
}

// inChain hands run transform hooks one at a time, in priority order:
// each sees the text the previous one produced and the metadata the
// earlier ones returned (cur); a block ends the chain, and the reports of
// the hooks after it say why. Dispatch and RunEntries (test) share it.
func inChain(ev *protocol.Event, fields map[string]any, runnable []int, reports []protocol.HookReport, run func(i int, cur map[string]any)) {
	cur := fields
	var meta map[string]any
	for n, i := range runnable {
		run(i, cur)
		c := reports[i].Contribution
		if c == nil {
			continue
		}
		if c.Decision == protocol.DecisionBlock {
			skipRest(runnable[n+1:], reports, notStartedAfterChain)
			return
		}
		if c.Result != nil && *c.Result != "" {
			cur = withField(cur, ev.TextField, *c.Result)
		}
		if len(c.Metadata) > 0 {
			meta = mergeMeta(meta, c.Metadata)
			cur = withField(cur, "metadata", meta)
		}
	}
}

// cannotStart is why the runner must not start t (cmdpin.Target.StartProblem,
// the verdict validate, doctor and test give), "" when it may. The runner
// starts the pinned copy of a checked script, or hands it to its
// interpreter, neither of which needs the script's own execute bit or #!
// line: without this check a script that cannot start by itself would run
// in dispatch all the same. A command run through the shell (t.Shell, or
// t.Err, which prepare hands to the shell or reports) is left to the
// shell, which reports what it cannot start itself, as in Claude Code.
//
// A script that is not there keeps Hermes' words, "command not found" (a
// fail-closed guard's block message is protocol: Hermes K117, K119).
func cannotStart(t *cmdpin.Target) string {
	if t.Shell || t.Err != "" {
		return ""
	}
	why := t.StartProblem()
	if why == "" {
		return ""
	}
	if _, err := os.Stat(t.Primary()); errors.Is(err, fs.ErrNotExist) {
		return "command not found"
	}
	return why
}

// startCheck is verify preceded by cannotStart: what a worker's start
// checks.
func startCheck(t *cmdpin.Target, verify func() error) func() error {
	return func() error {
		if why := cannotStart(t); why != "" {
			return errors.New(why)
		}
		if verify != nil {
			return verify()
		}
		return nil
	}
}

// HookRun is one hook run with its raw output, for `hermes-hooks test` and
// `doctor`, which show what the hook printed.
type HookRun struct {
	Report protocol.HookReport
	Stdout []byte
	Stderr []byte
	// Payload is what the hook was sent on stdin (or as the body of an
	// http hook): the payload of its dialect.
	Payload []byte
	// Answer is what an entry decided in-process read instead of a reply
	// on Stdout: an opa: entry's OPA answer, as it came (nil when none
	// came, or the entry is another kind's).
	Answer []byte
	// NotStarted: RunEntries did not start it because dispatch would not
	// (a hook of an earlier tier, or earlier in the chain, blocked);
	// Report.Skipped says which.
	NotStarted bool
}

// UnrunEntry is the run RunEntry would start, not started: its report's
// head (command, event, dialect) and the payload it would be sent, for a
// caller that shows a hook it must not run (test: a repository's hook
// nobody approved).
func (d *Dispatcher) UnrunEntry(ev *protocol.Event, e *hookconfig.Entry, fields map[string]any) HookRun {
	if fields == nil {
		fields = map[string]any{}
	}
	return HookRun{Report: baseReport(e), Payload: d.payloadOf(e, runEvent(ev, e), fields)}
}

// RunEntry runs one entry against the fields, without asking the Gate, and
// returns its report and raw output. The caller decides whether running it
// is acceptable (test runs the user's own unapproved hooks on purpose, a
// repository's only when asked; doctor never does).
func (d *Dispatcher) RunEntry(ctx context.Context, ev *protocol.Event, e *hookconfig.Entry, fields map[string]any) HookRun {
	if fields == nil {
		fields = map[string]any{}
	}
	run := d.UnrunEntry(ev, e, fields)
	f := protocol.NewFiring(ev, "", fields)
	d.bind(&f)
	d.runInto(ctx, ev, d.hookFor(e, &f), run.Payload, fields, &run.Report, &run)
	return run
}

// runInto runs one hook and records its result and contribution in rep;
// raw, when non-nil, also receives its output. An entry ev runs as another
// event's (forward.go) has its reply read by its own event's rules, then
// held to ev's.
func (d *Dispatcher) runInto(ctx context.Context, ev *protocol.Event, h Invocation, payload []byte, fields map[string]any, rep *protocol.HookReport, raw *HookRun) {
	e := h.Entry
	select {
	case d.sem <- struct{}{}:
	case <-ctx.Done():
		rep.Skipped = "cancelled before it started: " + ctx.Err().Error()
		return
	}
	var r ran
	if h.undecided != "" {
		r.res = hookproc.Result{SpawnError: h.undecided}
	} else {
		h.fields = fields
		r = h.hookKind(d).run(ctx, d, ev, h, payload)
	}
	if r.after != nil {
		defer r.after(rep)
	}
	<-d.sem
	d.finish(ctx, ev, e, &r, fields, rep, raw)
}

// finish fills rep in from one hook's run: its result, and the
// contribution read from its reply (or decided in-process).
func (d *Dispatcher) finish(ctx context.Context, ev *protocol.Event, e *hookconfig.Entry, r *ran, fields map[string]any, rep *protocol.HookReport, raw *HookRun) {
	res := r.res
	rep.Ran = res.SpawnError == ""
	rep.ElapsedMS = math.Round(float64(res.Elapsed.Microseconds())) / 1000
	rep.TimedOut = res.TimedOut || r.timedOut
	rep.Error = res.SpawnError
	rep.StdoutTruncated = res.StdoutTruncated
	rep.StderrTruncated = res.StderrTruncated
	if res.Exited {
		code := res.ExitCode
		rep.ExitCode = &code
	}
	if res.Cancelled {
		rep.Error = "cancelled: " + ctx.Err().Error()
	}
	if raw != nil {
		raw.Stdout, raw.Stderr, raw.Answer = res.Stdout, res.Stderr, r.answer
	}
	if res.Cancelled {
		return
	}
	c, note, foreign := r.direct, "", false
	if !r.decided {
		c, note, foreign = d.readReply(ev, e, &res, r.http, cmp.Or(r.timeout, e.Timeout), fields)
	}
	rep.Contribution, rep.ForeignRefusal = c, foreign
	if note != res.SpawnError && !res.TimedOut {
		// A spawn error or timeout is already in the report's own fields.
		rep.Note = note
	}
	if res.StdoutTruncated {
		rep.Note = joinNote(rep.Note, "stdout exceeded the output cap and was truncated")
	}
	if r.note != "" {
		rep.Note = joinNote(rep.Note, r.note)
	}
	if e.Shadow && raw == nil {
		// Out of the fold before the tiers and chains look at it: a shadow
		// block stops no later tier, a shadow rewrite reaches no later
		// hook. test and doctor (raw != nil) show what the hook said.
		rep.Shadowed()
	}
}

// readReply reads a run's reply in the entry's dialect, by the rules of the
// event it ran under (runEvent), held to ev's.
func (d *Dispatcher) readReply(ev *protocol.Event, e *hookconfig.Entry, res *hookproc.Result, http *protocol.HTTPAnswer, timeout time.Duration, fields map[string]any) (*protocol.Contribution, string, bool) {
	rev := runEvent(ev, e)
	c, note, foreign := parseReply(e, protocol.Reply{
		Dialect: e.Dialect,
		Event:   rev,
		// The reply's messages (a fail_closed refusal, an ambiguous
		// reply) quote the hook by this, and they reach the model and
		// the person's terminal: quoted as every other message quotes a
		// hook's text, short and escaped, not a repository's text whole.
		Command:    ShownHook(e),
		ExitCode:   res.ExitCode,
		Stdout:     res.Stdout,
		Stderr:     res.Stderr,
		SpawnError: res.SpawnError,
		TimedOut:   res.TimedOut,
		Timeout:    timeout.Seconds(),
		FailClosed: e.FailClosed,
		HTTP:       http,

		StdoutTruncated: res.StdoutTruncated,
	})
	if rev != ev {
		c = ev.Adopt(c)
	}
	if r, ok := e.Codec.(protocol.ArgsReader); ok && c != nil && c.ReplaceArgs {
		// The input the hook saw, in its agent's shape (Codex's
		// apply_patch), back to the firing's arguments.
		c.Args = r.ReadArgs(e.DeclaredAs, ev, fields, d.cfg.Tools, c.Args)
	}
	if c != nil && c.ReplaceArgs && e.ViaShell() {
		// Claude's updatedInput and Cursor's updated_input name a file
		// file_path where a Hermes host said path.
		c.Args = protocol.HostArgs(protocol.NewFiring(ev, "", fields).Args, c.Args)
	}
	return c, note, foreign
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
