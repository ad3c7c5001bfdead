package dispatcher

import (
	"context"
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/sessions"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Claude Code's async hooks run in the background: the event does not wait
// for them, and what they say — additionalContext, systemMessage, and for
// asyncRewake an exit 2's stderr — reaches the model on the session's next
// turn. Here it reaches the host with the session's next dispatch (of an
// event that can carry context), as reports of their own, marked as late.
// Without a session there is nowhere to deliver a reply, and it is dropped.

// asyncState tracks the dispatcher's background hooks.
type asyncState struct {
	once   sync.Once
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// pending marks sessions whose replies wait in the store, so that a
	// dispatch of any other session does not have to look.
	pending sync.Map
}

func (a *asyncState) init() {
	a.once.Do(func() { a.ctx, a.cancel = context.WithCancel(context.Background()) })
}

// startAsync runs an async hook in the background and returns the report's
// skipped line. The hook owns its pinned files from here on.
func (d *Dispatcher) startAsync(ev *protocol.Event, h Invocation, fields map[string]any, session string) string {
	payload := d.payloadOf(h.Entry, runEvent(ev, h.Entry), fields)
	d.async.init()
	d.async.wg.Add(1)
	go func() {
		defer d.async.wg.Done()
		defer h.pins.Close()
		var rep protocol.HookReport
		raw := &HookRun{}
		d.runInto(d.async.ctx, ev, h, payload, fields, &rep, raw)
		reply := pendingFrom(ev, h.Entry, &rep, raw)
		if reply == nil || session == "" || d.opts.Sessions == nil {
			return
		}
		err := d.updateSession(d.async.ctx, session, func(s *sessions.Session) error {
			if len(s.Pending) < maxPending {
				s.Pending = append(s.Pending, *reply)
			}
			return nil
		})
		if err != nil {
			d.warn("async hook " + h.Entry.Text() + ": " + err.Error())
			return
		}
		d.async.pending.Store(session, true)
	}()
	if session == "" || d.opts.Sessions == nil {
		return "async: running in the background; without a session its reply cannot be delivered"
	}
	return "async: running in the background; its reply comes with this session's next dispatch"
}

// maxPending bounds the replies waiting for one session, and
// maxPendingText each one's text.
const (
	maxPending     = 32
	maxPendingText = 16 << 10
)

// pendingFrom keeps what an async hook's reply can still do: context and a
// message for the user; for asyncRewake, an exit 2 wakes the model with
// its stderr. A decision cannot apply any more: the event is over.
func pendingFrom(ev *protocol.Event, e *hookconfig.Entry, rep *protocol.HookReport, raw *HookRun) *sessions.PendingReply {
	p := &sessions.PendingReply{Event: e.DeclaredAs, Command: e.Text(), Dialect: string(e.Dialect), Source: e.Source}
	if c := rep.Contribution; c != nil {
		p.Context, p.SystemMessage = c.Context, c.SystemMessage
	}
	if e.AsyncRewake && rep.ExitCode != nil && *rep.ExitCode == 2 {
		wake := strings.TrimSpace(string(raw.Stderr))
		if wake == "" {
			wake = strings.TrimSpace(string(raw.Stdout))
		}
		p.Context = joinNote2("\n\n", p.Context, wake)
	}
	if p.Context == "" && p.SystemMessage == "" {
		return nil
	}
	// A reply waits in the session's state: keep it small.
	p.Context, p.SystemMessage = textutil.Truncate(p.Context, maxPendingText), textutil.Truncate(p.SystemMessage, maxPendingText)
	p.Note = "reply of an async hook fired on an earlier " + e.DeclaredAs
	return p
}

func joinNote2(sep, a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + sep + b
}

// keepReplies stores the replies of async hooks run in the foreground
// (AsyncInline) for the session's next dispatch.
func (d *Dispatcher) keepReplies(ctx context.Context, ev *protocol.Event, session string, hooks []Invocation, runnable []int, reports []protocol.HookReport) {
	if session == "" || d.opts.Sessions == nil {
		return
	}
	var replies []sessions.PendingReply
	for _, i := range runnable {
		// The raw stderr is not kept by runInto for dispatches; an
		// asyncRewake exit 2 still reaches the model through the reply's
		// own parse (the stderr becomes its block message).
		rep := &reports[i]
		raw := &HookRun{}
		if c := rep.Contribution; c != nil && c.Decision == protocol.DecisionBlock {
			raw.Stderr = []byte(c.Message)
		}
		if p := pendingFrom(ev, hooks[i].Entry, rep, raw); p != nil {
			replies = append(replies, *p)
		}
	}
	if len(replies) == 0 {
		return
	}
	if err := d.updateSession(ctx, session, func(s *sessions.Session) error {
		s.Pending = append(s.Pending, replies...)
		if len(s.Pending) > maxPending {
			s.Pending = s.Pending[len(s.Pending)-maxPending:]
		}
		return nil
	}); err != nil {
		d.warn(err.Error())
	}
}

// takePending removes and returns the replies waiting for the session, as
// reports for this firing — when the event can carry context at all. When
// it read the session file and found nothing waiting, it also returns what
// it read (peek), for loadSession to use rather than read the file again.
func (d *Dispatcher) takePending(ctx context.Context, ev *protocol.Event, session string) (late []protocol.HookReport, peek *sessions.Session) {
	if session == "" || d.opts.Sessions == nil || !ev.Can(protocol.CapContext) {
		return nil, nil
	}
	if _, file := d.opts.Sessions.(*sessions.Files); !file {
		// In memory, only this dispatcher's hooks leave replies.
		if _, ok := d.async.pending.Load(session); !ok {
			return nil, nil
		}
	} else if s, err := d.opts.Sessions.Load(session); err == nil && len(s.Pending) == 0 {
		// Most firings find nothing waiting: look first, without the
		// lock, rather than lock, rewrite and fsync the session file on
		// every event (about 1.4 ms of each one-shot dispatch). The file
		// is replaced by rename, so the look sees a whole version; a
		// reply left after it is taken by the session's next event.
		return nil, &s
	}
	var taken []sessions.PendingReply
	// Replies left waiting when the lock stays taken come with a later
	// dispatch of the session.
	err := d.updateSession(ctx, session, func(s *sessions.Session) error {
		taken, s.Pending = s.Pending, nil
		return nil
	})
	d.async.pending.Delete(session)
	if err != nil {
		d.warn(err.Error())
	}
	reports := make([]protocol.HookReport, 0, len(taken))
	for _, p := range taken {
		reports = append(reports, protocol.HookReport{
			Event: p.Event, Command: p.Command, Dialect: protocol.Dialect(p.Dialect), Source: p.Source,
			Ran: true, Note: p.Note,
			Contribution: &protocol.Contribution{Context: p.Context, SystemMessage: p.SystemMessage},
		})
	}
	return reports, nil
}

// Close stops the dispatcher's background work: async hooks still running
// are cancelled (their process groups killed), worker processes are
// stopped (StopWorkers), and Close waits for both. Dispatch must not be
// called after Close.
func (d *Dispatcher) Close() error {
	d.async.init()
	d.async.cancel()
	d.StopWorkers()
	d.async.wg.Wait()
	return nil
}

// Wait waits for the async hooks started so far to finish (one-shot
// dispatch waits for none: the CLI hands them to a process of their own).
func (d *Dispatcher) Wait() { d.async.wg.Wait() }
