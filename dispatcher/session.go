package dispatcher

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/sessions"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// sessions.Session glue: state, the stop-hook cap, once-hooks.

// onceKey names an entry among the once-per-session hooks that ran, in
// the session's files: by its text and, where the text hides part of what
// runs (an http hook's secret), a digest of the rest, so that two such
// hooks stay two and no secret is written.
func onceKey(e *hookconfig.Entry) string {
	id := e.Text()
	if k := e.SameKey(); k != id {
		sum := sha256.Sum256([]byte(k))
		id += "\x00" + hex.EncodeToString(sum[:12])
	}
	return e.DeclaredAs + "\x00" + id + "\x00" + e.Source
}

// filterOnce drops the once-per-session hooks (Claude's once) that already
// ran in this session, and returns the keys of those about to run.
func (d *Dispatcher) filterOnce(selected []*hookconfig.Entry, runnable []int, reports []protocol.HookReport, sess sessions.Session) ([]int, []string) {
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

// sessionID is the session the firing belongs to, when the dispatcher keeps
// session state and the host said which session it is.
func (d *Dispatcher) sessionID(f *protocol.Firing) string {
	if d.opts.Sessions == nil {
		return ""
	}
	return f.Session
}

// loadSession reads the session and returns the fields the hooks see: the
// host's, plus "state" once the session has any (a payload keeps exactly
// the host's keys until a hook uses the feature), and, on stop events,
// Claude's stop_hook_active when the host did not say (Claude-dialect
// payloads only: Hermes never sends it).
//
// peek is the session as takePending read it a moment ago, or nil: the
// file is not read twice in one dispatch.
func (d *Dispatcher) loadSession(ev *protocol.Event, session string, fields map[string]any, peek *sessions.Session) (sessions.Session, map[string]any) {
	var sess sessions.Session
	if peek != nil {
		sess = *peek
	} else {
		var err error
		if sess, err = d.opts.Sessions.Load(session); err != nil {
			d.warn(err.Error())
		}
	}
	if len(sess.State) > 0 {
		fields = withField(fields, "state", sess.State)
	}
	if _, set := fields["stop_hook_active"]; ev.Stops && !set {
		fields = withField(fields, "stop_hook_active", *stopCount(ev, &sess) > 0)
	}
	return sess, fields
}

// updateSession changes the session in the store, giving up when ctx ends
// if the store can (sessions.StoreContext).
func (d *Dispatcher) updateSession(ctx context.Context, session string, change func(*sessions.Session) error) error {
	if s, ok := d.opts.Sessions.(sessions.StoreContext); ok {
		return s.UpdateContext(ctx, session, change)
	}
	return d.opts.Sessions.Update(session, change)
}

// saveSession applies the replies' state patches in config order and keeps
// the stop-hook block count; past stopBlockCap consecutive blocks, a stop
// hook's block is overridden so the agent may stop (unless the host caps
// them itself: protocol.HostCapsStops). When the store cannot
// be updated (its lock stays taken, the dispatch is cancelled), the
// outcome stands as the hooks made it, and the patches it lost are
// reported.
func (d *Dispatcher) saveSession(ctx context.Context, ev *protocol.Event, session string, loaded sessions.Session, o *protocol.Outcome, ranOnce []string) {
	var patched []int
	for i := range o.Hooks {
		if c := o.Hooks[i].Contribution; c != nil && c.State != nil {
			patched = append(patched, i)
		}
	}
	stop := ev.Stops
	// The agent's blocked stops and its subagents' are two runs, counted
	// apart: a subagent finishing, let through or capped, ends only its
	// own run, so a Stop guard that always blocks is capped after
	// stopBlockCap of the agent's stops however many subagents run in
	// between, and a SubagentStop guard that always blocks gets a free
	// pass per subagent without restarting the agent's count. The agent's
	// own stop let through ends both.
	ends := stop && ev.HermesReply == protocol.ReplyVerify
	if len(patched) == 0 && len(ranOnce) == 0 && !(stop && o.Blocked()) &&
		!(stop && (loaded.StopBlocks > 0 && ends || loaded.SubagentStopBlocks > 0)) {
		return
	}
	// A host that caps the blocks itself (Claude Code) gets every block
	// as its hooks made it: its own count, which a continuation that ran
	// a tool resets and its variable sets, decides when the turn ends.
	hostCaps := hostCapsStops(ctx)
	var capped bool
	err := d.updateSession(ctx, session, func(s *sessions.Session) error {
		for _, k := range ranOnce {
			if !slices.Contains(s.Ran, k) {
				s.Ran = append(s.Ran, k)
			}
		}
		for _, i := range patched {
			s.State = sessions.ApplyPatch(s.State, o.Hooks[i].Contribution.State)
		}
		if stop {
			n := stopCount(ev, s)
			switch {
			case !o.Blocked():
				*n = 0
				if ends {
					s.SubagentStopBlocks = 0
				}
			case *n >= stopBlockCap && !hostCaps:
				*n, capped = 0, true
			default:
				*n++
			}
		}
		return nil
	})
	if errors.Is(err, sessions.ErrStateTooLarge) {
		for _, i := range patched {
			o.Hooks[i].Note = joinNote(o.Hooks[i].Note, "state patch refused: "+err.Error())
		}
		err = nil
	}
	if err != nil {
		for _, i := range patched {
			o.Hooks[i].Note = joinNote(o.Hooks[i].Note, "state patch not saved: "+err.Error())
		}
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

// stopCount is the block count of the stop ev is: the agent's own
// (pre_verify) or its subagents'.
func stopCount(ev *protocol.Event, s *sessions.Session) *int {
	if ev.HermesReply == protocol.ReplyVerify {
		return &s.StopBlocks
	}
	return &s.SubagentStopBlocks
}

// endSession forgets a session's state when it ends (Event.EndsSession:
// on_session_end, on_session_finalize), whether or not any hook ran.
func (d *Dispatcher) endSession(ctx context.Context, ev *protocol.Event, session string) {
	if session == "" || !ev.EndsSession {
		return
	}
	var err error
	if s, ok := d.opts.Sessions.(sessions.StoreContext); ok {
		err = s.ClearContext(ctx, session)
	} else {
		err = d.opts.Sessions.Clear(session)
	}
	if err != nil {
		d.warn(err.Error())
	}
}
