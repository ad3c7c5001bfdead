package protocol

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
)

// Hermes dialect replies.

// parseHermes reads a Hermes-dialect reply: its contribution, its note,
// and the refusal in words it did not read (foreignRefusal), "" when none.
func parseHermes(r Reply) (*Contribution, string, string) {
	ev := r.Event
	blocking := ev.Gating()
	failClosed := r.FailClosed && ev.FailsClosed()

	if r.SpawnError != "" || r.TimedOut {
		reason := r.NotRun()
		if failClosed {
			return failedClosed(r.Command, reason), reason, ""
		}
		return nil, reason, ""
	}

	stdout := pyStrip(toValidUTF8(r.Stdout))
	c, note, obj, unread := parseHermesStdout(ev, stdout)

	if r.ExitCode == 2 && blocking {
		if c != nil && c.Decision == DecisionBlock {
			return c, "", ""
		}
		msg := textutil.CutRunes(pyStrip(toValidUTF8(r.Stderr)), hermesStderrCut)
		if msg == "" {
			msg = DefaultBlockMessage
		}
		return &Contribution{Decision: DecisionBlock, Message: msg}, "", ""
	}
	// The first line of stderr says why a hook failed ("jq: command not
	// found"); without it the report would only say that it did.
	why := prefixIf(": ", firstLine(pyStrip(toValidUTF8(r.Stderr))))
	if r.ExitCode != 0 {
		note = textutil.JoinNonEmpty("; ", "hook "+exitText(r.ExitCode)+why, note)
	}
	if failClosed && (c == nil || c.Decision != DecisionBlock) {
		// A verb the event does not read ("deny", "Block", 1) is not a
		// guard's "no objection" but a word we cannot act on; Hermes
		// ignores it, a fail_closed guard must not be read as allowing.
		if what := unreadVerb(ev, obj); what != "" {
			return failedClosed(r.Command, "its reply's "+what+" is not one "+ev.Name+" reads"), note, ""
		}
	}
	var foreign string
	if c == nil || c.Decision != DecisionBlock {
		if foreign = foreignRefusal(Hermes, ev, obj, c != nil && c.Decision == DecisionAsk); foreign != "" {
			if failClosed {
				return failedClosed(r.Command, foreign), note, foreign
			}
			note = textutil.JoinNonEmpty("; ", note, foreign)
		}
	}
	if c == nil && failClosed {
		if stdout != "" && obj == nil {
			return failedClosed(r.Command, unread), note, foreign
		}
		// Hermes lets a fail_closed hook that crashed with empty stdout
		// through (its open issue #102405); a guard that dies silently must
		// not open the gate, so we block.
		if stdout == "" && r.ExitCode != 0 {
			return failedClosed(r.Command, exitText(r.ExitCode)+" and printed nothing"+why), note, foreign
		}
	}
	return c, note, foreign
}

// parseHermesStdout reads a Hermes reply on stdout (already trimmed). obj
// is stdout's JSON object, nil when it was none; unread is then why, as a
// fail_closed guard's reason.
func parseHermesStdout(ev *Event, stdout string) (c *Contribution, note string, obj map[string]any, unread string) {
	if stdout == "" {
		return nil, "", nil, ""
	}
	if stdout == "{}" {
		return nil, "", map[string]any{}, ""
	}
	v, err := pyjson.DecodeUniqueReply([]byte(stdout))
	if amb := ambiguous(err); amb != "" {
		return nil, "shell " + AmbiguousNote(amb, stdout), nil, "ambiguous stdout: " + amb
	}
	if err != nil {
		return nil, "shell hook stdout was not valid JSON (event=" + ev.Name + "): " + textutil.CutRunes(stdout, 200), nil, unparseable
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, "shell hook stdout was JSON but not an object", nil, unparseable
	}
	switch ev.HermesReply {
	case ReplyTool:
		c = hermesToolReply(obj)
	case ReplyVerify:
		c = hermesVerifyReply(obj)
	case ReplyInput:
		c = hermesInputReply(obj)
	case ReplyGateway:
		if c = hermesGatewayReply(obj); c == nil {
			note = gatewayToolForm(obj)
		}
	default:
		c = hermesContext(obj)
		if ev.HermesReply == ReplyLLM {
			c = hermesLLMReply(obj, c)
		}
		if ev.Can(CapTransform) {
			c = hermesTransformReply(obj, c)
		}
	}
	return withExtensions(obj, c), note, obj, ""
}

// hermesVerbs are, per reply form that can refuse, the values of "action"
// and of "decision" the form reads, and those that say "no objection" in
// either dialect's words (decision "approve" and "allow", action "allow"
// and an empty word: Hermes reads them as nothing, and a guard that says
// allow must not be taken for one that refuses; action "pass", the runtime
// extensions' "no opinion" beside metadata or state). Any other value of either key — another
// agent's word, another case, another type — is a verb the event does not
// read: what a fail_closed guard says there cannot be taken for allow.
// Another agent's keys (Claude Code's hookSpecificOutput, Cursor's
// permission, a key in another case) are foreignRefusal's
// (reply_foreign.go).
var hermesVerbs = map[HermesReplyKind]struct{ action, decision []string }{
	ReplyTool:    {action: []string{"block", "modify", "rewrite", "approve", "allow", "pass", ""}, decision: []string{"block", "modify", "approve", "allow", ""}},
	ReplyGateway: {action: []string{"skip", "rewrite", "allow", "pass", ""}, decision: []string{"approve", "allow", ""}},
}

// unreadVerb describes the first "action" or "decision" of obj that ev's
// reply form does not read (`decision "deny"`), "" when there is none or
// the form has no verbs to check.
func unreadVerb(ev *Event, obj map[string]any) string {
	verbs, ok := hermesVerbs[ev.HermesReply]
	if !ok || obj == nil {
		return ""
	}
	for _, k := range []struct {
		key   string
		known []string
	}{{"action", verbs.action}, {"decision", verbs.decision}} {
		v, present := obj[k.key]
		if !present || v == nil {
			continue
		}
		if s, isStr := v.(string); isStr && slices.Contains(k.known, s) {
			continue
		}
		return k.key + " " + shownValue(v)
	}
	return ""
}

// hermesContext is Hermes' rule for every other event: a non-blank string
// context, returned untrimmed.
func hermesContext(obj map[string]any) *Contribution {
	if s, ok := obj["context"].(string); ok && pyStrip(s) != "" {
		return &Contribution{Context: s}
	}
	return nil
}

// withExtensions adds the runtime-extension keys any reply may carry: a
// session state patch and metadata for later hooks of the same firing.
func withExtensions(obj map[string]any, c *Contribution) *Contribution {
	state, hasState := obj["state"].(map[string]any)
	meta, hasMeta := obj["metadata"].(map[string]any)
	if !hasState && !hasMeta {
		return c
	}
	if c == nil {
		c = &Contribution{}
	}
	if hasState {
		c.State = state
	}
	if hasMeta && len(meta) > 0 {
		c.Metadata = meta
	}
	if c.IsEmpty() {
		return nil
	}
	return c
}

// rewriteText reads the replacement text of {"action":"rewrite","value":…}
// or {"result":…}; a non-string value is encoded as JSON. An empty or absent
// text is "unchanged".
func rewriteText(obj map[string]any) (string, bool) {
	v, ok := obj["result"]
	if action, _ := obj["action"].(string); action == "rewrite" {
		v, ok = obj["value"]
	}
	if !ok || v == nil {
		return "", false
	}
	s, isStr := v.(string)
	if !isStr {
		s = string(pyjson.Encode(v, pyjson.Compact))
	}
	return s, s != ""
}

// hermesTransformReply: {"result": …} or {"action":"rewrite","value": …}
// replaces the event's text.
func hermesTransformReply(obj map[string]any, c *Contribution) *Contribution {
	s, ok := rewriteText(obj)
	if !ok {
		return c
	}
	if c == nil {
		c = &Contribution{}
	}
	c.Result = &s
	return c
}

// hermesInputReply handles transform_user_input: rewrite the message, or
// block the turn.
func hermesInputReply(obj map[string]any) *Contribution {
	if action, _ := obj["action"].(string); action == "block" {
		return &Contribution{Decision: DecisionBlock, Message: hermesBlockMessage(obj["message"], obj["reason"])}
	}
	return hermesTransformReply(obj, hermesContext(obj))
}

// hermesLLMReply adds pre_llm_call's extension verbs: inject_system,
// inject_user and block (only as an "action"; Hermes ignores a
// "decision":"block" here, and so do we).
func hermesLLMReply(obj map[string]any, c *Contribution) *Contribution {
	action, _ := obj["action"].(string)
	value, _ := obj["value"].(string)
	switch {
	case action == "block":
		return &Contribution{Decision: DecisionBlock, Message: hermesBlockMessage(obj["message"], obj["reason"]), Context: contextOf(c)}
	case action == "inject_system" && pyStrip(value) != "":
		if c == nil {
			c = &Contribution{}
		}
		c.InjectSystem = value
	case action == "inject_user" && pyStrip(value) != "":
		if c == nil {
			c = &Contribution{}
		}
		c.InjectUser = value
	}
	return c
}

func contextOf(c *Contribution) string {
	if c == nil {
		return ""
	}
	return c.Context
}

func hermesToolReply(obj map[string]any) *Contribution {
	action, _ := obj["action"].(string)
	decision, _ := obj["decision"].(string)
	switch {
	case action == "block":
		return &Contribution{Decision: DecisionBlock, Message: hermesBlockMessage(obj["message"], obj["reason"])}
	case decision == "block":
		return &Contribution{Decision: DecisionBlock, Message: hermesBlockMessage(obj["reason"], obj["message"])}
	}
	if action == "modify" {
		if m, ok := obj["args"].(map[string]any); ok {
			return &Contribution{Args: m}
		}
	}
	if action == "rewrite" {
		// The runtime-extension spelling of modify (intercept_tool_call).
		if m, ok := obj["value"].(map[string]any); ok {
			return &Contribution{Args: m}
		}
	}
	if decision == "modify" {
		if m, ok := obj["tool_input"].(map[string]any); ok {
			return &Contribution{Args: m}
		}
	}
	if action == "approve" {
		c := &Contribution{Decision: DecisionAsk}
		if s, ok := obj["message"].(string); ok {
			c.Message = pyStrip(s)
		}
		if s, ok := obj["rule_key"].(string); ok {
			c.RuleKey = pyStrip(s)
		}
		return c
	}
	return nil
}

// hermesBlockMessage picks primary when truthy, else secondary; the chosen
// value must be a non-empty string or the default is used (so a truthy
// non-string primary such as 42 yields the default even when secondary is a
// good string — Hermes' quirk, kept).
func hermesBlockMessage(primary, secondary any) string {
	chosen := primary
	if !truthy(primary) {
		chosen = secondary
	}
	if s, ok := chosen.(string); ok && s != "" {
		return s
	}
	return DefaultBlockMessage
}

func hermesVerifyReply(obj map[string]any) *Contribution {
	verb := obj["action"]
	if !truthy(verb) {
		verb = obj["decision"]
	}
	msg := obj["message"]
	if !truthy(msg) {
		msg = obj["reason"]
	}
	if !truthy(verb) {
		return nil
	}
	v := strings.ToLower(pyStrip(pyStr(verb)))
	if v != "continue" && v != "block" {
		return nil
	}
	s, ok := msg.(string)
	if !ok || pyStrip(s) == "" {
		return nil
	}
	return &Contribution{Decision: DecisionBlock, Message: pyStrip(s)}
}

// truthy is Python truthiness for decoded JSON values.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case json.Number:
		f, err := x.Float64()
		return err != nil || f != 0
	case float64:
		return x != 0
	case map[string]any:
		return len(x) > 0
	case []any:
		return len(x) > 0
	}
	return true
}

// pyStr is Python's str() of a decoded JSON value, as far as a verb needs.
func pyStr(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		if x {
			return "True"
		}
		return "False"
	case json.Number:
		return string(x)
	case nil:
		return "None"
	}
	return string(pyjson.Encode(v, pyjson.Python))
}
