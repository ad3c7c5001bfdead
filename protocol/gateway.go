package protocol

import (
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// Hermes' messaging gateway: the family of slash-command events (command:*)
// and pre_gateway_dispatch's reply rule and Hermes wire (issue 27). The
// rows are in the catalog (events.go); these are the rules their fields
// name.

// familyOf splits "prefix:NAME" into the family name "prefix:*" and NAME.
func familyOf(name string) (family, member string, ok bool) {
	i := strings.IndexByte(name, ':')
	if i <= 0 {
		return "", "", false
	}
	return name[:i+1] + "*", name[i+1:], true
}

// validMember: a family member's name is a slash command's (letters,
// digits, '_', '-', '.'), so that "command:" and "command:a b" are typos,
// not events.
func validMember(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.'
		if !ok {
			return false
		}
	}
	return true
}

// Admits reports whether an entry declared under the name declared runs
// for a firing of e with these host fields: always, except for a member
// "prefix:NAME" of a family, which runs only when the host field
// e.FamilyField is NAME (a leading '/' ignored).
func (e *Event) Admits(declared string, fields map[string]any) bool {
	if e == nil || e.FamilyField == "" || declared == e.Name {
		return true
	}
	_, member, ok := familyOf(declared)
	if !ok {
		return true
	}
	got, _ := fields[e.FamilyField].(string)
	return strings.TrimPrefix(got, "/") == member
}

// MemberFields is fields for a firing of e under the name fired: when
// that name is a member "prefix:NAME" of e's family and the host did not
// send e.FamilyField, a copy of fields with it set to NAME (so that
// `hermes-hooks dispatch command:model` fires the entries of
// command:model); otherwise fields itself.
func (e *Event) MemberFields(fired string, fields map[string]any) map[string]any {
	if e == nil || e.FamilyField == "" || fired == e.Name {
		return fields
	}
	if _, sent := fields[e.FamilyField]; sent {
		return fields
	}
	_, member, ok := familyOf(fired)
	if !ok || !validMember(member) {
		return fields
	}
	out := make(map[string]any, len(fields)+1)
	for k, v := range fields {
		out[k] = v
	}
	out[e.FamilyField] = member
	return out
}

// Refused is what a block on e refuses, as a refusal names it: "tool
// calls" unless the catalog says otherwise (Refuses: "gateway messages").
func (e *Event) Refused() string {
	if e != nil && e.Refuses != "" {
		return e.Refuses
	}
	return "tool calls"
}

// DefaultSkipReason is the reason of a pre_gateway_dispatch skip whose
// reply gave none.
const DefaultSkipReason = "skipped by a shell hook"

// hermesGatewayReply reads pre_gateway_dispatch's actions, as Hermes reads
// a plugin's result there: {"action": "skip", "reason": …} drops the
// message (a block), {"action": "rewrite", "text": …} replaces its text
// (a non-empty string, else it is not an action), {"action": "allow"}
// lets it through. Anything else is no action: the next hook's counts.
func hermesGatewayReply(obj map[string]any) *Contribution {
	action, _ := obj["action"].(string)
	switch action {
	case "skip":
		reason, _ := obj["reason"].(string)
		if pyStrip(reason) == "" {
			reason = DefaultSkipReason
		}
		return &Contribution{Decision: DecisionBlock, Message: reason}
	case "rewrite":
		if text, ok := obj["text"].(string); ok && text != "" {
			return &Contribution{Result: &text}
		}
	case "allow":
		return &Contribution{Decision: DecisionAllow}
	}
	return nil
}

// gatewayToolForm is the note on a pre_gateway_dispatch reply that has no
// gateway action but the tool-call form of a refusal ({"action": "block"},
// {"decision": "block"} or "deny"): Hermes reads none of them there, so a
// guard written that way drops no message — and nothing else would say so.
// "" for any other reply.
func gatewayToolForm(obj map[string]any) string {
	for _, key := range []string{"action", "decision"} {
		if v, _ := obj[key].(string); v == "block" || v == "deny" {
			return `the reply {"` + key + `": "` + v + `"} is the tool-call form, which drops no message on pre_gateway_dispatch: ` +
				`reply {"action": "skip", "reason": "…"} to drop it`
		}
	}
	return ""
}

// ReplyFormProblem says why a reply (stdout, with exit status exit) on ev
// in dialect d, valid JSON as it may be, asks for nothing the event
// reads, when it is in a form meant for another event (a Hermes-dialect
// tool-call refusal on pre_gateway_dispatch) or refuses in words the
// dialect does not read there (foreignRefusal): a guard that guards
// nothing; "" when it is not, when the dialect's reply is read as
// written, or when the run refused anyway (an exit 2 that blocks). For
// test and doctor, which show a hook's run.
func ReplyFormProblem(ev *Event, d Dialect, stdout []byte, exit int) string {
	if ev == nil || !foreignApplies(d, ev) {
		return ""
	}
	// Read as a hook that is not fail_closed is: its result, and the
	// foreign refusal its note holds.
	rd := ReadReply(Reply{Dialect: d, Event: ev, ExitCode: exit, Stdout: stdout})
	if rd.Contribution != nil && rd.Contribution.Decision == DecisionBlock {
		return ""
	}
	if ev.HermesReply == ReplyGateway && d == Hermes {
		v, err := pyjson.DecodePayload([]byte(pyStrip(toValidUTF8(stdout))))
		obj, ok := v.(map[string]any)
		if err == nil && ok && hermesGatewayReply(obj) == nil {
			if p := gatewayToolForm(obj); p != "" {
				return p
			}
		}
	}
	return rd.Foreign
}

// CodecReplyProblem is ReplyFormProblem for a hook of an agent's own file,
// declared under its agent's event declared and read by its codec c: the
// refusal in words c does not read there (Read.Foreign), "" when there is
// none or the run refused anyway.
func CodecReplyProblem(c Codec, declared string, ev *Event, stdout []byte, exit int) string {
	if ev == nil {
		return ""
	}
	return c.ReadReply(declared, Reply{Dialect: c.Dialect(), Event: ev, ExitCode: exit, Stdout: stdout}).Foreign
}

// gatewayWire is pre_gateway_dispatch's result for Hermes: skip (a block,
// or a Claude hook's continue:false: the message is not processed),
// rewrite, allow, or {} (normal dispatch).
func (o *Outcome) gatewayWire() Object {
	switch {
	case o.Decision == DecisionBlock:
		return Object{{"action", "skip"}, {"reason", o.Message}}
	case o.Stop:
		reason := o.StopReason
		if reason == "" {
			reason = DefaultSkipReason
		}
		return Object{{"action", "skip"}, {"reason", reason}}
	case o.Result != nil:
		return Object{{"action", "rewrite"}, {"text", *o.Result}}
	case o.Decision == DecisionAllow:
		return Object{{"action", "allow"}}
	}
	return Object{}
}
