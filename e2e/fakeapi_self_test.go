//go:build e2e

package e2e

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestFakeAPI pins the fake model's answers on the paths the Claude Code
// runs may not take every time (non-streaming, side requests, probes), so
// that a surprising run is never the fake's fault. It needs no Claude Code.
func TestFakeAPI(t *testing.T) {
	fake := newFakeAPI(t, script{Prompt: "E2E-PROMPT-self", Command: "ls"})
	post := func(path, body string) *http.Response {
		t.Helper()
		resp, err := http.Post(fake.URL()+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("POST %s: %s", path, resp.Status)
		}
		return resp
	}
	type message struct {
		Content []struct {
			Type, Text, Name string
			Input            map[string]any
		}
		StopReason string `json:"stop_reason"`
	}
	decode := func(resp *http.Response) message {
		t.Helper()
		var m message
		if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	tools := `"tools":[{"name":"Bash"}]`
	first := `{"model":"m",` + tools + `,"messages":[{"role":"user","content":[{"type":"text","text":"E2E-PROMPT-self"}]}]}`
	if m := decode(post("/v1/messages", first)); m.StopReason != "tool_use" || m.Content[0].Name != "Bash" || m.Content[0].Input["command"] != "ls" {
		t.Errorf("first main answer = %+v, want the scripted Bash call", m)
	}
	second := `{"model":"m",` + tools + `,"messages":[{"role":"user","content":"E2E-PROMPT-self"},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"` + toolUseID + `","name":"Bash","input":{"command":"ls"}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + toolUseID + `","content":[{"type":"text","text":"a.txt"}]}]}]}`
	if m := decode(post("/v1/messages", second)); m.StopReason != "end_turn" || m.Content[0].Text != "done" {
		t.Errorf("answer after the tool result = %+v, want text done", m)
	}
	side := `{"model":"small","messages":[{"role":"user","content":"Give this conversation a title"}]}`
	if m := decode(post("/v1/messages", side)); m.Content[0].Type != "text" || m.Content[0].Text == "done" {
		t.Errorf("side answer = %+v, want a short text that is not the script's", m)
	}

	// Streaming: the event sequence of the Messages API.
	resp := post("/v1/messages", strings.Replace(first, `{"model":"m",`, `{"model":"m","stream":true,`, 1))
	var events []string
	var partial string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if name, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
			events = append(events, name)
		}
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok && strings.Contains(data, "input_json_delta") {
			var d struct {
				Delta struct {
					PartialJSON string `json:"partial_json"`
				}
			}
			_ = json.Unmarshal([]byte(data), &d)
			partial = d.Delta.PartialJSON
		}
	}
	want := "message_start content_block_start content_block_delta content_block_stop message_delta message_stop"
	if got := strings.Join(events, " "); got != want || partial != `{"command":"ls","description":"e2e scripted command"}` {
		t.Errorf("stream = %s with input %s, want %s with the Bash command", got, partial, want)
	}

	if m := post("/v1/messages/count_tokens", first); m.Header.Get("Content-Type") != "application/json" {
		t.Errorf("count_tokens answered %s", m.Header.Get("Content-Type"))
	}
	if resp, err := http.Head(fake.URL() + "/"); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("HEAD /: %v %v", resp, err)
	}
	if resp, err := http.Get(fake.URL() + "/v1/models"); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("GET /v1/models: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	// As a proxy it refuses, and records, every connection elsewhere.
	proxy, _ := url.Parse(fake.URL())
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	if resp, err := client.Get("https://api.example.invalid/x"); err == nil {
		resp.Body.Close()
		t.Errorf("the proxy let a connection to api.example.invalid through: %s", resp.Status)
	}
	if got := fake.Egress(); len(got) != 1 || !strings.Contains(got[0], "api.example.invalid:443") {
		t.Errorf("egress = %q, want the refused CONNECT", got)
	}
	mains := 0
	for _, r := range fake.Requests() {
		if r.Main {
			mains++
		}
	}
	if mains != 3 {
		t.Errorf("%d requests counted as the main conversation, want 3", mains)
	}
}

// TestFakeResponses pins the fake Responses API the Codex runs talk to:
// the shell call, the answer once its output is in the input, side
// requests, the event sequence, and the refusing proxy. It needs no Codex.
func TestFakeResponses(t *testing.T) {
	fake := newFakeResponses(t, script{Prompt: "E2E-PROMPT-self", Command: "ls"})
	type event struct {
		Type string
		Item struct {
			Type, Name, Arguments string
			CallID                string `json:"call_id"`
			Content               []struct{ Text string }
		}
	}
	post := func(body string) []event {
		t.Helper()
		resp, err := http.Post(fake.URL()+"/v1/responses", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("POST /v1/responses: %s %s", resp.Status, resp.Header.Get("Content-Type"))
		}
		var events []event
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var e event
				if err := json.Unmarshal([]byte(data), &e); err != nil {
					t.Fatal(err)
				}
				events = append(events, e)
			}
		}
		return events
	}
	types := func(events []event) string {
		var s []string
		for _, e := range events {
			s = append(s, e.Type)
		}
		return strings.Join(s, " ")
	}
	tools := `"tools":[{"type":"function","name":"exec_command"}]`
	user := `{"type":"message","role":"user","content":[{"type":"input_text","text":"E2E-PROMPT-self"}]}`
	first := `{"model":"m","stream":true,` + tools + `,"input":[` + user + `]}`
	events := post(first)
	if got, want := types(events), "response.created response.output_item.added response.output_item.done response.completed"; got != want {
		t.Errorf("first answer's events = %s, want %s", got, want)
	}
	if it := events[2].Item; it.Type != "function_call" || it.Name != codexShellTool || it.CallID != scriptedCallID || it.Arguments != `{"cmd":"ls"}` {
		t.Errorf("first answer = %+v, want the scripted %s call", it, codexShellTool)
	}
	second := `{"model":"m","stream":true,` + tools + `,"input":[` + user + `,` +
		`{"type":"function_call","call_id":"` + scriptedCallID + `","name":"exec_command","arguments":"{\"cmd\":\"ls\"}"},` +
		`{"type":"function_call_output","call_id":"` + scriptedCallID + `","output":"a.txt"}]}`
	events = post(second)
	if got, want := types(events), "response.created response.output_item.added response.output_text.delta response.output_item.done response.completed"; got != want {
		t.Errorf("second answer's events = %s, want %s", got, want)
	}
	if it := events[3].Item; it.Type != "message" || len(it.Content) != 1 || it.Content[0].Text != "done" {
		t.Errorf("answer after the call's output = %+v, want the message done", it)
	}
	side := `{"model":"m","stream":true,"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"Summarize"}]}]}`
	if it := post(side)[3].Item; it.Type != "message" || it.Content[0].Text == "done" {
		t.Errorf("side answer = %+v, want a message that is not the script's", it)
	}
	var req responsesRequest
	if err := json.Unmarshal([]byte(second), &req); err != nil {
		t.Fatal(err)
	}
	if out := req.callOutput(scriptedCallID); out == nil || out.outputText() != "a.txt" {
		t.Errorf("callOutput = %+v, want a.txt", out)
	}
	arr := responsesItem{Output: json.RawMessage(`[{"type":"input_text","text":"x"},{"type":"input_text","text":"y"}]`)}
	if got := arr.outputText(); got != "x\ny" {
		t.Errorf("outputText of content items = %q", got)
	}

	proxy, _ := url.Parse(fake.URL())
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	if resp, err := client.Get("https://api.example.invalid/x"); err == nil {
		resp.Body.Close()
		t.Errorf("the proxy let a connection to api.example.invalid through: %s", resp.Status)
	}
	if got := fake.Egress(); len(got) != 1 || !strings.Contains(got[0], "api.example.invalid:443") {
		t.Errorf("egress = %q, want the refused CONNECT", got)
	}
	mains := 0
	for _, r := range fake.Requests() {
		if r.Main {
			mains++
		}
	}
	if mains != 2 {
		t.Errorf("%d requests counted as the main conversation, want 2", mains)
	}
}
