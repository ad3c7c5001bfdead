//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// qwenShellTool is Qwen Code's shell tool, a function taking
// {"command", "description", "is_background"}.
const qwenShellTool = "run_shell_command"

// fakeChat is a scripted OpenAI Chat Completions API, as Qwen Code's
// "openai" auth type and Cline's "openai-compatible" provider speak it: POST /v1/chat/completions with "stream":
// true, answered by server-sent events (a delta per chunk, a usage chunk,
// then [DONE]); its URL()+"/v1" is OPENAI_BASE_URL. The proxy and the
// record are fakeServer's. (Codex's fake, fakeResponses, speaks the
// Responses API instead.)
type fakeChat struct {
	fakeServer
	shell chatShell
}

// chatShell is the agent's shell tool: its name and the arguments that ask
// it to run one command.
type chatShell struct {
	name string
	args func(command string) map[string]any
}

// qwenShell is Qwen Code's run_shell_command.
var qwenShell = chatShell{name: qwenShellTool, args: func(command string) map[string]any {
	return map[string]any{"command": command, "description": "e2e scripted command", "is_background": false}
}}

// newFakeChatShell is a fake whose scripted call goes to shell.
func newFakeChatShell(t *testing.T, s script, shell chatShell) *fakeChat {
	t.Helper()
	f := &fakeChat{shell: shell}
	f.start(t, s, f.answer, (*apiRequest).chatSummary)
	return f
}

func (f *fakeChat) answer(w http.ResponseWriter, r *http.Request, body []byte, rec *apiRequest) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, `{"error":{"message":"e2e: not served","type":"invalid_request_error"}}`, http.StatusNotFound)
		return
	}
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"error":{"message":"e2e: body is not JSON","type":"invalid_request_error"}}`, http.StatusBadRequest)
		return
	}
	rec.Main = f.isMain(&req)
	delta := map[string]any{"role": "assistant", "content": "done"}
	finish := "stop"
	switch {
	case !rec.Main:
		delta["content"] = "e2e side answer"
		rec.Answer = "side text"
	case f.script.Command != "" && req.toolMessage(scriptedCallID) == nil:
		args, _ := json.Marshal(f.shell.args(f.script.Command))
		delta = map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{
			"index": 0, "id": scriptedCallID, "type": "function",
			"function": map[string]any{"name": f.shell.name, "arguments": string(args)},
		}}}
		finish = "tool_calls"
		rec.Answer = f.shell.name + " " + f.script.Command
	default:
		rec.Answer = "text done"
	}
	writeChatStream(w, req.Model, delta, finish)
}

// isMain tells the main conversation from side requests: it offers the
// shell tool and one of its user messages carries the script's prompt.
func (f *fakeChat) isMain(req *chatRequest) bool {
	hasShell := false
	for _, tool := range req.Tools {
		hasShell = hasShell || tool.Function.Name == f.shell.name
	}
	if !hasShell {
		return false
	}
	for _, m := range req.Messages {
		if m.Role == "user" && strings.Contains(m.text(), f.script.Prompt) {
			return true
		}
	}
	return false
}

// chatRequest is the part of a Chat Completions request the fake reads.
type chatRequest struct {
	Model    string        `json:"model"`
	Stream   bool          `json:"stream"`
	Messages []chatMessage `json:"messages"`
	Tools    []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

// chatMessage is one message of a request: system, user, assistant (with
// tool_calls) or tool (a call's result, naming its tool_call_id).
type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
}

// toolMessage returns the tool message answering callID, or nil.
func (req *chatRequest) toolMessage(callID string) *chatMessage {
	return find(req.Messages, func(m *chatMessage) bool { return m.Role == "tool" && m.ToolCallID == callID })
}

// text is a message's content as text: a string, or its text parts.
func (m *chatMessage) text() string { return textOf(m.Content) }

// chatSummary says in one line what a Chat Completions request was and
// what it got.
func (r *apiRequest) chatSummary() string {
	return r.describe("not served", func(body []byte) string {
		var req chatRequest
		_ = json.Unmarshal(body, &req)
		return fmt.Sprintf("model %s, stream=%v, %d messages, %d tools", req.Model, req.Stream, len(req.Messages), len(req.Tools))
	})
}

// writeChatStream answers as the streaming Chat Completions API does: one
// chunk with the delta, one with the finish reason, one with the usage,
// then [DONE].
func writeChatStream(w http.ResponseWriter, model string, delta map[string]any, finish string) {
	startEvents(w)
	if model == "" {
		model = "qwen-e2e"
	}
	chunk := func(choices []any, extra map[string]any) {
		c := map[string]any{"id": "chatcmpl-e2e", "object": "chat.completion.chunk", "created": 1, "model": model, "choices": choices}
		for k, v := range extra {
			c[k] = v
		}
		b, _ := json.Marshal(c)
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	chunk([]any{map[string]any{"index": 0, "delta": delta, "finish_reason": nil}}, nil)
	chunk([]any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finish}}, nil)
	chunk([]any{}, map[string]any{"usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 5, "total_tokens": 105}})
	fmt.Fprint(w, "data: [DONE]\n\n")
	flush(w)
}

// chatAgent is the part of an agent's adapter that the agents on the
// Chat Completions fake share: their shell tool.
type chatAgent struct{ shell chatShell }

func (c chatAgent) newFake(t *testing.T, s script) *fakeServer {
	return &newFakeChatShell(t, s, c.shell).fakeServer
}

// dumpChat logs what a failing run needs: the agent's output (kind: its
// stdout's format), the last messages of every request the fake model
// got and what it answered, and the hooks' payloads.
func (c chatAgent) dumpChat(t *testing.T, what, kind string, r *agentRun, fake *fakeServer, project string) {
	t.Logf("%s error: %v\nstdout (%s):\n%s\nstderr:\n%s", what, r.err, kind, clip(r.stdout, 20000), clip(r.stderr, 8000))
	dumpRequests(t, fake, "last messages", "messages", 3)
	logHookPayloads(t, project)
}

// toolResult: the tool message answering the scripted call.
func (c chatAgent) toolResult(t *testing.T, fake *fakeServer) callResult {
	m := lastFound(t, fake, func(req *chatRequest) *chatMessage { return req.toolMessage(scriptedCallID) })
	if m == nil {
		return callResult{}
	}
	return callResult{found: true, text: m.text()}
}
