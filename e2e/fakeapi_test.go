//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
)

// toolUseID is the id of the one tool call the fake model makes.
const toolUseID = "toolu_01E2EHERMESHOOKS"

// fakeAPI is a scripted Anthropic Messages API; its URL is Claude Code's
// ANTHROPIC_BASE_URL.
type fakeAPI struct{ fakeServer }

func newFakeAPI(t *testing.T, s script) *fakeAPI {
	t.Helper()
	f := &fakeAPI{}
	f.start(t, s, f.answer, (*apiRequest).summary)
	return f
}

func (f *fakeAPI) answer(w http.ResponseWriter, r *http.Request, body []byte, rec *apiRequest) {
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		var req messagesRequest
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"e2e: body is not JSON"}}`, http.StatusBadRequest)
			return
		}
		rec.Main = f.isMain(&req)
		var content []any
		stop := "end_turn"
		switch {
		case !rec.Main:
			content = []any{textBlock("e2e side answer")}
			rec.Answer = "side text"
		case f.script.Command != "" && req.toolResult(toolUseID) == nil:
			content = []any{map[string]any{
				"type": "tool_use", "id": toolUseID, "name": "Bash",
				"input": map[string]any{"command": f.script.Command, "description": "e2e scripted command"},
			}}
			stop = "tool_use"
			rec.Answer = "tool_use Bash " + f.script.Command
		default:
			content = []any{textBlock("done")}
			rec.Answer = "text done"
		}
		model := req.Model
		if model == "" {
			model = "claude-e2e-fake"
		}
		if req.Stream {
			writeStream(w, model, content, stop)
		} else {
			writeJSON(w, map[string]any{
				"id": "msg_e2e", "type": "message", "role": "assistant", "model": model,
				"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": usage(5),
			})
		}
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		writeJSON(w, map[string]any{"input_tokens": 100})
	case r.Method == http.MethodHead:
		w.WriteHeader(http.StatusOK)
	default:
		// Whatever else Claude Code probes (model lists, account or
		// feature endpoints): an empty object is a harmless answer.
		writeJSON(w, map[string]any{})
	}
}

// isMain tells the main conversation from side requests: it offers the
// Bash tool and its first user message carries the script's prompt.
func (f *fakeAPI) isMain(req *messagesRequest) bool {
	hasBash := false
	for _, tool := range req.Tools {
		hasBash = hasBash || tool.Name == "Bash"
	}
	return hasBash && len(req.Messages) > 0 && bytes.Contains(req.Messages[0].Content, []byte(f.script.Prompt))
}

// messagesRequest is the part of a Messages API request the fake reads.
type messagesRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

// contentBlock is one block of a message's content.
type contentBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// toolResult returns the tool_result block answering id, or nil.
func (req *messagesRequest) toolResult(id string) *contentBlock {
	for _, m := range req.Messages {
		var blocks []contentBlock
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue // a plain string
		}
		for i := range blocks {
			if blocks[i].Type == "tool_result" && blocks[i].ToolUseID == id {
				return &blocks[i]
			}
		}
	}
	return nil
}

// text is a tool_result's content as text: a string, or its text blocks.
func (b *contentBlock) text() string { return textOf(b.Content) }

// summary says in one line what a Messages API request was and what it
// got.
func (r *apiRequest) summary() string {
	return r.describe("generic answer", func(body []byte) string {
		var req messagesRequest
		_ = json.Unmarshal(body, &req)
		return fmt.Sprintf("model %s, stream=%v, %d tools", req.Model, req.Stream, len(req.Tools))
	})
}

func textBlock(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

func usage(out int) map[string]any {
	return map[string]any{
		"input_tokens": 100, "output_tokens": out,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
	}
}

// writeStream answers as the streaming Messages API does: message_start,
// then per content block its start, one delta and its stop, then
// message_delta with the stop reason and message_stop.
func writeStream(w http.ResponseWriter, model string, content []any, stop string) {
	startEvents(w)
	event := func(name string, data map[string]any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
	}
	event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_e2e", "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage(1),
	}})
	for i, c := range content {
		block := c.(map[string]any)
		switch block["type"] {
		case "text":
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "text_delta", "text": block["text"]}})
		case "tool_use":
			input, _ := json.Marshal(block["input"])
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{}}})
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		}
		event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	event("message_stop", map[string]any{"type": "message_stop"})
	flush(w)
}
