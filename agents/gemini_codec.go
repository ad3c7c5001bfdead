package agents

import (
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Payload is what Gemini CLI sends a hook declared under declared — the
// inverse of decodeGemini: built on the Claude payload (which derives
// prompt, tool_response, stop_hook_active … from a Hermes host's fields),
// with Gemini's event and tool names and its own fields; every other host
// field follows, as scripts ignore keys they do not know. JSON.stringify,
// no newline, as Gemini writes it.
func (geminiCodec) Payload(declared string, ev *protocol.Event, fields map[string]any, env protocol.PayloadEnv) []byte {
	base := protocol.ClaudePayload(ev, fields, env)
	val := make(map[string]any, len(base))
	for _, kv := range base {
		val[kv.Key] = kv.Value
	}
	// Claude Code's own: Gemini sends none of these.
	done := map[string]bool{"permission_mode": true, "tool_use_id": true, "last_assistant_message": true}
	obj := make(protocol.Object, 0, len(base)+4)
	add := func(k string, v any) {
		obj = append(obj, protocol.KV{Key: k, Value: v})
		done[k] = true
	}
	for _, k := range []string{"session_id", "transcript_path", "cwd"} {
		add(k, val[k])
	}
	add("hook_event_name", declared)
	if t, ok := fields["timestamp"].(string); ok {
		add("timestamp", t)
	}
	if geminiTriggerEvents[declared] {
		// SessionStart's source, SessionEnd's reason, PreCompress' trigger.
		if q, ok := protocol.ClaudeMatchQuery(ev, fields, env.Tools); ok {
			add(ev.ClaudeMatchOn, q)
		}
	}
	switch declared {
	case "BeforeTool", "AfterTool":
		tool, _ := val["tool_name"].(string)
		add("tool_name", GeminiToolName(tool, env.Tools))
		add("tool_input", val["tool_input"])
		if declared == "AfterTool" {
			add("tool_response", geminiToolResponse(fields, val["tool_response"]))
		}
	case "BeforeAgent":
		add("prompt", val["prompt"])
	case "AfterAgent":
		add("prompt", stringOr(fields["prompt"], ""))
		add("prompt_response", stringOr(val["last_assistant_message"], ""))
		add("stop_hook_active", val["stop_hook_active"])
	case "BeforeModel", "AfterModel":
		req, ok := fields["llm_request"].(map[string]any)
		if !ok {
			req = map[string]any{"model": stringOr(fields["model"], ""), "messages": []any{}, "config": map[string]any{}}
		}
		add("llm_request", req)
		if r, ok := fields["llm_response"]; ok && declared == "AfterModel" {
			add("llm_response", r)
		}
	}
	for _, kv := range base {
		if !done[kv.Key] {
			obj = append(obj, kv)
			done[kv.Key] = true
		}
	}
	return pyjson.Append(nil, obj, pyjson.Compact)
}

// geminiToolResponse is AfterTool's tool_response: Gemini's own when the
// host is Gemini, else {llmContent, returnDisplay} from the result text.
func geminiToolResponse(fields map[string]any, claude any) any {
	if r, ok := fields["tool_response"].(map[string]any); ok {
		if _, gemini := r["llmContent"]; gemini {
			return r
		}
	}
	text, ok := fields["result"].(string)
	if !ok {
		if s, isStr := claude.(string); isStr {
			text = s
		} else if claude != nil {
			text = string(pyjson.Encode(claude, pyjson.Compact))
		}
	}
	return protocol.Object{{Key: "llmContent", Value: text}, {Key: "returnDisplay", Value: text}}
}

func stringOr(v any, def string) any {
	if s, ok := v.(string); ok {
		return s
	}
	return def
}

// ReadReply reads one run of a Gemini hook as Gemini CLI 0.61 reads it
// (hookRunner.executeCommandHook, then the event's consumer). The text
// read is stdout, or stderr when stdout is empty; JSON there is the reply
// whatever the exit code. Text that is not JSON is, by exit code: 0 a
// message for the user, 1 a warning, anything else a refusal with the
// text as its reason. An empty output, a spawn error and a timeout are
// failures, which Gemini lets through (so does hermes-hooks, unless the
// entry is fail-closed).
//
// It also finds a refusal in words Gemini does not read (protocol.CodecRead).
func (g geminiCodec) ReadReply(declared string, r protocol.Reply) protocol.Read {
	c, note, out := geminiRead(declared, r)
	return protocol.CodecRead(g.Dialect(), declared, geminiWords(declared), r, out, c, note)
}

// geminiWords are the words of refusal Gemini reads on declared: decision
// and continue where it reads them; its hooks refuse where it reads either
// (not on PreCompress, whose reply Gemini does not read).
func geminiWords(declared string) protocol.ReplyWords {
	reads := geminiEvents()[declared].reads
	var w protocol.ReplyWords
	if reads&(GeminiDenies|GeminiAsks) != 0 {
		w.Keys = append(w.Keys, "decision")
	}
	if reads&GeminiStops != 0 {
		w.Keys = append(w.Keys, "continue")
	}
	if geminiRefuses(reads) {
		w.Refusal = `reply {"decision": "deny", "reason": "…"}`
	}
	return w
}

// geminiRefuses reports whether hooks that Gemini reads so can refuse:
// where a fail_closed one blocks when it fails.
func geminiRefuses(reads GeminiReads) bool { return reads&(GeminiDenies|GeminiStops) != 0 }

// geminiRead is ReadReply with the reply object it read (out: nil for
// none).
func geminiRead(declared string, r protocol.Reply) (_ *protocol.Contribution, _ string, out map[string]any) {
	ev := r.Event
	if ev == nil {
		return nil, "unknown event", nil
	}
	reads := geminiEvents()[declared].reads
	failClosed := r.FailClosed && ev.Can(protocol.CapBlock|protocol.CapContinue) && geminiRefuses(reads)
	if r.SpawnError != "" || r.TimedOut {
		reason := r.NotRun()
		if failClosed {
			return protocol.FailedClosed(r.Command, reason), reason, nil
		}
		return nil, reason, nil
	}
	// stdout.trim() || stderr.trim(): JavaScript's trim, which removes a
	// byte order mark (U+FEFF) before JSON.parse and leaves U+0085.
	text := protocol.JSTrim(string(r.Stdout))
	if text == "" {
		text = protocol.JSTrim(string(r.Stderr))
	}
	if text == "" {
		if r.ExitCode != 0 {
			return nil, "hook " + protocol.ExitText(r.ExitCode) + " with no output", nil
		}
		return nil, "", nil
	}
	// JSON naming a member twice is read as text that is not JSON: which
	// of the two the hook meant cannot be known (an exit 2 still refuses).
	out, isJSON, amb := geminiJSON(text)
	if !isJSON {
		switch r.ExitCode {
		case 0:
			out = map[string]any{"systemMessage": text}
		case 1:
			out = map[string]any{"systemMessage": "Warning: " + text}
		default:
			out = map[string]any{"decision": "deny", "reason": text}
		}
	}
	if out == nil {
		return nil, "hook output is JSON but not an object; ignored", nil
	}
	c, note := geminiApply(declared, reads, ev, out)
	if amb != "" {
		note = textutil.JoinNonEmpty("; ", protocol.AmbiguousNote(amb, text), note)
	}
	if c.IsEmpty() {
		return nil, note, out
	}
	return c, note, out
}

// geminiJSON parses text as Gemini does: JSON.parse, and once more when
// that gives a string. out is nil for JSON that is not an object (Gemini
// then has no output); ok is false for text that is not JSON; amb says
// why JSON that names a member twice is no reply (protocol.Ambiguous).
func geminiJSON(text string) (out map[string]any, ok bool, amb string) {
	v, err := pyjson.DecodeUnique([]byte(text))
	if amb := protocol.Ambiguous(err); amb != "" {
		return nil, false, amb
	}
	if err != nil {
		return nil, false, ""
	}
	if s, isStr := v.(string); isStr {
		v, err = pyjson.DecodeUnique([]byte(s))
		if amb := protocol.Ambiguous(err); amb != "" {
			return nil, false, amb
		}
		if err != nil {
			return nil, false, ""
		}
	}
	out, _ = v.(map[string]any)
	return out, true, ""
}

// geminiApply applies one hook's output object to the event, as far as
// Gemini reads it there (reads) and the canonical event allows.
func geminiApply(declared string, reads GeminiReads, ev *protocol.Event, out map[string]any) (*protocol.Contribution, string) {
	c := &protocol.Contribution{}
	var notes []string
	note := func(s string) { notes = append(notes, s) }
	// getEffectiveReason: stopReason, else reason, else Gemini's text.
	reason := firstNonEmpty(str(out, "stopReason"), str(out, "reason"), "No reason provided")
	c.SystemMessage = str(out, "systemMessage")
	if cont, ok := out["continue"].(bool); ok && !cont {
		if reads&GeminiStops != 0 {
			c.Stop, c.StopReason = true, reason
		} else {
			note("continue:false has no effect on " + declared)
		}
	}
	switch d, _ := out["decision"].(string); d {
	case "deny", "block":
		switch {
		case reads&GeminiDenies == 0:
			note("decision \"" + d + "\" has no effect on " + declared)
		case !ev.Can(protocol.CapBlock | protocol.CapContinue):
			note("decision \"" + d + "\" on " + declared + " cannot refuse anything here (" + ev.Name + " only observes)")
		default:
			// Gemini joins every hook's reason, a line apart
			// (mergeWithOrDecision).
			c.Decision, c.Message, c.ReasonJoin = protocol.DecisionBlock, reason, "\n"
		}
	case "ask":
		if reads&GeminiAsks != 0 && ev.Can(protocol.CapApprove) {
			// Gemini shows the systemMessage with its confirmation.
			c.Decision, c.Message = protocol.DecisionAsk, firstNonEmpty(c.SystemMessage, str(out, "reason"))
		} else {
			note("decision \"ask\" has no effect on " + declared)
		}
	}
	// "allow" (and anything else) is no decision in Gemini's code: it
	// approves nothing, so it does not here either.
	hso, _ := out["hookSpecificOutput"].(map[string]any)
	if s, ok := hso["additionalContext"].(string); ok && s != "" {
		if reads&GeminiContext != 0 && ev.Can(protocol.CapContext) {
			c.Context = s
		} else {
			note("additionalContext has no effect on " + declared)
		}
	}
	if in, ok := hso["tool_input"].(map[string]any); ok && reads&GeminiToolInput != 0 && ev.Can(protocol.CapModify) {
		// Gemini 0.61 builds the tool from it alone (documented as merged).
		c.Args, c.ReplaceArgs = in, true
	}
	for _, k := range []string{"llm_request", "llm_response", "toolConfig", "clearContext", "tailToolCallRequest"} {
		if _, ok := hso[k]; ok {
			note("hookSpecificOutput." + k + " is not supported here; ignored")
		}
	}
	return c, strings.Join(notes, "; ")
}

func str(obj map[string]any, key string) string {
	s, _ := obj[key].(string)
	return s
}

// NextFields is what the next hook of a sequential run sees after one
// that exited 0 with reply c, as Gemini CLI 0.61 feeds it
// (hookRunner.applyHookOutputToInput): BeforeTool's tool_input merged
// with the hook's hookSpecificOutput.tool_input (its keys over the
// input's), BeforeAgent's prompt with the hook's additionalContext after a
// blank line. Other events, and a hook that changed neither, leave the
// input as it was.
func (geminiCodec) NextFields(declared string, ev *protocol.Event, fields map[string]any, c *protocol.Contribution) map[string]any {
	switch {
	case c == nil || ev == nil:
		return fields
	case declared == "BeforeTool":
		return withMergedArgs(ev, fields, c.Args)
	case declared == "BeforeAgent":
		return withPromptContext(ev, fields, c.Context)
	}
	return fields
}
