package dispatcher

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/internal/hookhttp"
	"github.com/hermes-hooks/hermes-hooks/internal/hookproc"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// opaKind is an opa: entry: the entry's payload is POSTed as
// {"input": <payload>} to a path of an Open Policy Agent server's data API
// (internal/hookhttp: no redirect, bounded reply, the entry's timeout),
// and the document OPA answers with is the decision, read here rather
// than as a hook's reply: {"decision": block|ask|context|allow|none,
// "message": …}. An undefined document (no "result") is no objection;
// anything else OPA could not have meant (an error status, a reply that is
// no such document, a decision the event cannot take) is a failed hook, so
// fail_closed blocks a gating event as it does for every kind. Like an
// http hook it runs no local file: it is approved by its URL together with
// the headers it sends (a bearer token for an OPA that requires one).
type opaKind struct{ spec *hookconfig.OPASpec }

func opaKindOf(s hookconfig.Spec) hookKind {
	if o, ok := s.(*hookconfig.OPASpec); ok {
		return opaKind{o}
	}
	return nil
}

func (k opaKind) fixed(*hookconfig.Entry) *cmdpin.Target {
	what := "an OPA server: what its policy decides can change without notice"
	if sent := sentVariables(k.spec.Headers, k.spec.AllowedEnvVars); len(sent) > 0 {
		// As for an http hook: the person approving reads this and the
		// URL, so a token sent along is said.
		what += "; its headers send " + strings.Join(sent, ", ") + " from your environment"
	}
	return &cmdpin.Target{Opaque: what, Spec: opaSpec(k.spec)}
}

func (opaKind) cannotRun() string { return "" }

func (k opaKind) run(ctx context.Context, d *Dispatcher, ev *protocol.Event, h Invocation, payload []byte) ran {
	if k.spec.Invalid != "" {
		// Headers it cannot send as written (hookconfig warned): posting
		// without them would be another request than the one configured.
		return ran{res: hookproc.Result{SpawnError: "opa: " + k.spec.Invalid}}
	}
	body := make([]byte, 0, len(payload)+len(`{"input":}`))
	body = append(append(append(body, `{"input":`...), payload...), '}')
	res, status, contentType := hookhttp.Post(ctx, hookhttp.Spec{URL: k.spec.URL, Shown: hookconfig.ShownURL(k.spec.URL), Body: body, Timeout: h.Entry.Timeout,
		Headers: k.spec.Headers, AllowedEnvVars: k.spec.AllowedEnvVars, Env: h.Env, Cap: d.opts.OutputCap, Name: "opa"})
	if res.SpawnError != "" || res.TimedOut || res.Cancelled {
		return ran{res: res}
	}
	var answer []byte
	if res.ExitCode == 0 {
		answer = res.Stdout // a 2xx's body; any other status's is quoted by its error
	}
	c, err := opaDecision(runEvent(ev, h.Entry), res)
	if err != nil {
		why := "opa: " + err.Error()
		if errors.Is(err, errNotObject) {
			// An error page a proxy or portal answered with: what it
			// said it is tells the two apart.
			why += " (HTTP " + strconv.Itoa(status) + ", content type " + clip(contentType) + ")"
		}
		return ran{res: hookproc.Result{SpawnError: why, Elapsed: res.Elapsed}, answer: answer}
	}
	if c != nil && runEvent(ev, h.Entry) != ev {
		c = ev.Adopt(c)
	}
	return ran{res: hookproc.Result{Elapsed: res.Elapsed}, decided: true, direct: c, answer: answer}
}

// opaSpec is the canonical text of an opa entry, whose digest the approval
// pins: the URL, Go-quoted, then its headers and allowed variables as an
// http hook's (hookconfig.SentText), so that a header added or changed after
// approval needs a new one. An entry without either has the text it had
// before entries had headers: its approvals still hold.
func opaSpec(s *hookconfig.OPASpec) string {
	return "opa\nurl " + strconv.Quote(s.URL) + hookconfig.SentText(s.Headers, s.AllowedEnvVars)
}

// OPA's decisions, as the policy's document spells them.
const (
	opaBlock   = "block"
	opaAsk     = "ask"
	opaContext = "context"
	opaAllow   = "allow"
	opaNone    = "none"
)

// errNotObject is the error of a 2xx reply that is no JSON object.
var errNotObject = errors.New("the reply is not a JSON object")

// opaDefaultBlockMessage is a block's message when the policy gives none.
const opaDefaultBlockMessage = "Blocked by OPA policy."

// opaDecision reads OPA's reply to the post (res) as ev's contribution:
// nil when the policy does not object. The reply must be a 2xx JSON object;
// its "result", when present, an object whose "decision" and "message"
// (either may be missing) are strings; a decision that is there is one of
// OPA's (not null, not ""). Other members of the result (a package's
// helper rules) are ignored.
func opaDecision(ev *protocol.Event, res hookproc.Result) (*protocol.Contribution, error) {
	switch {
	case res.ExitCode != 0:
		return nil, errors.New(string(res.Stderr))
	case res.StdoutTruncated:
		return nil, fmt.Errorf("the reply is larger than %d bytes", len(res.Stdout))
	}
	_, err := pyjson.DecodeUnique(res.Stdout)
	if amb := protocol.Ambiguous(err); amb != "" {
		// Unmarshal would take the last of two "decision"s: which the
		// server meant cannot be known.
		return nil, fmt.Errorf("the reply is ambiguous (%s): %s", amb, clipReply(res.Stdout))
	}
	var reply map[string]json.RawMessage
	if err := json.Unmarshal(res.Stdout, &reply); err != nil || reply == nil {
		return nil, fmt.Errorf("%w: %s", errNotObject, clipReply(res.Stdout))
	}
	raw, ok := reply["result"]
	if !ok {
		if _, said := reply["decision"]; said {
			// Not OPA's data API (which puts a policy's answer under
			// "result"): a service, or OPA's v0 API, answering a decision
			// this entry would otherwise read as undefined, no objection.
			return nil, fmt.Errorf("the reply has a decision but no result (is the URL OPA's /v1/data API?): %s", clipReply(res.Stdout))
		}
		return nil, nil // undefined: the policy says nothing
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil || doc == nil {
		return nil, fmt.Errorf("result is not an object with decision and message: %s", clipReply(raw))
	}
	decision, has, err := opaString(doc, "decision")
	if err != nil {
		return nil, err
	}
	if has && decision == "" {
		// Present but empty: no decision the policy could have meant, not
		// an absent one (which is no objection).
		return nil, opaUnknown(decision)
	}
	if !has {
		if err := opaDecisionBelow(doc); err != nil {
			return nil, err
		}
	}
	message, _, err := opaString(doc, "message")
	if err != nil {
		return nil, err
	}
	return opaContribution(ev, decision, message)
}

// opaDecisionBelow is the error of a document with no decision of its own
// one of whose members is an object that decides block, ask or context:
// the URL names the package above the policy's document (…/v1/data/hermes
// for the rule hermes.verdict, or for the package hermes.pre_tool_call).
// Read as "no objection", as a package's helper rules are, that entry lets
// through every call its policy refuses, unseen; a failed hook says where
// the decision is. A member that allows decides nothing that is lost. The
// members are looked at in name order, so that the error names the same
// one at every call.
func opaDecisionBelow(doc map[string]json.RawMessage) error {
	names := make([]string, 0, len(doc))
	for name, raw := range doc {
		if raw = bytes.TrimSpace(raw); len(raw) > 0 && raw[0] == '{' {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		// A map, not a struct: Unmarshal matches a struct's field names
		// in any case, and "Decision" is not the document's decision.
		var inner map[string]json.RawMessage
		var decision string
		if json.Unmarshal(doc[name], &inner) != nil || json.Unmarshal(inner["decision"], &decision) != nil {
			continue
		}
		switch decision {
		case opaBlock, opaAsk, opaContext:
			shown := name
			if !regoName(name) {
				shown = clip(name) // the server's text, whatever it holds
			}
			return fmt.Errorf("result has no decision, but result.%s decides %s: the URL names the package above the policy's document, whose decisions are not enforced (add /%s to the URL)",
				shown, clip(decision), url.PathEscape(name))
		}
	}
	return nil
}

// regoName reports whether s is a plain Rego name (a letter or _, then
// letters, digits and _), shown as it is.
func regoName(s string) bool {
	for i, r := range s {
		if r != '_' && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return s != ""
}

// opaString is doc's member key as a string, and whether it is there. A
// null is not a string; a message of null is still read as none (the
// decision beside it is the policy's), a decision of null is an error.
func opaString(doc map[string]json.RawMessage, key string) (string, bool, error) {
	raw, ok := doc[key]
	if !ok {
		return "", false, nil
	}
	var s *string
	if err := json.Unmarshal(raw, &s); err != nil || s == nil && key != "message" {
		return "", true, fmt.Errorf("result.%s is not a string: %s", key, clipReply(raw))
	}
	if s == nil {
		return "", false, nil
	}
	return *s, true, nil
}

// opaContribution is a decision on ev: one ev cannot take is an error, not
// a silently lesser one.
func opaContribution(ev *protocol.Event, decision, message string) (*protocol.Contribution, error) {
	switch decision {
	case "", opaNone, opaAllow:
		return nil, nil
	case opaBlock:
		if !ev.Can(protocol.CapBlock | protocol.CapContinue) {
			return nil, fmt.Errorf("decision %q on %s, whose hooks cannot block", decision, ev.Name)
		}
		if message == "" {
			message = opaDefaultBlockMessage
		}
		return &protocol.Contribution{Decision: protocol.DecisionBlock, Message: message}, nil
	case opaAsk:
		if !ev.Can(protocol.CapApprove) {
			return nil, fmt.Errorf("decision %q on %s, whose hooks cannot ask", decision, ev.Name)
		}
		return &protocol.Contribution{Decision: protocol.DecisionAsk, Message: message}, nil
	case opaContext:
		if !ev.Can(protocol.CapContext) {
			return nil, fmt.Errorf("decision %q on %s, whose hooks cannot add context", decision, ev.Name)
		}
		if message == "" {
			return nil, nil
		}
		return &protocol.Contribution{Context: message}, nil
	}
	return nil, opaUnknown(decision)
}

// opaUnknown is the error of a decision that is none of OPA's, quoted
// whole (a trailing space is what makes "block " unknown).
func opaUnknown(decision string) error {
	return fmt.Errorf("result.decision %s is none of block, ask, context, allow, none", clip(decision))
}

// clipReply is a reply's text for an error: its first 200 bytes, on one
// line.
func clipReply(b []byte) string { return clip(string(bytes.TrimSpace(b))) }

// clip is s quoted, cut after 200 bytes.
func clip(s string) string {
	if len(s) > 200 {
		return strconv.Quote(s[:200]) + "…"
	}
	return strconv.Quote(s)
}

// Undefined reports whether r's answer is OPA's undefined document: a JSON
// object with neither a result nor a decision (one with a decision is no
// OPA's, and fails). OPA answers so for a rule not defined for the call,
// and as well for a path no policy is at (a misspelt package or rule, a
// bundle not active yet), where the entry never objects: test and doctor
// say which it may be.
func (r *HookRun) Undefined() bool {
	var reply map[string]json.RawMessage
	if json.Unmarshal(r.Answer, &reply) != nil || reply == nil {
		return false
	}
	_, result := reply["result"]
	_, decision := reply["decision"]
	return !result && !decision
}
