//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// geminiShellTool is Gemini CLI 0.61's shell tool, taking
// {"command", "description"}.
const geminiShellTool = "run_shell_command"

// fakeGemini is a scripted Gemini API (generativelanguage v1beta) as
// Gemini CLI speaks it through GOOGLE_GEMINI_BASE_URL:
// POST /v1beta/models/MODEL:streamGenerateContent?alt=sse (server-sent
// events, each a whole GenerateContentResponse), :generateContent and
// :countTokens. The proxy and the record are fakeServer's.
type fakeGemini struct{ fakeServer }

func newFakeGemini(t *testing.T, s script) *fakeGemini {
	t.Helper()
	f := &fakeGemini{}
	f.start(t, s, f.answer, (*apiRequest).geminiSummary)
	return f
}

func (f *fakeGemini) answer(w http.ResponseWriter, r *http.Request, body []byte, rec *apiRequest) {
	_, method, _ := strings.Cut(r.URL.Path, ":")
	if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/v1beta/models/") {
		http.Error(w, `{"error":{"code":404,"message":"e2e: not served","status":"NOT_FOUND"}}`, http.StatusNotFound)
		return
	}
	if method == "countTokens" {
		writeJSON(w, map[string]any{"totalTokens": 100})
		return
	}
	var req geminiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"error":{"code":400,"message":"e2e: body is not JSON","status":"INVALID_ARGUMENT"}}`, http.StatusBadRequest)
		return
	}
	rec.Main = f.isMain(&req)
	var part map[string]any
	switch {
	case !rec.Main:
		// Gemini CLI's side requests (next-speaker check, loop
		// detection, …) ask for JSON: one that ends the turn.
		part = map[string]any{"text": `{"reasoning": "e2e side answer", "next_speaker": "user"}`}
		rec.Answer = "side JSON"
	case f.script.Command != "" && req.functionResponse(geminiShellTool) == nil:
		part = map[string]any{"functionCall": map[string]any{
			"id": scriptedCallID, "name": geminiShellTool,
			"args": map[string]any{"command": f.script.Command, "description": "e2e scripted command"},
		}}
		rec.Answer = geminiShellTool + " " + f.script.Command
	default:
		part = map[string]any{"text": "done"}
		rec.Answer = "text done"
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": []any{part}},
			"finishReason": "STOP", "index": 0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 100, "candidatesTokenCount": 5, "totalTokenCount": 105},
		"modelVersion":  "gemini-2.5-flash",
	}
	if method != "streamGenerateContent" {
		writeJSON(w, resp)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	b, _ := json.Marshal(resp)
	fmt.Fprintf(w, "data: %s\r\n\r\n", b)
	flush(w)
}

// isMain tells the main conversation from side requests: it offers the
// shell tool and a user turn carries the script's prompt.
func (f *fakeGemini) isMain(req *geminiRequest) bool {
	hasShell := false
	for _, tool := range req.Tools {
		for _, fd := range tool.FunctionDeclarations {
			hasShell = hasShell || fd.Name == geminiShellTool
		}
	}
	if !hasShell {
		return false
	}
	for _, c := range req.Contents {
		if c.Role == "user" && bytes.Contains(c.Parts, []byte(f.script.Prompt)) {
			return true
		}
	}
	return false
}

// geminiRequest is the part of a GenerateContentRequest the fake reads.
type geminiRequest struct {
	Contents []struct {
		Role  string          `json:"role"`
		Parts json.RawMessage `json:"parts"`
	} `json:"contents"`
	Tools []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
}

// geminiPart is one part of a turn, as far as the fake reads it.
type geminiPart struct {
	Text             string `json:"text"`
	FunctionResponse *struct {
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
}

// functionResponse returns the raw response of the last functionResponse
// part for the named function, or nil.
func (req *geminiRequest) functionResponse(name string) json.RawMessage {
	var found json.RawMessage
	for _, c := range req.Contents {
		var parts []geminiPart
		if json.Unmarshal(c.Parts, &parts) != nil {
			continue
		}
		for _, p := range parts {
			if p.FunctionResponse != nil && p.FunctionResponse.Name == name {
				found = p.FunctionResponse.Response
			}
		}
	}
	return found
}

// geminiSummary says in one line what a Gemini API request was and what
// it got.
func (r *apiRequest) geminiSummary() string {
	return r.describe("no scripted answer", func(body []byte) string {
		var req geminiRequest
		_ = json.Unmarshal(body, &req)
		return fmt.Sprintf("%d turns, %d tool groups", len(req.Contents), len(req.Tools))
	})
}
