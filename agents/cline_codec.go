package agents

import (
	"maps"
	"slices"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// clineCodec is Cline's protocol seen from the other side: the hooks of a
// Cline hooks folder, run under any agent, get what Cline (the VS Code
// extension, cline ≤ 2.x) would send them and are read as it reads them.
type clineCodec struct{}

func (clineCodec) Dialect() protocol.Dialect { return clineDialect }

// ProjectVars: Cline names the workspace in the payload only.
func (clineCodec) ProjectVars() []string { return nil }

// MatchSubject is which twin this firing is: TaskResume for a resumed
// session, TaskCancel for an interrupted one; other events fit every firing.
func (clineCodec) MatchSubject(declared string, _ *protocol.Event, fields map[string]any, _ *protocol.ToolTable) (string, bool) {
	switch clineKindOf(declared) {
	case clineStart, clineResume:
		if fields["source"] == "resume" {
			return "TaskResume", true
		}
		return "TaskStart", true
	case clineCancel, clineComplete:
		if fields["interrupted"] == true {
			return "TaskCancel", true
		}
		return "TaskComplete", true
	}
	return "", false
}

// Payload is what Cline sends the hook file of event — the inverse of
// decodeCline: the common fields, then the event's data under its key
// (parameters as strings, as Cline's are).
func (clineCodec) Payload(event string, ev *protocol.Event, fields map[string]any, env protocol.PayloadEnv) []byte {
	val := map[string]any{}
	for _, kv := range protocol.HermesPayload(ev, fields, env) {
		val[kv.Key] = kv.Value
	}
	task := protocol.SessionValue(fields)
	str := func(k string) any {
		if s, ok := fields[k].(string); ok {
			return s
		}
		return ""
	}
	obj := protocol.Object{{Key: "clineVersion", Value: str("clineVersion")}, {Key: "hookName", Value: event},
		{Key: "timestamp", Value: str("timestamp")}, {Key: "taskId", Value: task},
		{Key: "workspaceRoots", Value: []any{val["cwd"]}}, {Key: "userId", Value: str("userId")}}
	if m, ok := fields["model"].(string); ok {
		obj = append(obj, protocol.KV{Key: "model", Value: protocol.Object{{Key: "provider", Value: ""}, {Key: "slug", Value: m}}})
	}
	meta := protocol.Object{{Key: "taskId", Value: task}}
	tool, _ := val["tool_name"].(string)
	args, _ := val["tool_input"].(map[string]any)
	name, params := clineCall(env.Tools.Hermes(tool), args)
	var data protocol.Object
	switch clineKindOf(event) {
	case clinePreTool:
		data = protocol.Object{{Key: "toolName", Value: name}, {Key: "parameters", Value: params}}
	case clinePostTool:
		result, ok := fields["result"].(string)
		if v := fields["result"]; !ok && v != nil {
			result = string(pyjson.Encode(v, pyjson.Compact))
		}
		data = protocol.Object{{Key: "toolName", Value: name}, {Key: "parameters", Value: params},
			{Key: "result", Value: result}, {Key: "success", Value: true}, {Key: "executionTimeMs", Value: int64(0)}}
	case clinePrompt:
		data = protocol.Object{{Key: "prompt", Value: firstPresent(fields, "prompt", "user_message")}, {Key: "attachments", Value: []any{}}}
	case clineStart, clineComplete:
		data = protocol.Object{{Key: "taskMetadata", Value: meta}}
	case clineResume:
		data = protocol.Object{{Key: "taskMetadata", Value: meta}, {Key: "previousState", Value: protocol.Object{}}}
	case clineCancel:
		data = protocol.Object{{Key: "taskMetadata", Value: append(meta, protocol.KV{Key: "completionStatus", Value: "cancelled"})}}
	case clineCompact:
		data = protocol.Object{{Key: "taskId", Value: task}, {Key: "compactionStrategy", Value: str("trigger")}}
	}
	key := strings.ToLower(event[:1]) + event[1:]
	obj = append(obj, protocol.KV{Key: key, Value: data})
	return pyjson.Encode(obj, pyjson.Compact)
}

// clineCall is a canonical tool call as Cline names it: the tool and its
// parameters, every value a string (clineTool reversed).
func clineCall(tool string, args map[string]any) (string, protocol.Object) {
	name, from := tool, args
	for ct, t := range clineTools {
		if t.tool != tool {
			continue
		}
		name, from = ct, map[string]any{}
		for p, a := range t.args {
			if v, ok := args[a]; ok {
				from[p] = v
			} else if v, ok := args["file_path"]; ok && a == "path" {
				from[p] = v
			}
		}
	}
	if strings.HasPrefix(tool, "mcp_") {
		server, t := splitMCP(tool)
		name = "use_mcp_tool"
		from = map[string]any{"server_name": server, "tool_name": t, "arguments": string(pyjson.Encode(args, pyjson.Compact))}
	}
	params := make(protocol.Object, 0, len(from))
	for _, k := range slices.Sorted(maps.Keys(from)) {
		v, ok := from[k].(string)
		if !ok {
			v = string(pyjson.Encode(from[k], pyjson.Compact))
		}
		params = append(params, protocol.KV{Key: k, Value: v})
	}
	return name, params
}

// clineRefuses are the events whose cancel refuses what they announce
// (and stops the task): where a fail-closed Cline hook blocks on failure.
func clineRefuses(event string) bool {
	k := clineKindOf(event)
	return k == clinePreTool || k == clinePrompt || k == clineCompact
}

// ReadReply reads a Cline hook as Cline does: a JSON object on stdout
// (the whole of it, else the last object at its end), whatever the exit
// code. cancel:true stops the task — on the events that announce
// something it refuses that too — with errorMessage; contextModification
// is context for the model. No JSON and a non-zero exit is a failed hook,
// which Cline lets pass; TaskCancel and TaskComplete replies are not read.
//
// It also finds a refusal in words Cline does not read (protocol.CodecRead) — cancel is
// its one word, read where it refuses.
func (clineCodec) ReadReply(event string, r protocol.Reply) protocol.Read {
	c, note, obj := clineRead(event, r)
	var w protocol.ReplyWords
	if clineRefuses(event) {
		w = protocol.ReplyWords{Keys: []string{"cancel"}, Refusal: `reply {"cancel": true, "errorMessage": "…"}`}
	}
	return protocol.CodecRead(clineDialect, event, w, r, obj, c, note)
}

// clineRead is ReadReply with the reply object it read (nil: none).
func clineRead(event string, r protocol.Reply) (_ *protocol.Contribution, _ string, obj map[string]any) {
	ev := r.Event
	if ev == nil {
		return nil, "unknown event", nil
	}
	failClosed := r.FailClosed && clineRefuses(event) && ev.Can(protocol.CapBlock)
	reason := ""
	obj, note := clineJSON(r.Stdout)
	switch {
	case r.SpawnError != "":
		reason = r.SpawnError
	case r.TimedOut:
		reason = "timed out"
	case obj == nil && r.ExitCode != 0:
		reason = protocol.ExitText(r.ExitCode)
		if line, _, _ := strings.Cut(strings.TrimSpace(string(r.Stderr)), "\n"); line != "" {
			reason += ": " + line
		}
	}
	if reason != "" {
		if failClosed {
			return protocol.FailedClosed(r.Command, reason), reason, nil
		}
		return nil, "hook " + reason, nil
	}
	if k := clineKindOf(event); obj == nil || k == clineCancel || k == clineComplete {
		return nil, note, nil
	}
	c := &protocol.Contribution{}
	msg, _ := obj["errorMessage"].(string)
	if obj["cancel"] == true {
		msg = firstNonEmpty(strings.TrimSpace(msg), "Hook requested task cancellation")
		c.Stop, c.StopReason = true, msg
		if clineRefuses(event) && ev.Can(protocol.CapBlock) {
			c.Decision, c.Message = protocol.DecisionBlock, msg
		}
	} else if s, _ := obj["contextModification"].(string); strings.TrimSpace(s) != "" && ev.Can(protocol.CapContext) {
		c.Context = s
	}
	if c.IsEmpty() {
		return nil, note, obj
	}
	return c, note, obj
}

// clineJSON finds the reply in a hook's stdout as Cline does: the whole output,
// else the last complete object at its end (after debug lines), none naming a
// member twice; nil and a note if none, or a field of a wrong type (no reply).
func clineJSON(stdout []byte) (map[string]any, string) {
	out := strings.TrimSpace(pyjson.DecodeReplace(stdout))
	if out == "" {
		return nil, ""
	}
	obj := jsonObjectOf(out)
	for i := len(out) - 1; obj == nil && i >= 0; i-- {
		if out[i] == '{' && (i == 0 || out[i-1] == '\n') {
			obj = jsonObjectOf(out[i:])
		}
	}
	if obj == nil {
		return nil, "hook stdout holds no JSON object: " + textutil.Truncate(out, 200)
	}
	for k, want := range map[string]string{"cancel": "boolean", "contextModification": "string", "errorMessage": "string"} {
		_, isBool := obj[k].(bool)
		_, isStr := obj[k].(string)
		if _, present := obj[k]; present && !(isBool && want == "boolean" || isStr && want == "string") {
			return nil, "hook reply ignored: " + k + " must be a " + want
		}
	}
	if _, old := obj["shouldContinue"]; old {
		return nil, "hook reply ignored: Cline no longer reads shouldContinue (use cancel)"
	}
	return obj, ""
}

func jsonObjectOf(s string) map[string]any {
	v, err := pyjson.DecodeUnique([]byte(s))
	if err != nil {
		return nil
	}
	m, _ := v.(map[string]any)
	return m
}
