package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/sessions"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/journal"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// MaxEventBytes bounds the event JSON read from stdin.
const MaxEventBytes = 64 << 20

// DispatchOptions are dispatch's own flags.
type DispatchOptions struct {
	Format string // json (the default when "") or hermes
	Pretty bool
	// AsyncOnly: this process was started by another dispatch to run its
	// async hooks (see runAsyncChild).
	AsyncOnly bool
	// CalledBy: the agent this dispatch answers (hook AGENT's async child).
	CalledBy string
}

// Dispatch is `hermes-hooks dispatch EVENT`: the event's fields from
// stdin, one outcome JSON object on stdout.
func (a *App) Dispatch(event string, o DispatchOptions) error {
	a.dispatchOnly = true
	if o.Format == "" {
		o.Format = "json"
	}
	if o.Format != "json" && o.Format != "hermes" {
		return UsageErr("use --format json or --format hermes", "unknown --format %q", o.Format)
	}
	ev, err := dispatcher.LookupEvent(event)
	if err != nil {
		return err
	}
	fields, _, err := readFields(a.In)
	if err != nil {
		if refused, ok := a.unreadableRefusal(ev, err); ok {
			return writeOutcome(a.Out, &refused, nil, o)
		}
		return err
	}
	// The fields are read once, here; the project is the firing's cwd
	// (protocol.Firing.Bind: the host's when it is a directory).
	wd := Cwd()
	f := protocol.NewFiring(ev, event, fields)
	f.Bind(nil, wd, isDir)
	cfg, err := a.loadToRun(context.Background(), f.Cwd)
	if refused, ok := a.refusal(ev, fields, err); ok {
		return writeOutcome(a.Out, &refused, nil, o)
	}
	if err != nil {
		return err
	}
	outcome, err := a.dispatchOnce(context.Background(), cfg, wd, &f, o.AsyncOnly, o.CalledBy)
	if err != nil {
		return err
	}
	if outcome.Unapproved > 0 && !o.AsyncOnly {
		a.tellUnapproved(&outcome, f.Session, o.Format == "hermes")
	}
	return writeOutcome(a.Out, &outcome, f.ArgsMap(), o)
}

// tellUnapproved tells the person, once per session, how many of the
// repository's hooks did not run for want of an approval (issue 32, item
// 2): the outcome's system_message, which is for the user, carries the
// line. Hermes' wire form has no such member, and needs none: dispatch
// fires in this process, so its own warnings, which name the command, are
// on stderr already (one warning, not two). The session stays unmarked.
func (a *App) tellUnapproved(o *protocol.Outcome, session string, wire bool) {
	if wire {
		return
	}
	notice := consent.UnapprovedNotice(o.Unapproved)
	if !a.firstNotice(context.Background(), session) {
		return
	}
	if o.SystemMessage != "" {
		notice = o.SystemMessage + "\n" + notice
	}
	o.SystemMessage = notice
}

// unreadableRefusal answers event fields that cannot be read (readErr) on
// ev, an event a failing fail_closed guard blocks: such a guard cannot be
// asked, so when the config holds one for ev — or cannot be loaded, so
// that it may — ev is refused (and recorded) rather than answered with a
// usage error, which a host reads as no answer at all (Hermes' gateway
// then delivers the message). ok is false otherwise: the usage error.
func (a *App) unreadableRefusal(ev *protocol.Event, readErr error) (protocol.Outcome, bool) {
	if !ev.FailsClosed() {
		return protocol.Outcome{}, false
	}
	msg := "the " + ev.Name + " event fields are unreadable: " + classifyMsg(readErr)
	cfg, err := a.load(Cwd())
	if err != nil {
		a.Warn(msg)
		return a.refusal(ev, map[string]any{}, err)
	}
	a.warnAll(cfg)
	why, guard := a.unreadRefusal(cfg, ev, nil)
	if guard != nil {
		why = "hermes-hooks: " + msg + "; the fail_closed guard " + dispatcher.ShownHook(guard) + " cannot check them, so they are refused"
	}
	if why == "" {
		return protocol.Outcome{}, false
	}
	a.Warn(msg)
	refused := protocol.Outcome{Event: ev.Name, Decision: protocol.DecisionBlock, Message: why}
	a.journalRefusal(context.Background(), cfg, ev, map[string]any{}, &refused)
	return refused, true
}

// dispatchOnce is one dispatch by a process that exits right after it
// (dispatch, hook): consent through the policy, session state in files,
// async hooks handed to a detached child (or, asyncOnly, run here by that
// child), nothing left running. calledBy is the agent the dispatch answers
// (dispatcher.CalledBy), "" for none. parent ends the dispatch early
// (hook's deadline: the agent's own timeout, less a margin).
func (a *App) dispatchOnce(parent context.Context, cfg *hookconfig.Config, wd string, f *protocol.Firing, asyncOnly bool, calledBy string) (protocol.Outcome, error) {
	store, err := a.Store()
	if err != nil {
		return protocol.Outcome{}, err
	}
	mode := dispatcher.AsyncExternal
	if asyncOnly {
		mode = dispatcher.AsyncInline
	}
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	if calledBy != "" {
		ctx = dispatcher.CalledBy(ctx, calledBy)
	}
	// SIGINT/SIGTERM/SIGHUP cancel the dispatch: every running hook's
	// process group is killed before we exit. As the hooks' subreaper, we
	// also find their descendants that left the group (setsid) and kill
	// them before exiting: a one-shot dispatch leaves nothing behind but
	// the helpers that hooks which succeeded detached (Hermes' rule).
	// Both are set up by a goroutine of their own while the dispatch
	// checks consent, and the first hook waits until they are
	// (BeforeStart): os/signal starts two threads of its own, a cost
	// on the path of every dispatch that runs a hook. When no entry fires
	// on the event, neither is set up — unless a hook starts after all,
	// which then sets them up first. A firing of rules alone starts no
	// process, so the guard would have nothing to stop; but a signal must
	// not kill it with no answer either, which an agent reads as no
	// objection. It ignores the signals instead (ignoreSignals), from
	// before it starts: it answers within its rules' time bound whatever
	// arrives, without the guard's threads, which cost it more than its
	// rules (a millisecond of a one-shot `hook`). A process entry that
	// another event forwards to this one still sets the guard up before it
	// starts (BeforeStart), which catches the signals again.
	// The signals stay caught until this function returns, not just
	// until the first one: a second SIGTERM while the cancelled hooks are
	// being killed must not take the process down before KillEscaped.
	finished := make(chan struct{})
	defer close(finished)
	guard := func() {
		if testGuard != nil {
			testGuard()
		}
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, guardedSignals...)
		if !a.NoSubreap {
			_ = dispatcher.BecomeSubreaper()
		}
		go func() {
			defer signal.Stop(sigs)
			for {
				select {
				case sig := <-sigs:
					cancel(&SignalError{Signal: sig})
				case <-finished:
					return
				}
			}
		}()
	}
	var ready chan struct{} // nil: not being set up
	rec := a.recorder(cfg, store.Home())
	defer closeRecorder(rec)
	d, err := dispatcher.New(cfg, dispatcher.Options{
		Gate: dispatcher.ConsentGate(a.Policy(cfg, store)),
		Cwd:  wd,
		Env:  a.hookEnv,
		Warn: a.Warn,
		// One-shot dispatches of a session share its state through files.
		Sessions: &sessions.Files{Dir: filepath.Join(store.Home(), "hook-state")},
		// This process exits right after the dispatch: async hooks run in
		// a process of their own (runAsyncChild).
		Async: mode,
		// ... and worker entries run one-shot: a worker kept alive by a
		// process that exits now would serve nobody (serve keeps them).
		OneShotWorkers: true,
		Recorder:       rec,
		BeforeStart: func() {
			if ready == nil {
				guard()
				return
			}
			<-ready
		},
	})
	if err != nil {
		return protocol.Outcome{}, err
	}
	switch entries := d.EntriesFor(f.Event); {
	case len(entries) > 0 && allRules(entries):
		a.ignoreSignals()
	case len(entries) > 0:
		ready = make(chan struct{})
		go func() {
			guard()
			close(ready)
		}()
	}
	outcome, err := d.Fire(ctx, f)
	// The policy's warnings (Warn: a.Warn) named each skipped hook's
	// file and the approve line; see tellUnapproved and encodeTelling.
	a.warnedUnapproved = a.warnedUnapproved || outcome.Unapproved > 0
	if !a.NoSubreap && startedAny(outcome) {
		// Only a hook that started can have left descendants; the scan
		// of /proc is not free, and most firings start none.
		dispatcher.KillEscaped()
	}
	if se := (*SignalError)(nil); errors.As(context.Cause(ctx), &se) {
		// Stopped by a signal, at whatever point: the outcome lacks what
		// the killed (or never started) hooks would have said, and must
		// not be read as an answer.
		return protocol.Outcome{}, se
	}
	if err != nil {
		return outcome, err
	}
	if d.AsyncDeferred() > 0 {
		a.runAsyncChild(f.Name, f.Fields, calledBy)
	}
	return outcome, nil
}

// guardedSignals are the signals dispatchOnce catches while hooks run, or
// ignores for a firing of rules alone.
var guardedSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// allRules: every entry is a rule, which starts no process and posts
// nothing.
func allRules(entries []*hookconfig.Entry) bool {
	for _, e := range entries {
		if e.Rule() == nil {
			return false
		}
	}
	return true
}

// testIgnored, when a test sets it, is called once ignoreSignals has
// ignored the signals.
var testIgnored func()

// ignoreSignals ignores guardedSignals for the rest of this process, which
// answers one firing and exits (hook, dispatch): undoing it would start
// the runtime's signal thread, what ignoring them saves. An ignored signal
// stays ignored in the programs a process starts: childSignals gives
// SIGTERM back to those it may start after its answer (Finish,
// runAsyncChild).
func (a *App) ignoreSignals() {
	signal.Ignore(guardedSignals...)
	a.signalsIgnored = true
	if testIgnored != nil {
		testIgnored()
	}
}

// childSignals makes the programs this process starts from now on get
// SIGTERM's default action again, after ignoreSignals: catching it for a
// moment puts the runtime's handler in place of the ignore, which exec
// resets to the default. SIGINT and SIGHUP stay ignored in them (the
// runtime keeps a disposition of those it found ignored): the children
// started then (export's flush, runAsyncChild's dispatch) run in a
// session of their own, where neither comes from a terminal.
func (a *App) childSignals() {
	if !a.signalsIgnored {
		return
	}
	a.signalsIgnored = false
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGTERM)
	signal.Stop(c)
}

// startedAny reports whether any hook process was started.
func startedAny(o protocol.Outcome) bool {
	for _, h := range o.Hooks {
		if h.Ran {
			return true
		}
	}
	return false
}

// recorder is the decision journal the config asks for (nil when it is
// off). A nil *journal.Writer must not become a non-nil Recorder.
func (a *App) recorder(cfg *hookconfig.Config, home string) dispatcher.Recorder {
	if w := journal.ForConfig(cfg.Journal, home, journal.Options{VersionOf: Version, Warn: a.Warn, OnAppend: a.journalHook(cfg, home)}); w != nil {
		return w
	}
	return nil
}

// closeRecorder releases the files the journal writer a one-shot dispatch
// opened keeps open: the process exits next anyway, but a caller in the
// same process (a test) must be able to remove the home, which Windows
// refuses while a file in it is open.
func closeRecorder(r dispatcher.Recorder) {
	if c, ok := r.(io.Closer); ok {
		c.Close()
	}
}

// runAsyncChild starts this program again, detached, to run the event's
// async hooks (Claude's async: true) without delaying the event: the same
// event and fields, the same directory and environment, --async-only. It
// checks consent again itself, runs the async hooks, and leaves their
// replies in the session's state for its next dispatch. Failing to start it
// only loses those replies, which the report already calls late.
func (a *App) runAsyncChild(event string, fields map[string]any, calledBy string) {
	self, err := os.Executable()
	if err != nil {
		a.Warn("async hooks not run: " + err.Error())
		return
	}
	args := []string{"dispatch", event, "--async-only"}
	if calledBy != "" {
		args = append(args, "--called-by", calledBy)
	}
	if a.ConfigPath != "" {
		args = append([]string{"--config", a.ConfigPath}, args...)
	}
	for _, ag := range agents.All() {
		for _, f := range a.AgentFiles[ag.Name] {
			args = append([]string{"--" + ag.Source.Flag, f}, args...)
		}
	}
	if a.AcceptHooks {
		args = append([]string{"--accept-hooks"}, args...)
	}
	// The fields go through a file, not a pipe: this process exits right
	// after the start, and a pipe fed by exec's copying goroutine would
	// close with nothing written (the child then saw no session and its
	// reply was lost, under load).
	in, removed, err := unlinkedFile("hermes-hooks-async-*.json", pyjson.Encode(fields, pyjson.Compact))
	if err != nil {
		a.Warn("async hooks not run: " + err.Error())
		return
	}
	defer in.Close()
	cmd := exec.Command(self, args...)
	cmd.Env = a.hookEnv // its hooks' too (nil: this process's)
	cmd.Stdin = in
	cmd.SysProcAttr = detached()
	a.childSignals()
	if err := cmd.Start(); err != nil {
		a.Warn("async hooks not run: " + err.Error())
		return
	}
	if !removed {
		// Where an open file cannot be removed, the child's copy is left
		// in the temporary directory.
		_ = os.Remove(in.Name())
	}
	// Not waited for: it outlives this dispatch on purpose.
	_ = cmd.Process.Release()
}

// readFields reads the event fields: a JSON object, or nothing at all
// (an event without fields).
func readFields(in io.Reader) (fields map[string]any, data []byte, err error) {
	data, err = io.ReadAll(io.LimitReader(in, MaxEventBytes+1))
	if err != nil {
		return nil, nil, fmt.Errorf("read stdin: %w", err)
	}
	if len(data) > MaxEventBytes {
		return nil, nil, UsageErr("", "stdin holds more than %d MiB of event fields", MaxEventBytes>>20)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return map[string]any{}, data, nil
	}
	v, err := pyjson.DecodePayload(data)
	if err != nil {
		return nil, nil, UsageErr(`send one JSON object, e.g. {"tool_name":"terminal","args":{"command":"ls"}}`,
			"stdin is not valid JSON: %v", err)
	}
	fields, ok := v.(map[string]any)
	if !ok {
		return nil, nil, UsageErr(`send one JSON object, e.g. {"tool_name":"terminal","args":{"command":"ls"}}`,
			"stdin must be a JSON object of event fields")
	}
	return fields, data, nil
}

// writeOutcome writes the outcome in o's format; sent is the call's
// arguments as the host sent them (nil: none), which a Hermes directive
// is checked against (protocol.Outcome.HermesWireOver).
func writeOutcome(w io.Writer, outcome *protocol.Outcome, sent map[string]any, o DispatchOptions) error {
	var buf []byte
	switch {
	case o.Format == "hermes":
		buf = pyjson.Append(nil, outcome.HermesWireOver(sent), pyjson.Python)
	case o.Pretty:
		buf = IndentJSON(protocol.AppendOutcome(nil, outcome, pyjson.Compact))
	default:
		buf = protocol.AppendOutcome(nil, outcome, pyjson.Compact)
	}
	buf = append(buf, '\n')
	_, err := w.Write(buf)
	return err
}

// unlinkedFile returns a temporary file holding data, positioned at its
// start, to be a child's standard input: unlike a pipe, it needs no writer
// that outlives this process. removed says it is already gone from the
// directory (the open descriptor keeps it readable); where an open file
// cannot be removed, the caller removes it once the child has it.
func unlinkedFile(pattern string, data []byte) (f *os.File, removed bool, err error) {
	f, err = os.CreateTemp("", pattern)
	if err != nil {
		return nil, false, err
	}
	removed = os.Remove(f.Name()) == nil
	if _, err = f.Write(data); err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		f.Close()
		if !removed {
			os.Remove(f.Name())
		}
		return nil, false, err
	}
	return f, removed, nil
}

// testGuard, when a test sets it, is called whenever dispatchOnce sets up
// its signal guard.
var testGuard func()
