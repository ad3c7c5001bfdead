package dispatcher

import (
	"context"
	"errors"
	"maps"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// DefaultMaxParallel bounds how many hook processes one Dispatcher runs at
// once, across all firings.
const DefaultMaxParallel = 32

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
	// Pins, when set, holds the files the gate checked, open: the runner
	// verifies them immediately before it starts the hook and starts a
	// pinned binary through its descriptor. The dispatcher closes it.
	Pins *consent.Pins
}

// Run reports whether the hook may run.
func (v Verdict) Run() bool { return v.Kind == VerdictRun }

// Gate decides whether a hook may run. The dispatcher asks it for every
// matching hook of every firing and never runs a hook it refuses; the policy
// (allowlist, accept channels, drift) lives behind it, in package consent.
type Gate interface {
	Check(h Hook) Verdict
}

// Hook is one entry about to run in one firing: where and how it will run,
// so that the gate checks the very files that would be executed.
type Hook struct {
	Entry *Entry
	// Dir is the directory the hook starts in, where a relative script path
	// is found ("" = the dispatcher's working directory).
	Dir string
	// ProjectDir is CLAUDE_PROJECT_DIR for Claude-dialect hooks.
	ProjectDir string
	// Env is the hook's environment.
	Env []string
	// Target is what the command runs (consent.Resolve), worked out once:
	// the gate pins its files and the runner starts it.
	Target consent.Target

	pins *consent.Pins // the gate's pinned files, for the runner
}

// GateFunc adapts a function to Gate.
type GateFunc func(h Hook) Verdict

// Check calls f.
func (f GateFunc) Check(h Hook) Verdict { return f(h) }

// AllowAll runs every hook. It exists for tests and for `hermes-hooks
// test`, which runs unapproved hooks on purpose; a host must never use it.
var AllowAll Gate = GateFunc(func(Hook) Verdict { return Verdict{Kind: VerdictRun} })

// Options configures a Dispatcher.
type Options struct {
	// Gate decides which hooks may run. Required.
	Gate Gate
	// Cwd is the payload's cwd when the host sends none (default: the
	// process's working directory).
	Cwd string
	// Profile is the Hermes profile name for payloads ("default").
	Profile string
	// MaxParallel bounds concurrently running hooks (DefaultMaxParallel).
	MaxParallel int
	// OutputCap bounds each hook's captured stdout and stderr
	// (DefaultOutputCap); the rest is drained and dropped.
	OutputCap int
	// Env is the hooks' base environment (default os.Environ()).
	// HERMES_HOOKS=1 is always added.
	Env []string
	// Warn receives warnings (nil: dropped).
	Warn func(string)
	// Sessions keeps per-session hook state (nil: no state; payloads then
	// carry no "state" field and state patches are ignored).
	Sessions SessionStore
	// Async says how async hooks (Claude's async: true) run: in background
	// goroutines of this dispatcher (the default: serve, Go hosts), or —
	// for a process that exits right after one dispatch — handed to
	// another process (AsyncExternal), which runs them with AsyncInline.
	Async AsyncMode
}

// AsyncMode is how a Dispatcher runs async hooks.
type AsyncMode uint8

const (
	// AsyncBackground runs them in goroutines; Close cancels them.
	AsyncBackground AsyncMode = iota
	// AsyncExternal does not run them: the report says so and
	// AsyncDeferred reports that some were left for another process.
	AsyncExternal
	// AsyncInline runs only the async hooks, in the foreground, and keeps
	// their replies for the session's next dispatch (the other process).
	AsyncInline
)

// Dispatcher runs hooks for events. It is safe for concurrent use.
type Dispatcher struct {
	cfg   *Config
	opts  Options
	async asyncState
	// deferred counts async hooks left for another process (AsyncExternal).
	deferred atomic.Int64
	byEvent  map[string][]*Entry
	env      []string
	sem      chan struct{}
	payload  protocol.PayloadEnv
}

// UnknownEventError is returned for an event name nobody knows.
type UnknownEventError struct {
	Name       string
	Suggestion string
}

func (e *UnknownEventError) Error() string {
	msg := "unknown event '" + e.Name + "'"
	if e.Suggestion != "" {
		msg += " (did you mean '" + e.Suggestion + "'?)"
	}
	return msg
}

// LookupEvent resolves an event name or returns an *UnknownEventError with a
// did-you-mean.
func LookupEvent(name string) (*protocol.Event, error) {
	ev, ok := protocol.Lookup(name)
	if !ok {
		return nil, &UnknownEventError{Name: name, Suggestion: protocol.SuggestEvent(name)}
	}
	return ev, nil
}

// New builds a Dispatcher for cfg.
func New(cfg *Config, opts Options) (*Dispatcher, error) {
	if opts.Gate == nil {
		return nil, errors.New("dispatcher: Options.Gate is required (use consent for hosts, AllowAll only in tests)")
	}
	if cfg == nil {
		cfg = emptyConfig()
	}
	if cfg.Tools == nil {
		cfg.Tools = protocol.DefaultTools()
	}
	if opts.MaxParallel <= 0 {
		opts.MaxParallel = DefaultMaxParallel
	}
	if opts.OutputCap <= 0 {
		opts.OutputCap = DefaultOutputCap
	}
	if opts.Cwd == "" {
		opts.Cwd, _ = os.Getwd()
	}
	d := &Dispatcher{
		cfg:     cfg,
		opts:    opts,
		byEvent: map[string][]*Entry{},
		env:     hookBaseEnv(opts.Env),
		sem:     make(chan struct{}, opts.MaxParallel),
		payload: protocol.PayloadEnv{Cwd: opts.Cwd, Profile: opts.Profile, Tools: cfg.Tools},
	}
	for _, e := range cfg.Entries {
		d.byEvent[e.Event.Name] = append(d.byEvent[e.Event.Name], e)
	}
	for _, list := range d.byEvent {
		sort.SliceStable(list, func(i, j int) bool {
			if list[i].Priority != list[j].Priority {
				return list[i].Priority < list[j].Priority
			}
			return list[i].order < list[j].order
		})
	}
	return d, nil
}

// Config returns the configuration the dispatcher runs.
func (d *Dispatcher) Config() *Config { return d.cfg }

// EntriesFor lists the entries of an event (any alias), in run order.
func (d *Dispatcher) EntriesFor(ev *protocol.Event) []*Entry { return d.byEvent[ev.Name] }

func (d *Dispatcher) warn(msg string) {
	if d.opts.Warn != nil {
		d.opts.Warn(msg)
	}
}

// Dispatch fires event with the host's fields and returns the folded
// outcome. Hooks that fail are reported inside the outcome; the error is
// non-nil only for an unknown event. Cancelling ctx kills every running hook.
func (d *Dispatcher) Dispatch(ctx context.Context, event string, fields map[string]any) (protocol.Outcome, error) {
	ev, ok := protocol.Lookup(event)
	if !ok {
		return protocol.Outcome{}, &UnknownEventError{Name: event, Suggestion: protocol.SuggestEvent(event)}
	}
	session := d.sessionID(fields)
	// A session's state ends with it, whether or not any hook listens.
	defer d.endSession(ev, session)
	// Replies of async hooks fired earlier in the session come with this
	// dispatch, whether or not a hook of its own runs.
	var late []protocol.HookReport
	if session != "" && d.opts.Async != AsyncInline {
		late = d.takePending(ev, session)
	}
	entries := d.byEvent[ev.Name]
	if len(entries) == 0 {
		// The hot path of a host that fires every event: nothing to run,
		// nothing allocated.
		if late != nil {
			args, _ := protocol.Args(fields)
			return protocol.Fold(ev, args, late), nil
		}
		return protocol.Outcome{Event: ev.Name, Decision: protocol.DecisionNone}, nil
	}
	if fields == nil {
		fields = map[string]any{}
	}
	selected := d.Select(ev, fields)
	if len(selected) == 0 {
		if late != nil {
			args, _ := protocol.Args(fields)
			return protocol.Fold(ev, args, late), nil
		}
		return protocol.Outcome{Event: ev.Name, Decision: protocol.DecisionNone}, nil
	}
	reports := make([]protocol.HookReport, len(selected))
	hooks := make([]Hook, len(selected))
	var runnable []int
	pins := make([]*consent.Pins, len(selected))
	defer func() {
		for _, p := range pins {
			p.Close()
		}
	}()
	for i, e := range selected {
		reports[i] = baseReport(e)
		if d.opts.Async == AsyncInline && !e.Async {
			reports[i].Skipped = "not async: it ran in the foreground"
			continue
		}
		// What the hook runs is decided once: the gate checks (and pins)
		// those files, and the runner starts them.
		hooks[i] = d.hookFor(e, fields)
		v := d.opts.Gate.Check(hooks[i])
		pins[i], hooks[i].pins = v.Pins, v.Pins
		switch {
		case v.Kind == VerdictRun && e.Async && e.Unsupported == "" && d.opts.Async == AsyncBackground:
			reports[i].Skipped = d.startAsync(ev, hooks[i], maps.Clone(fields), session)
			pins[i] = nil // the background run owns them now
		case v.Kind == VerdictRun && e.Async && e.Unsupported == "" && d.opts.Async == AsyncExternal:
			reports[i].Skipped = "async: handed to a background process; its reply comes with this session's next dispatch"
			d.deferred.Add(1)
		case v.Kind == VerdictRun && e.ifBroken != "":
			// An if rule that cannot be evaluated: a guard must not be
			// skipped silently, so the gating event is blocked.
			reports[i].Skipped = e.ifBroken
			if ev.Gating() {
				reports[i].Contribution = &protocol.Contribution{Decision: protocol.DecisionBlock,
					Message: "hook " + e.Command + ": " + e.ifBroken + ", so this tool call is blocked rather than let an unchecked guard through"}
			}
		case v.Kind == VerdictRun && e.Unsupported != "":
			// A handler that needs a model or an MCP client cannot run
			// here. On the gating event it was meant as a guard: block
			// rather than let the call through unguarded.
			if ev.Gating() {
				reports[i].Skipped = "cannot run here (" + e.Unsupported + ")"
				reports[i].Contribution = &protocol.Contribution{Decision: protocol.DecisionBlock,
					Message: "hook " + e.Command + " cannot run outside Claude Code (" + e.Unsupported + "), so this tool call is blocked rather than let an unchecked guard through; remove or replace that handler to allow it"}
			} else {
				reports[i].Skipped = "cannot run here (" + e.Unsupported + ")"
			}
		case v.Kind == VerdictRun:
			runnable = append(runnable, i)
		case v.Kind == VerdictBlock:
			reports[i].Skipped = v.Reason
			reports[i].Contribution = &protocol.Contribution{Decision: protocol.DecisionBlock, Message: v.Reason}
		default:
			reports[i].Skipped = v.Reason
		}
	}
	args, _ := protocol.Args(fields)
	var sess Session
	var ranOnce []string
	if session != "" && len(runnable) > 0 {
		sess, fields = d.loadSession(ev, session, fields)
		runnable, ranOnce = d.filterOnce(selected, runnable, reports, sess)
	}
	if ev.Can(protocol.CapTransform) && ev.TextField != "" {
		d.runChain(ctx, ev, fields, hooks, runnable, reports)
	} else {
		d.runTiers(ctx, ev, fields, hooks, runnable, reports)
	}
	if d.opts.Async == AsyncInline {
		// The other process's job: keep the async hooks' replies for the
		// session's next dispatch; nobody reads this outcome.
		d.keepReplies(ev, session, hooks, runnable, reports)
		return protocol.Fold(ev, args, reports), nil
	}
	outcome := protocol.Fold(ev, args, append(reports, late...))
	if session != "" && len(runnable) > 0 {
		d.saveSession(ev, session, sess, &outcome, ranOnce)
	}
	return outcome, nil
}

// onceKey names an entry among the once-per-session hooks that ran.
func onceKey(e *Entry) string { return e.DeclaredAs + "\x00" + e.Command + "\x00" + e.Source }

// filterOnce drops the once-per-session hooks (Claude's once) that already
// ran in this session, and returns the keys of those about to run.
func (d *Dispatcher) filterOnce(selected []*Entry, runnable []int, reports []protocol.HookReport, sess Session) ([]int, []string) {
	var keep []int
	var once []string
	for _, i := range runnable {
		e := selected[i]
		if !e.Once {
			keep = append(keep, i)
			continue
		}
		k := onceKey(e)
		if slices.Contains(sess.Ran, k) {
			reports[i].Skipped = "once: it already ran in this session"
			continue
		}
		keep = append(keep, i)
		once = append(once, k)
	}
	return keep, once
}

// AsyncDeferred reports how many async hooks this dispatcher left for
// another process (AsyncExternal) so far.
func (d *Dispatcher) AsyncDeferred() int64 { return d.deferred.Load() }

// runTiers runs the hooks tier by tier: hooks of equal priority start
// together, a tier starts once the previous one has finished, and a block
// stops the tiers after it from starting. With every priority at its
// default, there is one tier and every hook starts at once. Metadata from a
// tier reaches the tiers after it.
func (d *Dispatcher) runTiers(ctx context.Context, ev *protocol.Event, fields map[string]any, sel []Hook, runnable []int, reports []protocol.HookReport) {
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
		}
		d.runParallel(ctx, ev, tf, sel, tier, reports)
		blocked := false
		for _, i := range tier {
			if c := reports[i].Contribution; c != nil {
				blocked = blocked || c.Decision == protocol.DecisionBlock
				meta = mergeMeta(meta, c.Metadata)
			}
		}
		if blocked {
			skipRest(runnable[end:], reports, "not started: a hook of an earlier priority blocked")
			return
		}
		start = end
	}
}

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

func isStopEvent(ev *protocol.Event) bool {
	return ev.Name == "pre_verify" || ev.Name == "subagent_stop"
}

// sessionID is the session the firing belongs to, when the dispatcher keeps
// session state and the host said which session it is.
func (d *Dispatcher) sessionID(fields map[string]any) string {
	if d.opts.Sessions == nil {
		return ""
	}
	s, _ := protocol.SessionID(fields).(string)
	return s
}

// loadSession reads the session and returns the fields the hooks see: the
// host's, plus "state" once the session has any (a payload keeps exactly
// the host's keys until a hook uses the feature), and, on stop events,
// Claude's stop_hook_active when the host did not say (Claude-dialect
// payloads only: Hermes never sends it).
func (d *Dispatcher) loadSession(ev *protocol.Event, session string, fields map[string]any) (Session, map[string]any) {
	sess, err := d.opts.Sessions.Load(session)
	if err != nil {
		d.warn(err.Error())
	}
	if len(sess.State) > 0 {
		fields = withField(fields, "state", sess.State)
	}
	if _, set := fields["stop_hook_active"]; isStopEvent(ev) && !set {
		fields = withField(fields, "stop_hook_active", sess.StopBlocks > 0)
	}
	return sess, fields
}

// saveSession applies the replies' state patches in config order and keeps
// the stop-hook block count; past StopBlockCap consecutive blocks, a stop
// hook's block is overridden so the agent may stop.
func (d *Dispatcher) saveSession(ev *protocol.Event, session string, loaded Session, o *protocol.Outcome, ranOnce []string) {
	var patched []int
	for i := range o.Hooks {
		if c := o.Hooks[i].Contribution; c != nil && c.State != nil {
			patched = append(patched, i)
		}
	}
	stop := isStopEvent(ev)
	if len(patched) == 0 && len(ranOnce) == 0 && !(stop && (o.Blocked() || loaded.StopBlocks > 0)) {
		return
	}
	var capped bool
	err := d.opts.Sessions.Update(session, func(s *Session) error {
		for _, k := range ranOnce {
			if !slices.Contains(s.Ran, k) {
				s.Ran = append(s.Ran, k)
			}
		}
		for _, i := range patched {
			s.State = applyPatch(s.State, o.Hooks[i].Contribution.State)
		}
		if stop {
			switch {
			case !o.Blocked():
				s.StopBlocks = 0
			case s.StopBlocks >= StopBlockCap:
				s.StopBlocks, capped = 0, true
			default:
				s.StopBlocks++
			}
		}
		return nil
	})
	if errors.Is(err, ErrStateTooLarge) {
		for _, i := range patched {
			o.Hooks[i].Note = joinNote(o.Hooks[i].Note, "state patch refused: "+err.Error())
		}
		err = nil
	}
	if err != nil {
		d.warn(err.Error())
	}
	if capped {
		for i := range o.Hooks {
			if c := o.Hooks[i].Contribution; c != nil && c.Decision == protocol.DecisionBlock {
				o.Hooks[i].Note = joinNote(o.Hooks[i].Note, "stop-hook block cap reached (8 in a row): the agent may stop")
			}
		}
		o.Decision, o.Message = protocol.DecisionNone, ""
	}
}

// endSession forgets a session's state when it ends (on_session_end,
// on_session_finalize), whether or not any hook ran.
func (d *Dispatcher) endSession(ev *protocol.Event, session string) {
	if session == "" || (ev.Name != "on_session_end" && ev.Name != "on_session_finalize") {
		return
	}
	if err := d.opts.Sessions.Clear(session); err != nil {
		d.warn(err.Error())
	}
}

// Select returns the entries of ev whose matchers accept the fields, in run
// order, with Claude's dedup applied: identical Claude commands (from
// different settings files or matcher groups) run once per firing.
func (d *Dispatcher) Select(ev *protocol.Event, fields map[string]any) []*Entry {
	var out []*Entry
	var claudeSeen map[string]bool
	for _, e := range d.byEvent[ev.Name] {
		if !e.Matches(fields, d.cfg.Tools) || !d.ifAllows(ev, e, fields) {
			continue
		}
		if e.Dialect == protocol.Claude {
			if claudeSeen[e.Command] {
				continue
			}
			if claudeSeen == nil {
				claudeSeen = map[string]bool{}
			}
			claudeSeen[e.Command] = true
		}
		out = append(out, e)
	}
	return out
}

func baseReport(e *Entry) protocol.HookReport {
	return protocol.HookReport{
		Event:   e.DeclaredAs,
		Command: e.Command,
		Dialect: e.Dialect,
		Matcher: e.Matcher,
		Source:  e.Source,
	}
}

// runParallel starts every runnable hook at once (within the dispatcher's
// bound); each fills in its own report slot, so completion order cannot
// change the fold.
func (d *Dispatcher) runParallel(ctx context.Context, ev *protocol.Event, fields map[string]any, sel []Hook, runnable []int, reports []protocol.HookReport) {
	var payloads [2][]byte // one encoded payload per dialect, shared
	payloadFor := func(dl protocol.Dialect) []byte {
		i := 0
		if dl == protocol.Claude {
			i = 1
		}
		if payloads[i] == nil {
			payloads[i] = protocol.BuildPayload(dl, ev, fields, d.payload)
		}
		return payloads[i]
	}
	for _, i := range runnable {
		payloadFor(sel[i].Entry.Dialect)
	}
	if len(runnable) == 1 {
		i := runnable[0]
		d.runInto(ctx, ev, sel[i], payloadFor(sel[i].Entry.Dialect), fields, &reports[i], nil)
		return
	}
	var wg sync.WaitGroup
	for _, i := range runnable {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			d.runInto(ctx, ev, sel[i], payloadFor(sel[i].Entry.Dialect), fields, &reports[i], nil)
		}(i)
	}
	wg.Wait()
}

// runChain runs transform hooks one after another, in priority order: each
// sees the text the previous one produced and the metadata the earlier ones
// returned; a block ends the chain.
func (d *Dispatcher) runChain(ctx context.Context, ev *protocol.Event, fields map[string]any, sel []Hook, runnable []int, reports []protocol.HookReport) {
	cur := fields
	var meta map[string]any
	for n, i := range runnable {
		payload := protocol.BuildPayload(sel[i].Entry.Dialect, ev, cur, d.payload)
		d.runInto(ctx, ev, sel[i], payload, cur, &reports[i], nil)
		c := reports[i].Contribution
		if c == nil {
			continue
		}
		if c.Decision == protocol.DecisionBlock {
			skipRest(runnable[n+1:], reports, "not started: an earlier hook of the chain blocked")
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

// HookRun is one hook run with its raw output, for `hermes-hooks test` and
// `doctor`, which show what the hook printed.
type HookRun struct {
	Report protocol.HookReport
	Stdout []byte
	Stderr []byte
}

// RunEntry runs one entry against the fields, without asking the Gate, and
// returns its report and raw output. The caller decides whether running it
// is acceptable (test runs unapproved hooks on purpose; doctor never does).
func (d *Dispatcher) RunEntry(ctx context.Context, ev *protocol.Event, e *Entry, fields map[string]any) HookRun {
	if fields == nil {
		fields = map[string]any{}
	}
	run := HookRun{Report: baseReport(e)}
	payload := protocol.BuildPayload(e.Dialect, ev, fields, d.payload)
	d.runInto(ctx, ev, d.hookFor(e, fields), payload, fields, &run.Report, &run)
	return run
}

// runInto runs one hook and records its result and contribution in rep;
// raw, when non-nil, also receives its output.
func (d *Dispatcher) runInto(ctx context.Context, ev *protocol.Event, h Hook, payload []byte, fields map[string]any, rep *protocol.HookReport, raw *HookRun) {
	e := h.Entry
	select {
	case d.sem <- struct{}{}:
	case <-ctx.Done():
		rep.Skipped = "cancelled before it started: " + ctx.Err().Error()
		return
	}
	var (
		res      runResult
		spawnErr string
	)
	if e.Type == TypeHTTP {
		res = runHTTP(ctx, e, h.Env, payload, d.opts.OutputCap)
	} else {
		var spec runSpec
		spec, spawnErr = d.prepare(h)
		var envFile string
		if spawnErr == "" && e.Dialect == protocol.Claude && ev.EnvFile {
			envFile, spec.Env = claudeEnvFile(spec.Env)
		}
		if spawnErr != "" {
			res.SpawnError = spawnErr
		} else {
			spec.Stdin = payload
			res = run(ctx, spec)
		}
		if envFile != "" {
			defer func() { readEnvFile(envFile, rep) }()
		}
	}
	<-d.sem

	rep.Ran = spawnErr == "" && res.SpawnError == ""
	rep.ElapsedMS = math.Round(float64(res.Elapsed.Microseconds())) / 1000
	rep.TimedOut = res.TimedOut
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
		raw.Stdout, raw.Stderr = res.Stdout, res.Stderr
	}
	if res.Cancelled {
		return
	}
	c, note := protocol.ParseReply(protocol.Reply{
		Dialect:    e.Dialect,
		Event:      ev,
		Command:    e.Command,
		ExitCode:   res.ExitCode,
		Stdout:     res.Stdout,
		Stderr:     res.Stderr,
		SpawnError: res.SpawnError,
		TimedOut:   res.TimedOut,
		Timeout:    e.Timeout.Seconds(),
		FailClosed: e.FailClosed,
	})
	if c != nil && c.ReplaceArgs && e.Dialect == protocol.Claude {
		orig, _ := protocol.Args(fields)
		c.Args = protocol.HostArgs(orig, c.Args)
	}
	rep.Contribution = c
	if note != res.SpawnError && !res.TimedOut {
		// A spawn error or timeout is already in the report's own fields.
		rep.Note = note
	}
	if res.StdoutTruncated {
		rep.Note = joinNote(rep.Note, "stdout exceeded the output cap and was truncated")
	}
}

// claudeEnvFile creates the hook's CLAUDE_ENV_FILE (empty, private) and
// returns its path and the hook's environment with it set; "" when it
// cannot be created (the hook then runs without one).
func claudeEnvFile(env []string) (string, []string) {
	f, err := os.CreateTemp("", "hermes-hooks-env-*.sh")
	if err != nil {
		return "", env
	}
	f.Close()
	return f.Name(), withEnv(env, "CLAUDE_ENV_FILE", f.Name())
}

// readEnvFile reads what the hook exported into its CLAUDE_ENV_FILE into
// its contribution, then removes the file.
func readEnvFile(path string, rep *protocol.HookReport) {
	defer os.Remove(path)
	data, err := fsutil.ReadRegular(path, "", 64<<10)
	if err != nil || len(data) == 0 {
		return
	}
	vars, note := protocol.ParseEnvFile(data)
	if note != "" {
		rep.Note = joinNote(rep.Note, note)
	}
	if vars == nil {
		return
	}
	if rep.Contribution == nil {
		rep.Contribution = &protocol.Contribution{}
	}
	rep.Contribution.Env = vars
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// prepare turns a hook into a process to run, or a spawn error worded as
// Hermes words it. It starts what h.Target names — the files the gate
// checked — and, when the gate pinned them, verifies them immediately
// before the start and starts a pinned binary through its descriptor.
func (d *Dispatcher) prepare(h Hook) (runSpec, string) {
	e, t := h.Entry, &h.Target
	spec := runSpec{Env: h.Env, Timeout: e.Timeout, Cap: d.opts.OutputCap}
	if spec.Tag = runTag(); spec.Tag != "" {
		spec.Env = append(slices.Clip(spec.Env), runTagVar+"="+spec.Tag)
	}
	if h.pins != nil {
		spec.Verify = h.pins.Verify
	}
	if t.Err != "" {
		if e.Dialect == protocol.Claude && t.Shell && t.ShellPath != "" {
			// The shell reports it (exit 127 and its own words), as in
			// Claude Code.
			spec.Path, spec.Argv, spec.Dir = t.ShellPath, []string{t.ShellPath, "-c", e.Command}, h.Dir
			return spec, ""
		}
		return spec, t.Err
	}
	if t.Shell {
		// Claude Code runs command strings through the shell ($VARS, pipes,
		// &&), in the session's working directory.
		spec.Path, spec.Argv, spec.Dir = t.ShellPath, []string{t.ShellPath, "-c", e.Command}, h.Dir
		return spec, ""
	}
	spec.Path, spec.Argv, spec.Dir = t.Path, t.Argv, t.Dir
	if len(t.Env) > 0 {
		spec.Env = append(slices.Clip(spec.Env), t.Env...)
	}
	if e.Dialect == protocol.Claude {
		// What /bin/sh would have done before starting the command: PWD
		// names the directory it runs in, and a script without a #! line
		// is run by the shell.
		spec.Env = withEnv(spec.Env, "PWD", t.Dir)
		spec.ShellFallback = true
	}
	if p := h.pins.ExecPath(); p != "" {
		spec.Path = p
	}
	if st := h.pins.Start(); st != nil {
		// The interpreter reads the sealed copy of the script that was
		// checked, not whatever its name holds by then.
		spec.Path, spec.Argv, spec.Script = st.Path, st.Argv, st.Script
		if st.PythonPath != "" {
			pp := st.PythonPath
			for _, kv := range spec.Env {
				if v, ok := strings.CutPrefix(kv, "PYTHONPATH="); ok && v != "" {
					pp += string(os.PathListSeparator) + v
				}
			}
			spec.Env = withEnv(spec.Env, "PYTHONPATH", pp)
		}
	}
	return spec, ""
}

// hookFor decides where and how an entry runs for this firing: its
// directory ("" = the dispatcher's own), its environment and, for Claude
// hooks, CLAUDE_PROJECT_DIR; then what its command runs there. Claude hooks
// run in the session's cwd, as in Claude Code; project-local hooks in their
// project root; other Hermes hooks where the dispatcher runs, as in Hermes.
// The gate checks the files of the same Target the runner starts, so what
// is approved is what runs.
func (d *Dispatcher) hookFor(e *Entry, fields map[string]any) Hook {
	h := Hook{Entry: e, Dir: e.WorkDir, Env: d.env}
	if e.Dialect == protocol.Claude {
		if cwd, ok := fields["cwd"].(string); ok && cwd != "" && isDir(cwd) {
			h.Dir = cwd
		}
		h.ProjectDir = e.ProjectDir
		if h.ProjectDir == "" {
			h.ProjectDir = h.Dir
			if h.ProjectDir == "" {
				h.ProjectDir = d.opts.Cwd
			}
		}
		h.Env = withEnv(d.env, "CLAUDE_PROJECT_DIR", h.ProjectDir)
	}
	dir := h.Dir
	if dir == "" {
		dir = d.opts.Cwd
	}
	if t := fixedTarget(e); t != nil {
		h.Target = *t
	} else {
		h.Target = consent.Resolve(commandOf(e, h.Env, dir))
	}
	return h
}

// fixedTarget is what an entry that starts no local command "runs": an
// http endpoint or a handler that cannot run here. Both are approved by
// their text only; nil for ordinary commands.
func fixedTarget(e *Entry) *consent.Target {
	switch {
	case e.Unsupported != "":
		return &consent.Target{Opaque: e.Unsupported}
	case e.Type == TypeHTTP:
		return &consent.Target{Opaque: "an HTTP endpoint: what it answers can change without notice"}
	}
	return nil
}

// commandOf describes how an entry's command runs, for consent.Resolve.
func commandOf(e *Entry, env []string, dir string) consent.Command {
	c := consent.Command{Text: e.Command, Shell: e.Dialect == protocol.Claude, Env: env, Dir: dir}
	if e.Args != nil {
		c.Shell, c.Argv = false, e.Args
	}
	if e.Shell == "bash" {
		c.ShellPath = "bash"
	}
	return c
}

// SplitCommand splits a Hermes-dialect command into argv the way Hermes
// does (POSIX shell words, no shell), except that "~" is expanded at the
// start of every word, not only of the whole string — so "bash ~/h.sh"
// works. The error is worded as Hermes words it.
func SplitCommand(command string) ([]string, string) {
	return consent.SplitWords(command, nil)
}

// SameCommand reports whether two command strings run the same thing: equal,
// or equal once split into words with "~" expanded. It lets people type a
// command as their shell expands it (hermes-hooks approve ~/h.sh arrives as
// /home/me/h.sh) and still name the config's "~/h.sh".
func SameCommand(a, b string) bool {
	if a == b {
		return true
	}
	wa, errA := SplitCommand(a)
	wb, errB := SplitCommand(b)
	if errA != "" || errB != "" || len(wa) != len(wb) {
		return false
	}
	for i := range wa {
		if wa[i] != wb[i] {
			return false
		}
	}
	return true
}

// acceptChannels are the environment variables that approve hooks. Hooks
// never inherit them: a hook that runs hermes-hooks itself (a nested
// dispatch) must not approve whatever it meets on the way.
var acceptChannels = []string{"HERMES_ACCEPT_HOOKS"}

// hookBaseEnv is the environment every hook starts from: env (nil: the
// process's), with HERMES_HOOKS=1 — the recursion guard — and without the
// accept channels.
func hookBaseEnv(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if slices.Contains(acceptChannels, name) || name == "HERMES_HOOKS" {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "HERMES_HOOKS=1")
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// withEnv returns env with key=value set (replacing any earlier value),
// never modifying env itself.
func withEnv(env []string, key, value string) []string {
	prefix := key + "="
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, prefix) {
			out = append(out, kv)
		}
	}
	return append(out, prefix+value)
}
