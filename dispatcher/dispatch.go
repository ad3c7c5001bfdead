package dispatcher

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol/permrule"
	"github.com/hermes-hooks/hermes-hooks/sessions"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// defaultMaxParallel bounds how many hook processes one Dispatcher runs at
// once, across all firings.
const defaultMaxParallel = 32

// Options configures a Dispatcher.
type Options struct {
	// Gate decides which hooks may run. Required.
	Gate Gate
	// Cwd is the working directory, given once: where hooks without a
	// directory of their own run and their relative script paths are
	// found, and the payload's cwd when the host sends none (default: the
	// process's working directory).
	Cwd string
	// Profile is the Hermes profile name for payloads ("default").
	Profile string
	// MaxParallel bounds concurrently running hooks (defaultMaxParallel).
	MaxParallel int
	// BeforeStart, when set, is called once, before this dispatcher starts
	// its first hook process (a one-shot CLI sets up its signal handling
	// and becomes the hooks' subreaper there, so that a dispatch which
	// starts none pays for neither, and one that does can prepare both
	// while consent is checked).
	BeforeStart func()
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
	Sessions sessions.Store
	// Async says how async hooks (Claude's async: true) run: in background
	// goroutines of this dispatcher (the default: serve, Go hosts), or —
	// for a process that exits right after one dispatch — handed to
	// another process (AsyncExternal), which runs them with AsyncInline.
	Async AsyncMode
	// OneShotWorkers runs worker entries as ordinary one-shot hooks (one
	// payload, then EOF on stdin): for a process that exits after one
	// dispatch, where a kept-alive worker would serve nobody.
	OneShotWorkers bool
	// Recorder, when set, is told of every dispatch that ran a hook (see
	// Recorder): the CLI's dispatch and hook verbs and serve set it to the
	// decision journal; test and doctor do not.
	Recorder Recorder
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
	cfg   *hookconfig.Config
	opts  Options
	async asyncState
	// deferred counts async hooks left for another process (AsyncExternal).
	deferred atomic.Int64
	byEvent  map[string][]*hookconfig.Entry
	// alsoRun: per event, the entries of another it runs too (forward.go).
	alsoRun map[string][]*hookconfig.Entry
	env     []string
	sem     chan struct{}
	payload protocol.PayloadEnv
	workers workers
	// startOnce runs Options.BeforeStart.
	startOnce sync.Once
	// projects: the events with a repository's entries, which a screen
	// may refuse before their matchers run (screener).
	projects map[string]bool
	// kinds: each entry's kind (kind.go), mapped once.
	kinds map[*hookconfig.Entry]hookKind
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
func New(cfg *hookconfig.Config, opts Options) (*Dispatcher, error) {
	if opts.Gate == nil {
		return nil, errors.New("dispatcher: Options.Gate is required (use consent for hosts, AllowAll only in tests)")
	}
	if cfg == nil {
		cfg = hookconfig.Empty()
	}
	if cfg.Tools == nil {
		cfg.Tools = protocol.DefaultTools()
	}
	if opts.MaxParallel <= 0 {
		opts.MaxParallel = defaultMaxParallel
	}
	if !keepsWorkers {
		opts.OneShotWorkers = true
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
		byEvent: map[string][]*hookconfig.Entry{},
		kinds:   make(map[*hookconfig.Entry]hookKind, len(cfg.Entries)),
		env:     hookBaseEnv(opts.Env),
		sem:     make(chan struct{}, opts.MaxParallel),
		payload: protocol.PayloadEnv{Cwd: opts.Cwd, Profile: opts.Profile, Tools: cfg.Tools},
	}
	for i, e := range cfg.Entries {
		if e == nil || e.Event == nil {
			return nil, fmt.Errorf("dispatcher: entry %d has no Event (use protocol.Lookup)", i)
		}
		e.Prepare(func(msg string) { d.warn("hook " + e.Text() + ": matcher: " + msg) })
		d.kinds[e] = kindOf(e)
		if !e.Scope.Global() {
			if d.projects == nil {
				d.projects = map[string]bool{}
			}
			d.projects[e.Event.Name] = true
		}
		d.byEvent[e.Event.Name] = append(d.byEvent[e.Event.Name], e)
	}
	for _, list := range d.byEvent {
		runOrder(list)
	}
	d.alsoRun = alsoRunLists(d.byEvent)
	return d, nil
}

// Config returns the configuration the dispatcher runs.
func (d *Dispatcher) Config() *hookconfig.Config { return d.cfg }

// EntriesFor lists the entries of an event (any alias), in run order.
func (d *Dispatcher) EntriesFor(ev *protocol.Event) []*hookconfig.Entry { return d.byEvent[ev.Name] }

func (d *Dispatcher) warn(msg string) {
	if d.opts.Warn != nil {
		d.opts.Warn(msg)
	}
}

// Dispatch fires event with the host's fields and returns the folded
// outcome. Hooks that fail are reported inside the outcome; the error is
// non-nil only for an unknown event. Cancelling ctx kills every running
// hook. It is Fire for a firing read from fields (protocol.NewFiring).
func (d *Dispatcher) Dispatch(ctx context.Context, event string, fields map[string]any) (protocol.Outcome, error) {
	ev, ok := protocol.Lookup(event)
	if !ok {
		return protocol.Outcome{}, &UnknownEventError{Name: event, Suggestion: protocol.SuggestEvent(event)}
	}
	if d.idle(ev) {
		// The hot path of a host that fires every event: nothing to
		// run, no session to serve, so the fields need not be read.
		return protocol.Outcome{Event: ev.Name, Decision: protocol.DecisionNone}, nil
	}
	f := protocol.NewFiring(ev, event, fields) // command:model fires as command:* with command "model"
	return d.Fire(ctx, &f)
}

// idle reports whether a firing of ev can do nothing at all here, whatever
// its fields: no entry to select, no session whose late replies or end it
// would carry, no unloadable file to refuse it for.
func (d *Dispatcher) idle(ev *protocol.Event) bool {
	return d.opts.Sessions == nil && len(d.byEvent[ev.Name]) == 0 && len(d.alsoRun[ev.Name]) == 0 &&
		!(ev.FailsClosed() && len(d.cfg.Unloaded) > 0)
}

// Fire dispatches a firing the caller read once (protocol.NewFiring) and
// returns the folded outcome, as Dispatch does. Fire binds f to this
// dispatcher (its tool table, its working directory: protocol.Firing.Bind)
// before anything reads it.
//
// Its phases: select the entries that fit (choose), ask the gate about
// each (gate), run those it lets through (run), fold their reports and
// hand the record over (fold); see phases.go.
func (d *Dispatcher) Fire(ctx context.Context, f *protocol.Firing) (protocol.Outcome, error) {
	ev := f.Event
	session := d.sessionID(f)
	// A session's state ends with it, whether or not any hook listens.
	defer d.endSession(ctx, ev, session)
	// Replies of async hooks fired earlier in the session come with this
	// dispatch, whether or not a hook of its own runs.
	var late []protocol.HookReport
	var peek *sessions.Session
	if session != "" && d.opts.Async != AsyncInline {
		late, peek = d.takePending(ctx, ev, session)
	}
	if ev.FailsClosed() && len(d.cfg.Unloaded) > 0 {
		// A project hooks file that cannot be loaded may have held a
		// guard for this very call (or message): refuse it rather than
		// guess.
		if msg := d.unloadedRefusal(ev); msg != "" {
			refused := protocol.Outcome{Event: ev.Name, Decision: protocol.DecisionBlock, Message: msg}
			d.bind(f)
			d.record(ctx, f, time.Now(), f.Fields, nil, nil, false, false, &refused)
			return refused, nil
		}
	}
	if len(d.byEvent[ev.Name]) == 0 && len(d.alsoRun[ev.Name]) == 0 {
		// The hot path of a host that fires every event: nothing to run,
		// nothing allocated, no file looked at.
		return nothingRan(f, late), nil
	}
	d.bind(f)
	if f.Fields == nil {
		f.Fields = map[string]any{}
	}
	var sf firing
	selected := d.choose(ctx, f, &sf)
	if len(selected) == 0 {
		o := nothingRan(f, late)
		o.Unapproved = sf.unapproved
		return o, nil
	}
	r := &round{ev: ev, session: session, firing: *f, fields: f.Fields, late: late}
	if d.opts.Recorder != nil {
		r.start = time.Now()
	}
	defer r.closePins()
	d.gate(r, selected, &sf)
	sess, ranOnce := d.run(ctx, r, peek)
	o, err := d.fold(ctx, r, sess, ranOnce)
	// Counted outside the fold: no hook reply can hide the repository's
	// hooks that did not run.
	o.Unapproved = sf.unapproved + r.unapproved
	return o, err
}

// bind binds f to this dispatcher: its tool table, and its cwd by the
// firing's one rule (the host's when it is a directory, else Options.Cwd).
func (d *Dispatcher) bind(f *protocol.Firing) {
	f.Bind(d.cfg.Tools, d.opts.Cwd, isDir)
}

// nothingRan is the outcome of a firing that selected no entry: the fold
// of the late async replies, if any, else no decision.
func nothingRan(f *protocol.Firing, late []protocol.HookReport) protocol.Outcome {
	if late != nil {
		return protocol.Fold(f.Event, f.Args, late)
	}
	return protocol.Outcome{Event: f.Event.Name, Decision: protocol.DecisionNone}
}

// CancelledError is Dispatch's error when its context ended while hooks
// ran: they were killed, and the outcome (returned for the record) lacks
// what they would have said. A host must not act on it as an answer.
type CancelledError struct{ Cause error }

func (e *CancelledError) Error() string { return "dispatch cancelled: " + e.Cause.Error() }
func (e *CancelledError) Unwrap() error { return e.Cause }

// AsyncDeferred reports how many async hooks this dispatcher left for
// another process (AsyncExternal) so far.
func (d *Dispatcher) AsyncDeferred() int64 { return d.deferred.Load() }

// selectFor returns the entries of ev whose matchers accept the fields, in run
// order, with Claude's dedup applied: identical Claude commands (from
// different settings files or matcher groups) run once per firing.
//
// A matcher that cannot tell (see hookconfig.Entry.Fit) selects its entry; the
// backtracking time of all matchers together is bounded
// (pattern.DispatchBudget).
func (d *Dispatcher) selectFor(ev *protocol.Event, fields map[string]any) []*hookconfig.Entry {
	var sf firing
	f := protocol.NewFiring(ev, "", fields)
	d.bind(&f)
	return d.selectEntries(&f, consent.Screen{}, &sf)
}

// selectEntries is selectFor for one firing f: a repository's entries that
// scr refuses are passed over before their matchers run (sf.refused lists
// them), and the entries selected undecided are kept in sf.undecided.
//
// The entries of another event ev also runs (forward.go) come after its
// own, unless one of its own selected stands for them; the selection is
// then put in run order.
func (d *Dispatcher) selectEntries(f *protocol.Firing, scr consent.Screen, sf *firing) []*hookconfig.Entry {
	ev, fields := f.Event, f.Fields
	var out []*hookconfig.Entry
	var claudeSeen claudeCopies
	list, also := d.byEvent[ev.Name], d.alsoRun[ev.Name]
	if len(also) > 0 {
		list = slices.Concat(list, also)
	}
	for _, e := range list {
		if len(also) > 0 && forwarded(ev, e) && standsFor(out, e) {
			continue
		}
		if !ev.Admits(e.DeclaredAs, fields) { // command:model, fired for another command
			continue
		}
		if !e.Scope.Global() && scr.RefusesRule(e.DeclaredAs, e.Text(), ruleID(e), e.Scope) {
			sf.refused = append(sf.refused, e)
			continue
		}
		if !e.Covers(fields, d.cfg.Tools) {
			continue
		}
		how := e.Fit(f, d.cfg.Tools, &sf.MatchBudget)
		if e.If != "" && sf.ifMemo == nil {
			sf.ifMemo, sf.ifStop = new(permrule.Memo), ifStop()
		}
		if how == hookconfig.FitNo || !d.ifAllows(runEvent(ev, e), e, f, sf.ifMemo, sf.ifStop) {
			continue
		}
		if e.Dialect == protocol.Claude {
			var runs bool
			if out, runs = claudeSeen.admit(e, how == hookconfig.FitYes, out, sf); !runs {
				continue
			}
		}
		if how != hookconfig.FitYes {
			sf.undecided = append(sf.undecided, e)
		}
		out = append(out, e)
	}
	if len(also) > 0 {
		runOrder(out)
	}
	return out
}

// choose selects the entries of one firing f for the dispatch (sf keeps
// what the selection learnt): the gate's screen (when it has one and the
// event has a repository's entries) passes over what it refuses before any
// matcher runs, and the calling agent's own entries are left to it.
func (d *Dispatcher) choose(ctx context.Context, f *protocol.Firing, sf *firing) []*hookconfig.Entry {
	ev := f.Event
	var scr consent.Screen
	if sc, ok := d.opts.Gate.(screener); ok && (d.projects[ev.Name] || d.projects[ev.AlsoRuns]) {
		scr = sc.screen()
	}
	agent := caller(ctx)
	selected := skipRunBy(ev, d.selectEntries(f, scr, sf), agent)
	if sf.refused != nil {
		sf.unapproved = d.refused(ev, scr, sf.refused, agent)
	}
	return selected
}

// refused warns about the entries the consent screen passed over in one
// firing, less those the calling agent runs itself (its own consent), and
// returns how many it warned about.
func (d *Dispatcher) refused(ev *protocol.Event, scr consent.Screen, list []*hookconfig.Entry, agent string) int {
	list = skipRunBy(ev, list, agent)
	if len(list) == 0 {
		return 0
	}
	hooks := make([]consent.Request, len(list))
	for i, e := range list {
		hooks[i] = entryRequest(e)
	}
	scr.Refused(hooks)
	return len(list)
}

// firing is what selecting the entries of one firing keeps: the matchers'
// backtracking budget (hookconfig.MatchBudget), the entries selected without an answer from their
// matchers (they fail to start: hookconfig.Entry.UndecidedReason), and
// those the consent screen refused. It lives on the dispatch's stack;
// nothing is allocated unless an entry is undecided or refused, or has a
// twin.
type firing struct {
	hookconfig.MatchBudget
	// ifMemo is the if rules' analysis of a long command, made for the
	// first entry with an if rule (a field of its own would put the
	// firing on the heap in every dispatch).
	ifMemo    *permrule.Memo
	ifStop    func() bool // the bound of its if rules' analysis (ifBound)
	undecided []*hookconfig.Entry
	refused   []*hookconfig.Entry
	// twins are Claude copies of one command from different places that
	// decide alike, the earlier first: the later runs only if the two
	// are not one process (round.twinRan).
	twins [][2]*hookconfig.Entry
	// unapproved counts the refused entries the caller does not run
	// itself (Outcome.Unapproved).
	unapproved int
}

// why is the spawn error of an entry selected undecided in this firing,
// "" for one its matcher decided.
func (f *firing) why(e *hookconfig.Entry) string {
	for _, u := range f.undecided {
		if u == e {
			return e.UndecidedReason()
		}
	}
	return ""
}
