package journal

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"time"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Entry is one journal line as Scan reads it. The JSON keys are the line's
// keys; a line writes them in this order and omits the empty optional ones.
type Entry struct {
	// Seq numbers the records from 1, across rotated files.
	Seq int64 `json:"seq"`
	// Prev is the hex SHA-256 of the previous line (ZeroHash for seq 1).
	Prev    string    `json:"prev"`
	Time    time.Time `json:"time"`
	Version string    `json:"version"`
	Event   string    `json:"event"`
	Session string    `json:"session,omitempty"`
	Tool    string    `json:"tool,omitempty"`
	Cwd     string    `json:"cwd,omitempty"`
	// Agent is the agent the dispatch answered (`hook AGENT`, serve's
	// forwarded hook; dispatcher.Record.Agent), for replay.
	Agent string `json:"agent,omitempty"`
	// AgentEvent is the event as that agent named it (Route.AgentEvent).
	AgentEvent string `json:"agent_event,omitempty"`
	// Decision, Message, Stop and StopReason are the outcome's.
	Decision string `json:"decision"`
	// Delivered is what the agent got where it was not Decision (Route.
	// Delivered): "block" for an ask the agent could not put to a person,
	// or a stop or rewrite it could not carry out, which it refused
	// instead, DeliveredWhy saying why. "" in a record
	// the agent got as decided, and in records written before the field.
	Delivered    string `json:"delivered,omitempty"`
	DeliveredWhy string `json:"delivered_why,omitempty"`
	Message      string `json:"message,omitempty"`
	Stop         bool   `json:"stop"`
	StopReason   string `json:"stop_reason,omitempty"`
	// Effects lists what else the outcome carried: args, context,
	// system_message, result, inject, metadata, env.
	Effects []string `json:"effects,omitempty"`
	// PayloadSHA256 is the SHA-256 of the host's fields (compact JSON,
	// sorted keys); Payload the fields themselves, with include_payload.
	PayloadSHA256 string         `json:"payload_sha256"`
	Payload       map[string]any `json:"payload,omitempty"`
	// PayloadOmitted is the size of a payload include_payload would have
	// kept, left out because its record would have been longer than
	// 16 MiB (see MaxLine).
	PayloadOmitted int64       `json:"payload_omitted,omitempty"`
	ElapsedMS      float64     `json:"elapsed_ms"`
	Hooks          []HookEntry `json:"hooks"`
	// Async marks the record of an event's async hooks, run after the
	// dispatch that fired them (which has a record of its own): replay
	// passes it over.
	Async bool `json:"async,omitempty"`
	// Cut marks the record of a dispatch whose context ended while its
	// hooks ran (dispatcher.Record.Cut): its decision is what the hooks
	// that answered said, which was no answer; the caller's own answer
	// (hook AGENT's refusal at the agent's deadline) has a record of its
	// own. replay passes it over.
	Cut bool `json:"cut,omitempty"`
	// ServedBy names the long-running server that decided the firing
	// ("serve"); ServerUnused why `hook` could not use the server it
	// found and decided in its own process (see WithRoute).
	ServedBy     string `json:"served_by,omitempty"`
	ServerUnused string `json:"server_unused,omitempty"`
	// Repaired is how many bytes of a torn tail this append truncated.
	Repaired int64 `json:"repaired,omitempty"`
}

// HookEntry is one hook's part in a recorded dispatch (an element of
// Entry.Hooks).
type HookEntry struct {
	Command string `json:"command"`
	Dialect string `json:"dialect"`
	Source  string `json:"source,omitempty"`
	Ran     bool   `json:"ran"`
	Skipped string `json:"skipped,omitempty"`
	// ExitCode is nil when the process did not exit on its own.
	ExitCode  *int    `json:"exit_code"`
	ElapsedMS float64 `json:"elapsed_ms"`
	TimedOut  bool    `json:"timed_out"`
	Error     string  `json:"error,omitempty"`
	// Decision is the hook's own verdict ("none" for none; a shadow hook's
	// is always "none", its verdict is in Would).
	Decision string `json:"decision"`
	// Script and SHA256 are the primary file that ran and its digest as
	// the consent gate pinned it for this run.
	Script string `json:"script,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
	// Rule names a rule entry (its id:, else its file and line);
	// RuleSHA256 is the SHA-256 (hex) of its whole text, Command as it
	// would be uncut (Command keeps its first maxRuleText bytes).
	Rule       string `json:"rule,omitempty"`
	RuleSHA256 string `json:"rule_sha256,omitempty"`
	Shadow     bool   `json:"shadow,omitempty"`
	Would      string `json:"would,omitempty"`
	// Rejudged: a rule's verdict on the call as another hook rewrote it
	// (protocol.HookReport.Rejudged).
	Rejudged bool `json:"rejudged,omitempty"`
}

// ZeroHash is the prev of the first record of a journal.
var ZeroHash = hex.EncodeToString(make([]byte, sha256.Size))

// body renders a record without seq and prev, which the append adds under
// the lock: everything costly is done before the lock is taken. Without
// withPayload, a record that would keep its payload (include_payload) says
// instead how many bytes it left out ("payload_omitted").
func (w *Writer) body(r *dispatcher.Record, route Route, withPayload bool) protocol.Object {
	o := r.Outcome
	// The agent the dispatch answered: the dispatcher's record (CalledBy),
	// else what the entrance routed (hook AGENT).
	agent := r.Agent
	if agent == "" {
		agent = route.Agent
	}
	hooks := make([]any, len(o.Hooks))
	for i := range o.Hooks {
		h := &o.Hooks[i]
		var exit any
		if h.ExitCode != nil {
			exit = *h.ExitCode
		}
		dec := string(protocol.DecisionNone)
		if h.Contribution != nil && h.Contribution.Decision != "" {
			dec = string(h.Contribution.Decision)
		}
		var s dispatcher.Script
		if i < len(r.Scripts) {
			s = r.Scripts[i]
		}
		command, ruleSum := h.Command, ""
		if s.Rule != "" {
			command, ruleSum = textutil.CutBytesSaying(command, maxRuleText), RuleTextSHA256(command)
		}
		hooks[i] = make(protocol.Object, 0, 17).
			With(true, "command", command).
			With(true, "dialect", string(h.Dialect)).
			With(h.Source != "", "source", h.Source).
			With(true, "ran", h.Ran).
			With(h.Skipped != "", "skipped", cutText(h.Skipped)).
			With(true, "exit_code", exit).
			With(true, "elapsed_ms", h.ElapsedMS).
			With(true, "timed_out", h.TimedOut).
			With(h.Error != "", "error", cutText(h.Error)).
			With(true, "decision", dec).
			With(s.Path != "", "script", s.Path).
			With(s.SHA256 != "", "sha256", s.SHA256).
			With(s.Rule != "", "rule", s.Rule).
			With(ruleSum != "", "rule_sha256", ruleSum).
			With(h.Shadow, "shadow", true).
			With(h.Would != "", "would", cutText(h.Would)).
			With(h.Rejudged, "rejudged", true)
	}
	payload := pyjson.Encode(r.Fields, pyjson.Compact)
	sum := sha256.Sum256(payload)
	f := r.Firing
	if f == nil { // a record made by hand (a refusal no dispatch decided)
		nf := protocol.NewFiring(r.Event, "", r.Fields)
		f = &nf
	}
	session, tool := f.Session, f.HostTool
	dec := o.Decision
	if dec == "" {
		dec = protocol.DecisionNone
	}
	var fields any
	keep := w.opts.IncludePayload && withPayload
	if keep {
		fields = r.Fields
	}
	eff := effects(o)
	var delivered protocol.Decision
	var why string
	if route.Delivered != nil && !r.Cut { // a cut record's decision was never given
		delivered, why = route.Delivered(o)
	}
	return make(protocol.Object, 0, 24).
		With(true, "time", r.Time.UTC().Format(time.RFC3339Nano)).
		With(true, "version", w.version()).
		With(true, "event", o.Event).
		With(session != "", "session", cutText(session)).
		With(tool != "", "tool", cutText(tool)).
		With(r.Cwd != "", "cwd", r.Cwd).
		With(agent != "", "agent", agent).
		With(route.AgentEvent != "", "agent_event", cutText(route.AgentEvent)).
		With(true, "decision", string(dec)).
		With(delivered != "", "delivered", string(delivered)).
		With(why != "", "delivered_why", why).
		With(o.Message != "", "message", cutText(o.Message)).
		With(true, "stop", o.Stop).
		With(o.StopReason != "", "stop_reason", cutText(o.StopReason)).
		With(len(eff) > 0, "effects", eff).
		With(true, "payload_sha256", hex.EncodeToString(sum[:])).
		With(keep, "payload", fields).
		With(w.opts.IncludePayload && !withPayload, "payload_omitted", len(payload)).
		With(true, "elapsed_ms", math.Round(float64(r.Elapsed.Microseconds()))/1000).
		With(true, "hooks", hooks).
		With(r.Async, "async", true).
		With(r.Cut, "cut", true).
		With(route.ServedBy != "", "served_by", route.ServedBy).
		With(route.ServerUnused != "", "server_unused", route.ServerUnused)
}

// maxText bounds each text of a record that a payload or a hook chose
// (a session id, a tool name, a message, a hook's error): the journal
// keeps every record (rotation deletes none), and without
// include_payload a record is meant to be small, whatever the model or a
// hook sent. The payload's SHA-256 still covers the whole of it.
const maxText = 4096

// RuleTextSHA256 is the SHA-256 (hex) a record keeps of a rule's whole
// text (its command as list shows it): rule_sha256, which tells one
// version of a rule from another where its command is cut.
func RuleTextSHA256(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// RuleDigest is h's rule_sha256 ("" for a hook that is no rule); for a
// record written before rule_sha256 existed, whose command is whole, it
// is computed from the command.
func (h *HookEntry) RuleDigest() string {
	if h.RuleSHA256 != "" || h.Rule == "" {
		return h.RuleSHA256
	}
	return RuleTextSHA256(h.Command)
}

// maxRuleText bounds a rule's text in a record. Every firing records
// each rule it evaluated, and a ready-made rule runs to kilobytes: the
// five files made one Bash call's record 58 KB (52 KB of it rule text),
// and the journal rotated every ~1,100 calls. A rule is known by its name
// (rule) and its version by rule_sha256; the first bytes are kept to read.
const maxRuleText = 160

// cutText is s cut to maxText bytes, not inside a UTF-8 character, and
// saying how long it was.
func cutText(s string) string { return textutil.CutBytesSaying(s, maxText) }

func effects(o *protocol.Outcome) []any {
	var out []any
	for _, e := range []struct {
		set  bool
		name string
	}{
		{o.Args != nil, "args"}, {o.Context != "", "context"}, {o.SystemMessage != "", "system_message"},
		{o.Result != nil, "result"}, {o.InjectSystem != "" || o.InjectUser != "", "inject"},
		{o.Metadata != nil, "metadata"}, {o.Env != nil, "env"},
	} {
		if e.set {
			out = append(out, e.name)
		}
	}
	return out
}
