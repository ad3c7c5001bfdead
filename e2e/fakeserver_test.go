//go:build e2e

package e2e

import (
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

// scriptedCallID is the id of the one shell call the fake models other
// than Claude's make.
const scriptedCallID = "call_e2e_hermes_hooks"

// script is what the fake model does in the main conversation: ask the
// agent's shell tool to run Command (none: answer at once), then, once the
// tool's result is in the conversation, answer "done".
type script struct {
	// Prompt is a string only the main conversation's first user message
	// contains; it tells the main conversation from the agent's side
	// requests (titles, topic detection, quota probes, …).
	Prompt  string
	Command string
}

// apiRequest is one request a fake received.
type apiRequest struct {
	Method, Path string
	Body         []byte
	Main         bool // a request of the main conversation
	Answer       string
}

// describe says in one line what the request was and what it got:
// unanswered when the fake had no scripted answer, else the main
// conversation or a side request, what detail says of the body, and the
// answer.
func (r *apiRequest) describe(unanswered string, detail func(body []byte) string) string {
	if r.Answer == "" {
		return fmt.Sprintf("%d-byte body, %s", len(r.Body), unanswered)
	}
	kind := "side request"
	if r.Main {
		kind = "main conversation"
	}
	return fmt.Sprintf("%s (%s): %s", kind, detail(r.Body), r.Answer)
}

// fakeServer is what every scripted model API shares. The same server is
// the agent's HTTP(S) proxy: a connection to anywhere else is refused and
// recorded in egress, so a run can never reach the network unnoticed.
// Every other request is recorded and handed to the API's answer.
type fakeServer struct {
	script    script
	srv       *httptest.Server
	summarize func(*apiRequest) string // one line per request, for the run's log

	mu       sync.Mutex
	requests []apiRequest
	egress   []string
}

// answerFunc answers one request of the API, noting in rec whether it was
// of the main conversation and what it got.
type answerFunc func(w http.ResponseWriter, r *http.Request, body []byte, rec *apiRequest)

// start serves answer until the test ends; summarize describes a request
// in the run's log.
func (f *fakeServer) start(t *testing.T, s script, answer answerFunc, summarize func(*apiRequest) string) {
	t.Helper()
	f.script = s
	f.summarize = summarize
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

func (f *fakeServer) serve(w http.ResponseWriter, r *http.Request, answer answerFunc) {
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

// lastFound decodes each main-conversation request as a Req and returns
// what find found in the last one where it found something, or nil.
func lastFound[Req, Res any](t *testing.T, f *fakeServer, find func(*Req) *Res) *Res {
	t.Helper()
	var found *Res
	for _, r := range f.Requests() {
		if !r.Main {
			continue
		}
		var req Req
		if err := json.Unmarshal(r.Body, &req); err != nil {
			t.Fatal(err)
		}
		if x := find(&req); x != nil {
			found = x
		}
	}
	return found
}

// find is the first element of items that match accepts, or nil.
func find[T any](items []T, match func(*T) bool) *T {
	for i := range items {
		if match(&items[i]) {
			return &items[i]
		}
	}
	return nil
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// startEvents starts a server-sent events answer.
func startEvents(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

// flush sends what was written so far.
func flush(w http.ResponseWriter) {
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
}

// textOf is a content or output member as text: a string, or the text of
// its parts ([{"type": …, "text": …}, …]), else the raw JSON.
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return string(raw)
	}
	var texts []string
	for _, p := range parts {
		texts = append(texts, p.Text)
	}
	return strings.Join(texts, "\n")
}

// memberOf is the raw member name of a request body ("messages",
// "contents", "input"): the conversation, without the long tool
// definitions. The whole body when it is not a JSON object.
func memberOf(body []byte, name string) []byte {
	var req map[string]json.RawMessage
	if json.Unmarshal(body, &req) != nil {
		return body
	}
	return req[name]
}

// lastOf is the last n elements of a request body's array member name
// (the first ones are the agent's long instructions).
func lastOf(body []byte, name string, n int) []byte {
	var items []json.RawMessage
	if json.Unmarshal(memberOf(body, name), &items) != nil {
		return body
	}
	if len(items) > n {
		items = items[len(items)-n:]
	}
	b, _ := json.Marshal(items)
	return b
}
