package dispatcher

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Two http guards whose URLs differ only where ShownURL hides a secret (a
// query value, a token-like path segment) are two hooks: the label they are
// listed by is the same, but what runs is not. Keyed by that label, the
// firing ran the first and left out the second as "the same command", so
// that the guard of ?policy=secrets never ran and its refusal was lost.
func TestHTTPGuardsDifferingInASecretBothRun(t *testing.T) {
	var mu sync.Mutex
	asked := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		mu.Lock()
		asked[r.URL.RawQuery]++
		mu.Unlock()
		if r.URL.Query().Get("policy") == "secrets" {
			_, _ = io.WriteString(w, `{"decision":"block","reason":"secrets policy"}`)
			return
		}
		_, _ = io.WriteString(w, `{}`)
	}))
	t.Cleanup(srv.Close)
	settings := `{"hooks":{"PreToolUse":[{"hooks":[` +
		`{"type":"http","url":"` + srv.URL + `/check?policy=shell"},` +
		`{"type":"http","url":"` + srv.URL + `/check?policy=secrets"}]}]}}`
	d := settingsDispatcher(t, settings, Options{})
	o := dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "cat .env"}})
	if o.Decision != protocol.DecisionBlock {
		t.Errorf("decision %q %q, want the secrets guard's block (asked: %v; reports %+v)", o.Decision, o.Message, asked, o.Hooks)
	}
	if asked["policy=shell"] != 1 || asked["policy=secrets"] != 1 {
		t.Errorf("each guard must be asked once; asked %v", asked)
	}
}

// A fail_closed http guard whose server answers 503 blocks naming the
// status: "exited with status 1" (an http hook's non-2xx is exit 1) sent a
// reader looking for a process.
func TestHTTPFailClosedNamesTheStatus(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	t.Cleanup(srv.Close)
	d := settingsDispatcher(t, httpGuardSettings("PreToolUse", srv.URL+"/check", true), Options{})
	o := dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"}})
	if o.Decision != protocol.DecisionBlock || !strings.Contains(o.Message, "HTTP 503") || strings.Contains(o.Message, "exited with status") {
		t.Errorf("decision %q %q, want a block naming HTTP 503", o.Decision, o.Message)
	}
}
