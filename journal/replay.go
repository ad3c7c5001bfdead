package journal

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// ReplayOptions configures Replay.
type ReplayOptions struct {
	// Keep selects the records to replay (nil: every record). The records
	// it passes over are not counted at all.
	Keep func(*Entry) bool
	// Fire fires one recorded event again: a host's
	// (*dispatcher.Dispatcher).Fire, built by the caller with the config
	// to compare and without a Recorder, so that replaying records
	// nothing. Replay hands it the firing as it was recorded (see
	// asRecorded) and decides nothing itself: it only compares.
	Fire func(ctx context.Context, f *protocol.Firing) (protocol.Outcome, error)
	// Root, when set, is the only directory (with those below it) a
	// record may be fired in: one whose directory (the host's cwd, else
	// the recorded one) is elsewhere is not fired, and is counted in
	// Elsewhere. The journal is no proof of where a dispatch ran: a line
	// a local process rewrote can name any directory, and a hook approved
	// by its text only (make check) would run what that directory holds.
	Root string
	// Names, when set, is the Recorder of the dispatcher Fire fires
	// through: what names a rule that decides now by its id, as the
	// journal names it. Without it such a rule is named by its text.
	Names *ReplayNames
	// Delivered, when set, is what the agent of record e makes of an
	// outcome where that is not its decision (journal Route.Delivered: an
	// ask the agent cannot put to a person is a refusal), so that the new
	// side says what the agent would get, as the recorded one does.
	Delivered func(e *Entry, o *protocol.Outcome) (protocol.Decision, string)
}

// ReplayNames is a dispatcher.Recorder that writes nothing: it keeps, of
// the firing recorded last, the identity of each hook's rule
// (dispatcher.Script.Rule: its id, else its file and line; "" for a hook
// that is no rule), for Replay to name the rules that decide now as the
// journal names those that decided then. The dispatcher calls it before
// Fire returns; Replay fires one record at a time.
type ReplayNames struct{ rules []string }

// Record implements dispatcher.Recorder.
func (n *ReplayNames) Record(_ context.Context, r *dispatcher.Record) {
	n.rules = n.rules[:0]
	for i := range r.Scripts {
		n.rules = append(n.rules, r.Scripts[i].Rule)
	}
}

// fired are the rule identities of the firing recorded since reset, nil
// when none was.
func (n *ReplayNames) fired() []string {
	if n == nil {
		return nil
	}
	return n.rules
}

func (n *ReplayNames) reset() {
	if n != nil {
		n.rules = n.rules[:0]
	}
}

// Side is one outcome of a replayed event: the recorded one or the new one.
type Side struct {
	Decision string `json:"decision"`
	// Delivered and DeliveredWhy are what the agent got (recorded) or
	// would get (now) where it is not Decision: "block" for an ask it
	// cannot put to a person (Entry.Delivered).
	Delivered    string `json:"delivered,omitempty"`
	DeliveredWhy string `json:"delivered_why,omitempty"`
	Message      string `json:"message,omitempty"`
	// Hooks name the hooks that decided: those whose own decision is the
	// outcome's (every one of them, since the fold lets the strongest
	// decision win whoever else agrees); a rule by its id: when it has
	// one (as the journal's "rule" and log name it), any other hook by its
	// command. Empty when the decision is none.
	Hooks []string `json:"hooks"`
	// Commands are their commands (a rule's text), Hooks' order, for a
	// report that shows a rule's text beside its id.
	Commands []string `json:"-"`
	// Rules are their rules' identities (id, else file and line; "" for
	// a hook that is no rule), Hooks' order: a report names a long rule
	// without an id by its start and place, as log does, not by its whole
	// text.
	Rules []string `json:"-"`
	// Would is, on the recorded side, what each hook of the record in
	// mode: shadow would have decided ("team/x: block: …", named as Hooks
	// names a hook): a candidate that enforces the rule tried in shadow
	// mode is checked against what it said live. ShadowHooks and
	// ShadowWould are its two halves, for a report.
	Would       []string `json:"would,omitempty"`
	ShadowHooks []string `json:"-"`
	ShadowWould []string `json:"-"`
}

// name adds a hook that decided: its command, and its rule's identity
// (rule: its id, else its file and line; "" for a hook that is no rule).
func (s *Side) name(command, source, rule string) {
	s.Hooks = append(s.Hooks, hookName(command, source, rule))
	s.Commands = append(s.Commands, command)
	s.Rules = append(s.Rules, rule)
}

// hookName is how replay names a hook: a rule with an id: by its id (its
// identity, rule; a rule without one is identified by its place, source
// and line, and named by its text), any other hook by its command.
func hookName(command, source, rule string) string {
	if rule != "" && rule != source && !strings.HasPrefix(rule, source+":") {
		return rule
	}
	return command
}

// ruleOf is the identity of the rule of a firing's i-th hook, of its
// hooks' rule identities rules ("" when not known: rules nil or short).
func ruleOf(rules []string, i int) string {
	if i < len(rules) {
		return rules[i]
	}
	return ""
}

// Difference is a replayed event whose decision is not the recorded one.
type Difference struct {
	Seq     int64     `json:"seq"`
	Time    time.Time `json:"time"`
	Event   string    `json:"event"`
	Tool    string    `json:"tool,omitempty"`
	Session string    `json:"session,omitempty"`
	// Agent is the agent the record answered (the first of its callers),
	// "" for a host's dispatch: what a decision comes to depends on it
	// (an ask is a refusal where the agent cannot ask: a side's
	// Delivered says so).
	Agent    string `json:"agent,omitempty"`
	Recorded Side   `json:"recorded"`
	Now      Side   `json:"now"`
}

// ReplayReport is what Replay found. Events counts the records selected;
// NotReplayable those among them that could not be fired again (no
// payload: written without include_payload, or an event this version does
// not know); the rest were replayed.
type ReplayReport struct {
	Events        int `json:"events"`
	Replayed      int `json:"replayed"`
	NotReplayable int `json:"not_replayable"`
	Differ        int `json:"differ"`
	// Elsewhere counts the records of NotReplayable whose directory is
	// outside ReplayOptions.Root.
	Elsewhere int `json:"elsewhere"`
	// Unreadable counts the records of NotReplayable that are links of
	// the chain but no Entry (ScanUnread), selected as far as they
	// decoded.
	Unreadable int `json:"unreadable"`
	// NoPayload counts the records of NotReplayable written without their
	// payload (the caller's count: it selects the records), as the text
	// report's note says.
	NoPayload int `json:"no_payload"`
	// PayloadOmitted counts the records of NoPayload that were written
	// with include_payload, their payload left out for its size
	// (Entry.PayloadOmitted): setting include_payload, which replay
	// advises for the others, would not have kept it.
	PayloadOmitted int `json:"payload_omitted"`
	// Failed counts the replayed records on which a hook of the config
	// replayed failed (a rule's error, a script that would not start or
	// answer): a failed hook decides nothing unless fail_closed, so "no
	// difference" there is not "the same decision", and a candidate rule
	// with a misspelt key would otherwise read as harmless. FirstFailure
	// is the first such hook and its error.
	Failed       int    `json:"failed"`
	FirstFailure string `json:"first_failure,omitempty"`
	// ShadowEntries counts the entries of the config replayed that are in
	// mode: shadow (the caller's count: it has the config). They decide
	// nothing, so what they would decide is no difference: ShadowWould
	// counts the replayed records on which one of them would have decided
	// (block, ask or allow), FirstShadowWould names the first and what
	// it would have decided, so that "0 decisions differ" does not read
	// as "the rule I am trying would change nothing".
	// OtherProject counts the replayed records decided where another
	// project's hooks file applies than the one replay loaded (the
	// caller's count), FirstOtherProject the first one's project.
	OtherProject      int          `json:"other_project"`
	FirstOtherProject string       `json:"-"`
	ShadowEntries     int          `json:"shadow_entries"`
	ShadowWould       int          `json:"shadow_would"`
	FirstShadowWould  string       `json:"-"`
	Differences       []Difference `json:"differences"`
}

// payloadOnly reads a record's payload as the bytes it was written as.
type payloadOnly struct {
	Payload json.RawMessage `json:"payload"`
}

// Replay fires every selected record of the journal at path again through
// opts.Fire, as it was recorded (asRecorded), oldest first, and reports the records whose decision
// differs from the recorded one. The journal is only read. Records are
// streamed, not loaded at once: a journal may hold 64 MiB per file.
//
// The record of an event's async hooks (Entry.Async) is passed over, not
// counted: the dispatch that fired them has its own record, which is the
// event's. A record carries the dispatch's fields only when it was written with
// include_payload; the others cannot be replayed and are counted. The
// fields are decoded as the dispatcher decodes a host's (numbers keep
// their text), so a hook is shown the same payload bytes as the first
// time. A dispatch error other than an unknown event ends the replay with
// that error, as does ctx ending (the report so far is returned with it).
func Replay(ctx context.Context, path string, opts ReplayOptions) (ReplayReport, error) {
	rep := ReplayReport{Differences: []Difference{}}
	var failed error
	// The root with its links resolved, once: a root that cannot be
	// resolved has nothing within it.
	root, rootErr := "", error(nil)
	if opts.Root != "" {
		root, rootErr = filepath.EvalSymlinks(opts.Root)
	}
	// A record of the chain that is no Entry (a field of another type)
	// cannot be fired: it is counted, not passed over, when the filters
	// select it as far as it decoded.
	unread := func(_ Line, e *Entry, _ error) {
		if opts.Keep == nil || opts.Keep(e) {
			rep.Events++
			rep.NotReplayable++
			rep.Unreadable++
		}
	}
	err := ScanUnread(path, func(l Line, e *Entry) bool {
		if e.Async || e.Cut {
			// The async half of a firing replayed by its own record:
			// fired again, it would run the event's guards a second
			// time and report their decision as a difference. A cut
			// dispatch's outcome was no answer: the firing's answer
			// (a refusal at the agent's deadline) is its own record.
			return true
		}
		if opts.Keep != nil && !opts.Keep(e) {
			return true
		}
		rep.Events++
		fields, ok := recordedFields(l.Bytes)
		if !ok {
			rep.NotReplayable++
			return true
		}
		ev, known := protocol.Lookup(e.Event)
		if !known {
			rep.NotReplayable++
			return true
		}
		fctx, f := asRecorded(ctx, e, ev, fields)
		if opts.Root != "" && (rootErr != nil || !within(firedIn(&f), root)) {
			rep.NotReplayable++
			rep.Elsewhere++
			return true
		}
		opts.Names.reset()
		o, err := opts.Fire(fctx, &f)
		if err == nil {
			err = ctx.Err()
		}
		var unknown *dispatcher.UnknownEventError
		switch {
		case errors.As(err, &unknown):
			rep.NotReplayable++
			return true
		case err != nil:
			failed = err
			return false
		}
		rep.Replayed++
		rep.noteFailure(&o, opts.Names.fired())
		rep.noteShadow(&o, opts.Names.fired())
		if d, differs := compare(e, &o, opts.Names.fired()); differs {
			if opts.Delivered != nil {
				dec, why := opts.Delivered(e, &o)
				d.Now.Delivered, d.Now.DeliveredWhy = string(dec), why
			}
			rep.Differences = append(rep.Differences, d)
		}
		return true
	}, unread)
	rep.Differ = len(rep.Differences)
	if err == nil {
		err = failed
	}
	return rep, err
}

// noteFailure counts o when a hook of it failed, keeping the first, named
// as Side names a hook (rules: the identities of o's hooks' rules).
func (rep *ReplayReport) noteFailure(o *protocol.Outcome, rules []string) {
	for i := range o.Hooks {
		if h := &o.Hooks[i]; h.Error != "" {
			rep.Failed++
			if rep.FirstFailure == "" {
				rep.FirstFailure = hookName(h.Command, h.Source, ruleOf(rules, i)) + ": " + h.Error
			}
			return
		}
	}
}

// noteShadow counts o when a hook of it in mode: shadow would have
// decided (its Would holds a decision), keeping the first, named as Side
// names a hook, with what it would have done.
func (rep *ReplayReport) noteShadow(o *protocol.Outcome, rules []string) {
	for i := range o.Hooks {
		h := &o.Hooks[i]
		verdict, _, _ := strings.Cut(h.Would, ":")
		switch protocol.Decision(verdict) {
		case protocol.DecisionBlock, protocol.DecisionAsk, protocol.DecisionAllow:
		default:
			continue
		}
		if !h.Shadow {
			continue
		}
		rep.ShadowWould++
		if rep.FirstShadowWould == "" {
			rep.FirstShadowWould = hookName(h.Command, h.Source, ruleOf(rules, i)) + ": " + h.Would
		}
		return
	}
}

// asRecorded is the firing of record e as it was made: its fields, fired
// for the agent it answered (dispatcher.CalledBy: the entries that agent
// runs itself are left out again, and a rule sees the same agent), in the
// directory it was bound to. That directory came from the host's cwd
// field, or, when the host named none (or not a directory), from the
// dispatcher that decided it; replay's own dispatcher has another, so the
// recorded one stands in for the host's when it is still a directory here
// (a Claude-dialect hook starts in it, a rule sees it as cwd). Records
// written before the agent was journalled replay as no agent's.
func asRecorded(ctx context.Context, e *Entry, ev *protocol.Event, fields map[string]any) (context.Context, protocol.Firing) {
	if e.Agent != "" {
		ctx = dispatcher.CalledBy(ctx, e.Agent)
	}
	f := protocol.NewFiring(ev, e.Event, fields)
	if e.Cwd != "" && e.Cwd != f.HostCwd && !isDir(f.HostCwd) && isDir(e.Cwd) {
		f.HostCwd = e.Cwd
	}
	return ctx, f
}

// firedIn is the directory f binds to when it names one (the host's cwd,
// else the recorded one asRecorded put in its place), "" when the
// dispatcher's own is used.
func firedIn(f *protocol.Firing) string {
	if isDir(f.HostCwd) {
		return f.HostCwd
	}
	return ""
}

// within reports whether dir is root (its links resolved) or below it,
// dir with its links resolved (a link under root may lead anywhere). ""
// (the dispatcher's own directory) is within.
func within(dir, root string) bool {
	if dir == "" {
		return true
	}
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	return fsutil.InTree(d, root)
}

func isDir(p string) bool {
	if p == "" {
		return false
	}
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// recordedFields is a record's payload as host fields, and whether it has
// one.
func recordedFields(line []byte) (map[string]any, bool) {
	var p payloadOnly
	if json.Unmarshal(line, &p) != nil || len(p.Payload) == 0 || string(p.Payload) == "null" {
		return nil, false
	}
	v, err := pyjson.Decode(p.Payload)
	if err != nil {
		return nil, false
	}
	fields, ok := v.(map[string]any)
	return fields, ok
}

// compare sets the recorded outcome of e beside the new one, o, whose
// hooks' rule identities are rules (nil: not known).
func compare(e *Entry, o *protocol.Outcome, rules []string) (Difference, bool) {
	now := string(o.Decision)
	if now == "" {
		now = string(protocol.DecisionNone)
	}
	if now == e.Decision {
		return Difference{}, false
	}
	d := Difference{Seq: e.Seq, Time: e.Time, Event: e.Event, Tool: e.Tool, Session: e.Session, Agent: protocol.FirstCaller(e.Agent),
		Recorded: Side{Decision: e.Decision, Delivered: e.Delivered, DeliveredWhy: e.DeliveredWhy, Message: e.Message, Hooks: []string{}},
		Now:      Side{Decision: now, Message: o.Message, Hooks: []string{}}}
	if e.Decision != string(protocol.DecisionNone) {
		for _, h := range e.Hooks {
			if h.Decision == e.Decision {
				d.Recorded.name(h.Command, h.Source, h.Rule)
			}
		}
	}
	for _, h := range e.Hooks {
		if h.Shadow && h.Would != "" {
			name := hookName(h.Command, h.Source, h.Rule)
			d.Recorded.Would = append(d.Recorded.Would, name+": "+h.Would)
			d.Recorded.ShadowHooks = append(d.Recorded.ShadowHooks, name)
			d.Recorded.ShadowWould = append(d.Recorded.ShadowWould, h.Would)
		}
	}
	if now != string(protocol.DecisionNone) {
		for i, h := range o.Hooks {
			// A shadow hook's contribution was taken out of the fold
			// (nil), so it is never named as deciding.
			if h.Contribution != nil && string(h.Contribution.Decision) == now {
				d.Now.name(h.Command, h.Source, ruleOf(rules, i))
			}
		}
	}
	return d, true
}
