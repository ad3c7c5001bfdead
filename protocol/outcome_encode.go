package protocol

// The outcome's encodings: its JSON form (the contract of dispatch and the
// server, in outcome.schema.json's key order) and the Hermes wire directive
// it folds into. The fold itself is in outcome.go.

import (
	_ "embed"
	"encoding/json"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
)

// With appends the member when present: the outcome, its reports and their
// contributions (and the decision journal's records) omit empty optional
// members.
func (o Object) With(present bool, key string, value any) Object {
	if present {
		return append(o, KV{key, value})
	}
	return o
}

func deref(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

// object renders the outcome in its documented key order. Optional members
// are omitted when empty; event, decision, stop and hooks are always there.
func (o *Outcome) object() Object {
	d := o.Decision
	if d == "" {
		d = DecisionNone
	}
	hooks := make([]any, len(o.Hooks))
	for i := range o.Hooks {
		hooks[i] = reportObject(&o.Hooks[i])
	}
	return make(Object, 0, 16).
		With(true, "event", o.Event).
		With(true, "decision", string(d)).
		With(o.Message != "", "message", o.Message).
		With(o.RuleKey != "", "rule_key", o.RuleKey).
		With(o.Args != nil, "args", o.Args).
		With(o.Context != "", "context", o.Context).
		With(true, "stop", o.Stop).
		With(o.StopReason != "", "stop_reason", o.StopReason).
		With(o.SystemMessage != "", "system_message", o.SystemMessage).
		With(o.Result != nil, "result", deref(o.Result)).
		With(o.InjectSystem != "", "inject_system", o.InjectSystem).
		With(o.InjectUser != "", "inject_user", o.InjectUser).
		With(o.Metadata != nil, "metadata", o.Metadata).
		With(o.Env != nil, "env", stringMap(o.Env)).
		With(o.HookSpecific != nil, "hook_specific", o.HookSpecific).
		With(o.TerminalSequence != "", "terminal_sequence", o.TerminalSequence).
		With(o.Deferred, "deferred", true).
		With(o.Unapproved > 0, "unapproved", o.Unapproved).
		With(true, "hooks", hooks)
}

func reportObject(r *HookReport) Object {
	var exit, contrib any
	if r.ExitCode != nil {
		exit = *r.ExitCode
	}
	if r.Contribution != nil {
		contrib = r.Contribution.object()
	}
	return make(Object, 0, 17).
		With(true, "event", r.Event).
		With(true, "command", r.Command).
		With(true, "dialect", string(r.Dialect)).
		With(r.Matcher != "", "matcher", r.Matcher).
		With(r.Source != "", "source", r.Source).
		With(true, "ran", r.Ran).
		With(r.Skipped != "", "skipped", r.Skipped).
		With(true, "exit_code", exit).
		With(true, "elapsed_ms", r.ElapsedMS).
		With(true, "timed_out", r.TimedOut).
		With(r.Error != "", "error", r.Error).
		With(r.StdoutTruncated, "stdout_truncated", true).
		With(r.StderrTruncated, "stderr_truncated", true).
		With(r.Note != "", "note", r.Note).
		With(r.ForeignRefusal, "foreign_refusal", true).
		With(r.Shadow, "shadow", true).
		With(r.Would != "", "would", r.Would).
		With(r.Rejudged, "rejudged", true).
		With(true, "contribution", contrib)
}

func (c *Contribution) object() Object {
	return make(Object, 0, 8).
		With(c.Decision.Rank() > 0, "decision", string(c.Decision)).
		With(c.Message != "", "message", c.Message).
		With(c.RuleKey != "", "rule_key", c.RuleKey).
		With(c.Args != nil, "args", c.Args).
		With(c.ReplaceArgs, "replace_args", true).
		With(c.Context != "", "context", c.Context).
		With(c.Stop, "stop", true).
		With(c.StopReason != "", "stop_reason", c.StopReason).
		With(c.SystemMessage != "", "system_message", c.SystemMessage).
		With(c.Result != nil, "result", deref(c.Result)).
		With(c.InjectSystem != "", "inject_system", c.InjectSystem).
		With(c.InjectUser != "", "inject_user", c.InjectUser).
		With(c.Metadata != nil, "metadata", c.Metadata).
		With(c.State != nil, "state", c.State).
		With(c.Env != nil, "env", stringMap(c.Env)).
		With(c.HookSpecific != nil, "hook_specific", c.HookSpecific).
		With(c.TerminalSequence != "", "terminal_sequence", c.TerminalSequence)
}

// stringMap is m as the JSON encoder's map type.
func stringMap(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// MarshalJSON writes the contribution in its documented key order.
func (c Contribution) MarshalJSON() ([]byte, error) {
	return pyjson.Append(nil, c.object(), pyjson.Compact), nil
}

// MarshalJSON writes the outcome in its documented key order, compactly.
func (o Outcome) MarshalJSON() ([]byte, error) {
	return pyjson.Append(nil, o.object(), pyjson.Compact), nil
}

// AppendOutcome appends the outcome's JSON in the given style.
func AppendOutcome(buf []byte, o *Outcome, style pyjson.Style) []byte {
	return pyjson.Append(buf, o.object(), style)
}

// UnmarshalJSON reads the form MarshalJSON writes.
func (o *Outcome) UnmarshalJSON(data []byte) error {
	// The struct's own tags name the keys (the same names object writes,
	// in its order; TestOutcomeKeysDefinedOnce checks both against the
	// schema). The conversion drops this method, so Unmarshal does not
	// call itself.
	type fields Outcome
	return json.Unmarshal(data, (*fields)(o))
}

// OutcomeSchema is the JSON Schema (draft 2020-12) of the outcome JSON.
//
//go:embed outcome.schema.json
var OutcomeSchema []byte

// HermesWire renders the outcome as the single directive Hermes' own
// dispatcher would hand its agent: {"action":"block","message":…},
// {"action":"approve",…}, {"action":"modify","args":…},
// {"action":"continue","message":…} (pre_verify), {"context":…}, or {}.
// A stop on a tool event is a block: the tool must not run.
// Replacement text, which Hermes' shell bridge cannot express, is rendered
// as {"result":…}.
func (o *Outcome) HermesWire() Object { return o.HermesWireOver(nil) }

// HermesWireOver is HermesWire for a call whose arguments Hermes sent as
// sent (nil: not known). A rewrite that Hermes would not run as rewritten
// is refused instead (hermesUncarried): the guards judged the rewritten
// call, and Hermes would run another.
func (o *Outcome) HermesWireOver(sent map[string]any) Object {
	kind := WireContext
	if ev, ok := Lookup(o.Event); ok {
		kind = ev.HermesWire
	}
	switch kind {
	case WireTool:
		switch {
		case o.Decision == DecisionBlock:
			return Object{{"action", "block"}, {"message", o.Message}}
		case o.Stop:
			// A Claude continue:false outranks every decision. Hermes has
			// no "stop the agent"; the least it must do is not run the
			// tool, so the stop reaches it as a block (as the Codex and
			// Copilot encodings deny the call).
			msg := o.StopReason
			if msg == "" {
				msg = ClaudeDefaultBlockReason
			}
			return Object{{"action", "block"}, {"message", msg}}
		case o.Decision == DecisionAsk && o.Args != nil:
			return hermesUncarried("Hermes' approve carries no arguments: once approved, the call would run as sent")
		case o.Decision == DecisionAsk:
			obj := Object{{"action", "approve"}}
			if o.Message != "" {
				obj = append(obj, KV{"message", o.Message})
			}
			if o.RuleKey != "" {
				obj = append(obj, KV{"rule_key", o.RuleKey})
			}
			return obj
		}
		if o.Args != nil {
			if why := hermesMergeLoses(o.Args, sent); why != "" {
				return hermesUncarried(why)
			}
			return Object{{"action", "modify"}, {"args", o.Args}}
		}
	case WireContinue:
		if o.Decision == DecisionBlock {
			return Object{{"action", "continue"}, {"message", o.Message}}
		}
	case WireBlock:
		if o.Decision == DecisionBlock {
			return Object{{"action", "block"}, {"message", o.Message}}
		}
	case WireGateway:
		return o.gatewayWire()
	}
	if o.Result != nil {
		return Object{{"result", *o.Result}}
	}
	ctx := o.Context
	if o.Decision == DecisionBlock && o.Message != "" {
		// Feedback a non-gating event produced (a Claude PostToolUse block)
		// reaches a Hermes host the only way Hermes can carry it: as context.
		ctx = textutil.JoinNonEmpty("\n\n", o.Message, ctx)
	}
	if ctx != "" {
		return Object{{"context", ctx}}
	}
	return Object{}
}

// HermesWire renders one contribution in the Hermes wire shape, as
// `hermes-hooks test` prints it. ok is false when the contribution is empty.
func (c *Contribution) HermesWire(ev *Event) (Object, bool) {
	if c.IsEmpty() {
		return nil, false
	}
	o := Fold(ev, nil, []HookReport{{Contribution: c}})
	if c.Args != nil && !c.ReplaceArgs && c.Decision.Rank() == 0 {
		// A lone Hermes modify renders its own mapping, not a merge result.
		return Object{{"action", "modify"}, {"args", c.Args}}, true
	}
	w := o.HermesWire()
	return w, len(w) > 0
}
