package dispatcher

import (
	"context"
	"errors"
	"math"
	"os"
	"os/exec"
	"os/user"
	"sort"
	"strings"
	"sync"

	"github.com/google/shlex"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// DefaultMaxParallel bounds how many hook processes one Dispatcher runs at
// once, across all firings.
const DefaultMaxParallel = 32

// Verdict is a Gate's answer for one hook.
type Verdict struct {
	Run bool
	// Reason says why a hook does not run; it lands in the hook's report.
	Reason string
}

// Gate decides whether a hook may run. The dispatcher asks it for every
// matching hook of every firing and never runs a hook it refuses; the policy
// (allowlist, accept channels, drift) lives behind it, in package consent.
type Gate interface {
	Check(e *Entry) Verdict
}

// GateFunc adapts a function to Gate.
type GateFunc func(e *Entry) Verdict

// Check calls f.
func (f GateFunc) Check(e *Entry) Verdict { return f(e) }

// AllowAll runs every hook. It exists for tests and for `hermes-hooks
// test`, which runs unapproved hooks on purpose; a host must never use it.
var AllowAll Gate = GateFunc(func(*Entry) Verdict { return Verdict{Run: true} })

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
}

// Dispatcher runs hooks for events. It is safe for concurrent use.
type Dispatcher struct {
	cfg     *Config
	opts    Options
	byEvent map[string][]*Entry
	env     []string
	sem     chan struct{}
	payload protocol.PayloadEnv
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
	if opts.Env == nil {
		opts.Env = os.Environ()
	}
	d := &Dispatcher{
		cfg:     cfg,
		opts:    opts,
		byEvent: map[string][]*Entry{},
		env:     withEnv(opts.Env, "HERMES_HOOKS", "1"),
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
	entries := d.byEvent[ev.Name]
	if len(entries) == 0 {
		// The hot path of a host that fires every event: nothing to run,
		// nothing allocated.
		return protocol.Outcome{Event: ev.Name, Decision: protocol.DecisionNone}, nil
	}
	if fields == nil {
		fields = map[string]any{}
	}
	selected := d.Select(ev, fields)
	if len(selected) == 0 {
		return protocol.Outcome{Event: ev.Name, Decision: protocol.DecisionNone}, nil
	}
	reports := make([]protocol.HookReport, len(selected))
	var runnable []int
	for i, e := range selected {
		reports[i] = baseReport(e)
		if v := d.opts.Gate.Check(e); !v.Run {
			reports[i].Skipped = v.Reason
			continue
		}
		runnable = append(runnable, i)
	}
	if ev.Can(protocol.CapTransform) && ev.TextField != "" {
		d.runChain(ctx, ev, fields, selected, runnable, reports)
	} else {
		d.runParallel(ctx, ev, fields, selected, runnable, reports)
	}
	args, _ := protocol.Args(fields)
	return protocol.Fold(ev, args, reports), nil
}

// Select returns the entries of ev whose matchers accept the fields, in run
// order, with Claude's dedup applied: identical Claude commands (from
// different settings files or matcher groups) run once per firing.
func (d *Dispatcher) Select(ev *protocol.Event, fields map[string]any) []*Entry {
	var out []*Entry
	var claudeSeen map[string]bool
	for _, e := range d.byEvent[ev.Name] {
		if !e.Matches(fields, d.cfg.Tools) {
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
func (d *Dispatcher) runParallel(ctx context.Context, ev *protocol.Event, fields map[string]any, sel []*Entry, runnable []int, reports []protocol.HookReport) {
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
		payloadFor(sel[i].Dialect)
	}
	if len(runnable) == 1 {
		i := runnable[0]
		d.runInto(ctx, ev, sel[i], payloadFor(sel[i].Dialect), fields, &reports[i], nil)
		return
	}
	var wg sync.WaitGroup
	for _, i := range runnable {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			d.runInto(ctx, ev, sel[i], payloadFor(sel[i].Dialect), fields, &reports[i], nil)
		}(i)
	}
	wg.Wait()
}

// runChain runs transform hooks one after another, each seeing the text the
// previous one produced.
func (d *Dispatcher) runChain(ctx context.Context, ev *protocol.Event, fields map[string]any, sel []*Entry, runnable []int, reports []protocol.HookReport) {
	cur := fields
	for _, i := range runnable {
		payload := protocol.BuildPayload(sel[i].Dialect, ev, cur, d.payload)
		d.runInto(ctx, ev, sel[i], payload, cur, &reports[i], nil)
		if c := reports[i].Contribution; c != nil && c.Result != nil && *c.Result != "" {
			next := make(map[string]any, len(cur))
			for k, v := range cur {
				next[k] = v
			}
			next[ev.TextField] = *c.Result
			cur = next
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
	d.runInto(ctx, ev, e, payload, fields, &run.Report, &run)
	return run
}

// runInto runs one hook and records its result and contribution in rep;
// raw, when non-nil, also receives its output.
func (d *Dispatcher) runInto(ctx context.Context, ev *protocol.Event, e *Entry, payload []byte, fields map[string]any, rep *protocol.HookReport, raw *HookRun) {
	select {
	case d.sem <- struct{}{}:
	case <-ctx.Done():
		rep.Skipped = "cancelled before it started: " + ctx.Err().Error()
		return
	}
	spec, spawnErr := d.prepare(e, fields)
	var res runResult
	if spawnErr != "" {
		res.SpawnError = spawnErr
	} else {
		spec.Stdin = payload
		res = run(ctx, spec)
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

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// prepare turns an entry into a process to run, or a spawn error worded as
// Hermes words it.
func (d *Dispatcher) prepare(e *Entry, fields map[string]any) (runSpec, string) {
	spec := runSpec{Env: d.env, Timeout: e.Timeout, Cap: d.opts.OutputCap}
	if e.Dialect == protocol.Claude {
		// Claude Code runs command strings through the shell ($VARS, pipes,
		// &&), in the session's working directory.
		spec.Path, spec.Argv = "/bin/sh", []string{"/bin/sh", "-c", e.Command}
		dir := ""
		if cwd, ok := fields["cwd"].(string); ok && cwd != "" && isDir(cwd) {
			dir = cwd
		}
		spec.Dir = dir
		project := e.ProjectDir
		if project == "" {
			project = dir
			if project == "" {
				project = d.opts.Cwd
			}
		}
		spec.Env = withEnv(d.env, "CLAUDE_PROJECT_DIR", project)
		return spec, ""
	}
	argv, err := SplitCommand(e.Command)
	if err != "" {
		return spec, err
	}
	path := argv[0]
	if !strings.Contains(path, "/") {
		p, lerr := exec.LookPath(path)
		if lerr != nil {
			if errors.Is(lerr, exec.ErrNotFound) {
				return spec, "command not found"
			}
			return spec, spawnErrorText(lerr)
		}
		path = p
	}
	spec.Path, spec.Argv = path, argv
	return spec, ""
}

// SplitCommand splits a Hermes-dialect command into argv the way Hermes
// does (POSIX shell words, no shell), except that "~" is expanded at the
// start of every word, not only of the whole string — so "bash ~/h.sh"
// works. The error is worded as Hermes words it.
func SplitCommand(command string) ([]string, string) {
	argv, err := shlex.Split(command)
	if err != nil {
		return nil, "command '" + command + "' cannot be parsed: " + shlexReason(err)
	}
	if len(argv) == 0 {
		return nil, "empty command"
	}
	for i, a := range argv {
		argv[i] = expandUserTilde(a)
	}
	return argv, ""
}

// shlexReason words a split error as Python's shlex does.
func shlexReason(err error) string {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "closing quote"):
		return "No closing quotation"
	case strings.Contains(msg, "escape"):
		return "No escaped character"
	}
	return msg
}

// expandUserTilde expands "~", "~/…" and "~user/…" at the start of a word.
func expandUserTilde(word string) string {
	if !strings.HasPrefix(word, "~") {
		return word
	}
	name, _, _ := strings.Cut(word[1:], "/")
	var home string
	if name == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return word
		}
		home = h
	} else {
		u, err := user.Lookup(name)
		if err != nil {
			return word
		}
		home = u.HomeDir
	}
	return home + word[1+len(name):]
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
