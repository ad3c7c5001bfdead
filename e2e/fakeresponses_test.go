//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
)

// codexShellTool is Codex 0.169's shell tool (unified exec): a
// function tool taking {"cmd": "<shell command line>"}.
const codexShellTool = "exec_command"

// fakeResponses is a scripted OpenAI Responses API, as Codex's
// `wire_api = "responses"` model providers speak it: POST /v1/responses
// with "stream": true, answered by server-sent events; its URL()+"/v1" is
// the provider's base_url. The proxy and the record are fakeServer's.
type fakeResponses struct{ fakeServer }

func newFakeResponses(t *testing.T, s script) *fakeResponses {
	t.Helper()
	f := &fakeResponses{}
	f.start(t, s, f.answer, (*apiRequest).responsesSummary)
	return f
}

func (f *fakeResponses) answer(w http.ResponseWriter, r *http.Request, body []byte, rec *apiRequest) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/responses" {
		// Whatever else Codex probes (a model list, …): not found, which
		// it treats as "nothing there".
		http.Error(w, `{"error":{"message":"e2e: not served","type":"invalid_request_error"}}`, http.StatusNotFound)
		return
	}
	var req responsesRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"error":{"message":"e2e: body is not JSON","type":"invalid_request_error"}}`, http.StatusBadRequest)
		return
	}
	rec.Main = f.isMain(&req)
	var item map[string]any
	switch {
	case !rec.Main:
		item = messageItem("e2e side answer")
		rec.Answer = "side text"
	case f.script.Command != "" && req.callOutput(scriptedCallID) == nil:
		args, _ := json.Marshal(map[string]any{"cmd": f.script.Command})
		item = map[string]any{
			"type": "function_call", "id": "fc_e2e", "call_id": scriptedCallID,
			"name": codexShellTool, "arguments": string(args), "status": "completed",
		}
		rec.Answer = codexShellTool + " " + f.script.Command
	default:
		item = messageItem("done")
		rec.Answer = "text done"
	}
	writeResponsesStream(w, req.Model, item)
}

// isMain tells the main conversation from side requests: it offers the
// shell tool and one of its user messages carries the script's prompt.
func (f *fakeResponses) isMain(req *responsesRequest) bool {
	hasShell := false
	for _, tool := range req.Tools {
		hasShell = hasShell || tool.Name == codexShellTool
	}
	if !hasShell {
		return false
	}
	for _, it := range req.Input {
		if it.Type == "message" && it.Role == "user" && bytes.Contains(it.Content, []byte(f.script.Prompt)) {
			return true
		}
	}
	return false
}

// responsesRequest is the part of a Responses API request the fake reads.
type responsesRequest struct {
	Model  string          `json:"model"`
	Stream bool            `json:"stream"`
	Input  []responsesItem `json:"input"`
	Tools  []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"tools"`
}

// responsesItem is one item of a request's input: a message, a
// function_call, a function_call_output, …
type responsesItem struct {
	Type    string          `json:"type"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	CallID  string          `json:"call_id"`
	Output  json.RawMessage `json:"output"`
}

// callOutput returns the function_call_output answering callID, or nil.
func (req *responsesRequest) callOutput(callID string) *responsesItem {
	return find(req.Input, func(it *responsesItem) bool { return it.Type == "function_call_output" && it.CallID == callID })
}

// outputText is a function_call_output's output as text: a string, or
// the text of its content items.
func (it *responsesItem) outputText() string { return textOf(it.Output) }

// responsesSummary says in one line what a Responses API request was and
// what it got.
func (r *apiRequest) responsesSummary() string {
	return r.describe("not served", func(body []byte) string {
		var req responsesRequest
		_ = json.Unmarshal(body, &req)
		return fmt.Sprintf("model %s, stream=%v, %d input items, %d tools", req.Model, req.Stream, len(req.Input), len(req.Tools))
	})
}

func messageItem(text string) map[string]any {
	return map[string]any{
		"type": "message", "id": "msg_e2e", "role": "assistant", "status": "completed",
		"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}},
	}
}

// writeResponsesStream answers as the streaming Responses API does:
// response.created, the one output item's added (and, for a message, one
// text delta) and done, then response.completed with the usage.
func writeResponsesStream(w http.ResponseWriter, model string, item map[string]any) {
	startEvents(w)
	event := func(data map[string]any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", data["type"], b)
	}
	if model == "" {
		model = "gpt-e2e"
	}
	resp := map[string]any{"id": "resp_e2e", "object": "response", "model": model, "status": "in_progress", "output": []any{}}
	event(map[string]any{"type": "response.created", "sequence_number": 0, "response": resp})
	event(map[string]any{"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": item})
	if item["type"] == "message" {
		text := item["content"].([]any)[0].(map[string]any)["text"]
		event(map[string]any{"type": "response.output_text.delta", "sequence_number": 2, "item_id": item["id"],
			"output_index": 0, "content_index": 0, "delta": text})
	}
	event(map[string]any{"type": "response.output_item.done", "sequence_number": 3, "output_index": 0, "item": item})
	done := map[string]any{"id": "resp_e2e", "object": "response", "model": model, "status": "completed",
		"output": []any{item}, "usage": map[string]any{
			"input_tokens": 100, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 5, "output_tokens_details": map[string]any{"reasoning_tokens": 0},
			"total_tokens": 105,
		}}
	event(map[string]any{"type": "response.completed", "sequence_number": 4, "response": done})
	flush(w)
}
