//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// toolUseID is the id of the one tool call the fake model makes.
const toolUseID = "toolu_01E2EHERMESHOOKS"

// script is what the fake model does in the main conversation: ask Bash
// to run Command (none: answer at once), then, once the tool's result is
// in the conversation, answer "done".
type script struct {
	// Prompt is a string only the main conversation's first user message
	// contains; it tells the main conversation from Claude Code's side
	// requests (titles, topic detection, quota probes, …).
	Prompt  string
	Command string
}

// apiRequest is one request the fake received.
type apiRequest struct {
	Method, Path string
	Body         []byte
	Main         bool // a /v1/messages request of the main conversation
	Answer       string
}

// summary says in one line what the request was and what it got.
func (r *apiRequest) summary() string {
	if r.Answer == "" {
		return fmt.Sprintf("%d-byte body, generic answer", len(r.Body))
	}
	kind := "side request"
	if r.Main {
		kind = "main conversation"
	}
	var req struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
		Tools  []any  `json:"tools"`
	}
	_ = json.Unmarshal(r.Body, &req)
	return fmt.Sprintf("%s (model %s, stream=%v, %d tools): %s", kind, req.Model, req.Stream, len(req.Tools), r.Answer)
}

// fakeServer is what both scripted model APIs share. The same server is
// the agent's HTTP(S) proxy: a connection to anywhere else is refused and
// recorded in egress, so a run can never reach the network unnoticed.
// Every other request is recorded and handed to the API's answer.
type fakeServer struct {
	script script
	srv    *httptest.Server

	mu       sync.Mutex
	requests []apiRequest
	egress   []string
}

// start serves answer until the test ends.
func (f *fakeServer) start(t *testing.T, s script, answer func(w http.ResponseWriter, r *http.Request, body []byte, rec *apiRequest)) {
	t.Helper()
	f.script = s
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { f.serve(w, r, answer) }))
	t.Cleanup(f.srv.Close)
}

// URL is the server's base URL.
func (f *fakeServer) URL() string { return f.srv.URL }

// Requests returns a copy of every request received so far.
func (f *fakeServer) Requests() []apiRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]apiRequest(nil), f.requests...)
}

// Egress returns the proxied connections that were refused.
func (f *fakeServer) Egress() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.egress...)
}

func (f *fakeServer) serve(w http.ResponseWriter, r *http.Request, answer func(http.ResponseWriter, *http.Request, []byte, *apiRequest)) {
	self, _ := url.Parse(f.srv.URL)
	// Proxy traffic: CONNECT for https, an absolute URI for http. Our own
	// address in absolute form means the client proxied its API calls.
	if r.Method == http.MethodConnect || (r.URL.IsAbs() && r.URL.Host != self.Host) {
		f.mu.Lock()
		f.egress = append(f.egress, r.Method+" "+r.Host+r.URL.Path)
		f.mu.Unlock()
		http.Error(w, "e2e: network access refused", http.StatusForbidden)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	rec := apiRequest{Method: r.Method, Path: r.URL.Path, Body: body}
	defer func() {
		f.mu.Lock()
		f.requests = append(f.requests, rec)
		f.mu.Unlock()
	}()
	answer(w, r, body, &rec)
}

// fakeAPI is a scripted Anthropic Messages API; its URL is Claude Code's
// ANTHROPIC_BASE_URL.
type fakeAPI struct{ fakeServer }

func newFakeAPI(t *testing.T, s script) *fakeAPI {
	t.Helper()
	f := &fakeAPI{}
	f.start(t, s, f.answer)
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
func (b *contentBlock) text() string {
	var s string
	if json.Unmarshal(b.Content, &s) == nil {
		return s
	}
	var blocks []contentBlock
	if json.Unmarshal(b.Content, &blocks) != nil {
		return string(b.Content)
	}
	var parts []string
	for _, c := range blocks {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, "\n")
}

func textBlock(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

func usage(out int) map[string]any {
	return map[string]any{
		"input_tokens": 100, "output_tokens": out,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// writeStream answers as the streaming Messages API does: message_start,
// then per content block its start, one delta and its stop, then
// message_delta with the stop reason and message_stop.
func writeStream(w http.ResponseWriter, model string, content []any, stop string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
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
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
}
