package agents

import (
	"maps"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// copilotCodec is how the hooks of a GitHub Copilot CLI hook file
// (copilot_hooks:) talk when hermes-hooks runs them for another agent:
// the payload Copilot CLI sends the event's spelling (camelCase for
// preToolUse …, Claude Code's for PreToolUse …: see Payload), read as Copilot CLI 1.0.102 reads the
// reply (the inverse of encodeCopilot): its flat words on the declared
// event (permissionDecision, behavior, modifiedArgs, modifiedResult,
// additionalContext, decision "allow" on a stop) beside everything the
// Claude dialect reads (Copilot reads hookSpecificOutput too), the most
// restrictive winning; and a preToolUse hook that exits non-zero or cannot
// run denies, as Copilot's command preToolUse fails closed (a timeout lets
// the call through there too). Read in the Claude dialect alone, a guard's
// {"permissionDecision": "deny"} was a word nobody read and the call went
// through under every agent but Copilot.
//
// Its Dialect stays Claude's: list, the journal and approvals name these
// hooks as they did.
type copilotCodec struct{}

// copilotDialect names Copilot's reading in the messages of a refusal it
// does not read ("the copilot dialect does not read …").
const copilotDialect protocol.Dialect = "copilot"

func (copilotCodec) Dialect() protocol.Dialect { return protocol.Claude }

func (copilotCodec) ProjectVars() []string { return []string{"CLAUDE_PROJECT_DIR"} }

// Payload is the payload Copilot CLI sends a hook declared as declared:
// its camelCase one for a camelCase name (copilotPayload), Claude Code's
// for a PascalCase one.
func (copilotCodec) Payload(declared string, ev *protocol.Event, fields map[string]any, env protocol.PayloadEnv) []byte {
	if copilotIsCamel(declared) {
		return copilotPayload(declared, ev, fields, env)
	}
	return protocol.BuildPayload(protocol.Claude, ev, fields, env)
}

// MatchSubject is what an entry's matcher is compared with: on a camelCase
// event's tool call, the tool's name as Copilot names it there (bash,
// view …; copilotMatcher reads the matcher so), as Copilot compares it;
// else Claude Code's subject. Compared with Claude Code's name, a
// camelCase regex such as (bash|powershell) matched nothing and its guard
// never ran.
func (copilotCodec) MatchSubject(declared string, ev *protocol.Event, fields map[string]any, tools *protocol.ToolTable) (string, bool) {
	q, ok := protocol.ClaudeMatchQuery(ev, fields, tools)
	if ok && ev.ClaudeMatchOn == "tool_name" && copilotIsCamel(declared) {
		if r, has := copilotRuntimeTools()[q]; has {
			q = r
		}
	}
	return q, ok
}

// copilotErrored is Copilot's reason for a preToolUse hook that failed.
const copilotErrored = "Denied by preToolUse hook (hook errored): "

// copilotFailsClosed is the note of a preToolUse hook that exited non-zero.
const copilotFailsClosed = "Copilot CLI's preToolUse fails closed: a hook that exits non-zero denies the call"

// ReadReply reads a run as Copilot does (see copilotCodec), with the
// search for a refusal in words it does not read (protocol.CodecRead).
func (copilotCodec) ReadReply(declared string, r protocol.Reply) protocol.Read {
	kind := copilotEvents()[declared].reply
	r.Dialect = protocol.Claude
	r.Stdout = withoutProgress(r.Stdout)
	ev := r.Event
	if ev == nil {
		return protocol.ReadReply(r)
	}
	obj := copilotObject(r.Stdout)
	flat, rest, read := copilotFlat(kind, ev, obj)
	// The Claude dialect reads what is left: its own words, as before.
	// Its search for foreign words is ours to make, on the whole reply
	// with Copilot's words (CodecRead below).
	claude := r
	claude.FailClosed = false
	if len(read) > 0 {
		claude.Stdout = pyjson.Encode(rest, pyjson.Compact)
	}
	base := protocol.ReadReply(claude)
	note := withoutForeign(base.Note, base.Foreign)
	c := strictest(base.Contribution, flat)
	refused := func() bool { return c != nil && (c.Decision == protocol.DecisionBlock || c.Stop) }
	switch {
	case refused():
	case kind == copilotPreTool && r.SpawnError != "":
		c = &protocol.Contribution{Decision: protocol.DecisionBlock, Message: copilotErrored + r.SpawnError}
	case kind == copilotPreTool && !r.TimedOut && r.ExitCode != 0:
		reason := protocol.ExitText(r.ExitCode)
		if line, _, _ := strings.Cut(strings.TrimSpace(string(r.Stderr)), "\n"); line != "" {
			reason += ": " + line
		}
		c = &protocol.Contribution{Decision: protocol.DecisionBlock, Message: copilotErrored + reason}
		// The Claude dialect's note calls this exit non-blocking, beside
		// a block (test shows both): say why it blocks instead.
		note = copilotFailsClosed
	case kind == copilotPermission && r.ExitCode == 2 && r.SpawnError == "" && !r.TimedOut:
		// Copilot: exit 2 denies the permission (the Claude dialect's
		// exit 2 does nothing on PermissionRequest).
		msg := strings.TrimSpace(string(r.Stderr))
		c = &protocol.Contribution{Decision: protocol.DecisionBlock, Message: firstNonEmpty(msg, protocol.ClaudeDefaultBlockReason)}
	case r.FailClosed && ev.Can(protocol.CapBlock|protocol.CapContinue):
		// The entry's fail_closed: what the Claude dialect's refuses
		// (could not run, unreadable, a failing exit without a reply),
		// but for a foreign word, which the search below names.
		claude.FailClosed = true
		if fc := protocol.ReadReply(claude); fc.Foreign == "" && fc.Contribution != nil && fc.Contribution.Decision == protocol.DecisionBlock {
			c = fc.Contribution
		}
	}
	if c != nil && c.ReplaceArgs && copilotIsCamel(declared) {
		cc := *c
		cc.Args = copilotReplyArgs(c.Args)
		c = &cc
	}
	return protocol.CodecRead(copilotDialect, declared, copilotWords(kind, read), r, obj, c, note)
}

// copilotObject is the reply object on stdout, nil when stdout is not one
// (text, invalid or ambiguous JSON: the Claude dialect's reading says why).
func copilotObject(stdout []byte) map[string]any {
	// Trimmed as the Claude dialect trims it (and Copilot, JavaScript's
	// trim): past a byte order mark, which PowerShell writes, and not
	// past U+0085. Read otherwise, a foreign word the Claude dialect
	// found was lost, and Copilot's own words with it.
	s := protocol.JSTrim(pyjson.DecodeReplace(stdout))
	if !strings.HasPrefix(s, "{") {
		return nil
	}
	return jsonObjectOf(s)
}

// withoutProgress is stdout without its progress lines, which Copilot
// strips before it reads the one JSON reply left: a guard that reports
// {"type":"progress",…} as it scans and then denies still denies. A
// stdout of progress lines alone is kept as it is, so that a lone
// {"type":"progress","decision":"block"} still refuses as the Claude
// dialect read it before.
func withoutProgress(stdout []byte) []byte {
	if !strings.Contains(string(stdout), `"progress"`) {
		return stdout
	}
	var kept []string
	rest := false
	for _, line := range strings.SplitAfter(string(stdout), "\n") {
		t := protocol.JSTrim(line)
		if t != "" && jsonObjectOf(t)["type"] == "progress" {
			continue
		}
		kept = append(kept, line)
		rest = rest || t != ""
	}
	if !rest {
		return stdout
	}
	return []byte(strings.Join(kept, ""))
}

// copilotFlat reads Copilot's flat words in obj on an event of kind: the
// contribution they make (nil: none), obj without them (what the Claude
// dialect reads) and the keys it read. A value Copilot does not accept
// (permissionDecision "block") is not read: the search for words nobody
// read finds it.
func copilotFlat(kind copilotReply, ev *protocol.Event, obj map[string]any) (_ *protocol.Contribution, rest map[string]any, read []string) {
	if obj == nil {
		return nil, nil, nil
	}
	c := &protocol.Contribution{}
	take := func(k string) { read = append(read, k) }
	str := func(k string) string { s, _ := obj[k].(string); return s }
	if kind == copilotPreTool || kind == copilotPostTool || kind == copilotContext {
		if s, ok := obj["additionalContext"].(string); ok {
			take("additionalContext")
			if ev.Can(protocol.CapContext) {
				c.Context = s
			}
		}
	}
	switch kind {
	case copilotPreTool:
		if d, ok := map[string]protocol.Decision{"deny": protocol.DecisionBlock, "ask": protocol.DecisionAsk,
			"allow": protocol.DecisionAllow}[str("permissionDecision")]; ok {
			take("permissionDecision")
			c.Decision, c.Message = d, str("permissionDecisionReason")
			if d == protocol.DecisionBlock && c.Message == "" {
				c.Message = protocol.ClaudeDefaultBlockReason
			}
		}
		if _, ok := obj["permissionDecisionReason"].(string); ok {
			take("permissionDecisionReason")
		}
		if m, ok := obj["modifiedArgs"].(map[string]any); ok {
			take("modifiedArgs")
			if ev.UpdatedInput {
				c.Args, c.ReplaceArgs = m, true
			}
		}
	case copilotPermission:
		switch str("behavior") {
		case "deny":
			take("behavior")
			c.Decision, c.Message = protocol.DecisionBlock, firstNonEmpty(str("message"), protocol.ClaudeDefaultBlockReason)
			if obj["interrupt"] == true {
				c.Stop, c.StopReason = true, c.Message
			}
		case "allow":
			take("behavior")
			c.Decision = protocol.DecisionAllow
		}
		for _, k := range []string{"message", "interrupt"} {
			if _, ok := obj[k]; ok && len(read) > 0 {
				take(k)
			}
		}
	case copilotPostTool:
		if m, ok := obj["modifiedResult"].(map[string]any); ok {
			take("modifiedResult")
			if s, ok := m["textResultForLlm"].(string); ok && ev.ToolOutput {
				c.Result = &s
			}
		}
	case copilotStop:
		// Its "block" is the Claude dialect's; "allow" is no objection
		// (which the Claude dialect's schema refuses).
		if obj["decision"] == "allow" {
			take("decision")
		}
	}
	if len(read) == 0 {
		return nil, obj, nil
	}
	rest = maps.Clone(obj)
	for _, k := range read {
		delete(rest, k)
	}
	if c.IsEmpty() {
		c = nil
	}
	return c, rest, read
}

// copilotWords are the words of refusal read on an event of kind: the
// Claude dialect's, and Copilot's own where it read them (read: the keys
// copilotFlat took), with Copilot's own refusal for the fix messages.
func copilotWords(kind copilotReply, read []string) protocol.ReplyWords {
	keys := []string{"decision", "continue", "hookSpecificOutput"}
	for _, k := range []string{"permissionDecision", "behavior"} {
		for _, r := range read {
			if r == k {
				keys = append(keys, k)
			}
		}
	}
	w := protocol.ReplyWords{Keys: keys, Refusal: `reply {"decision": "block", "reason": "…"}`}
	switch kind {
	case copilotPreTool:
		w.Refusal = `reply {"permissionDecision": "deny", "permissionDecisionReason": "…"}`
	case copilotPermission:
		w.Refusal = `reply {"behavior": "deny", "message": "…"}`
	}
	return w
}

// strictest is the Claude dialect's reading (base) with Copilot's flat
// words (flat) beside it: the most restrictive decision wins, with its
// message; a rewrite, a result and context are each taken where the
// other has none.
func strictest(base, flat *protocol.Contribution) *protocol.Contribution {
	if flat == nil {
		return base
	}
	if base == nil {
		return flat
	}
	c := *base
	if flat.Decision.Rank() > c.Decision.Rank() {
		c.Decision, c.Message = flat.Decision, flat.Message
	}
	if c.Args == nil {
		c.Args, c.ReplaceArgs = flat.Args, flat.ReplaceArgs
	}
	if c.Result == nil {
		c.Result = flat.Result
	}
	c.Context = textutil.JoinNonEmpty("\n\n", c.Context, flat.Context)
	if flat.Stop && !c.Stop {
		c.Stop, c.StopReason = true, flat.StopReason
	}
	return &c
}

// withoutForeign is the Claude dialect's note without its foreign word,
// which it appends last: the search is made again with Copilot's words.
func withoutForeign(note, foreign string) string {
	if foreign == "" {
		return note
	}
	note = strings.TrimSuffix(note, foreign)
	return strings.TrimSuffix(note, "; ")
}
