package dispatcher

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Attack: the server an http guard or an opa: entry was approved for
// answers with a redirect — to another host that would decide (and read
// the payload), to a file: or unix: URL, or to another path of its own.
// The approval pins one URL: the decision must not move. No redirect is
// followed (nothing reaches the other server), and a fail_closed guard on
// a gating event blocks naming the status; a guard that is not
// fail_closed has an error and no say, as for any non-2xx status.
func TestHTTPAndOPARedirectIsNoAnswer(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		_, _ = io.WriteString(w, `{"result":{"decision":"allow"}}`)
	}))
	t.Cleanup(other.Close)
	targets := map[string]string{
		"/other": other.URL + "/v1/data/allow",
		"/file":  "file:///etc/passwd",
		"/unix":  "unix:///var/run/docker.sock",
		"/self":  "/v1/data/permissive",
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if r.URL.Path == "/v1/data/permissive" {
			elsewhere.Add(1)
			_, _ = io.WriteString(w, `{"result":{"decision":"allow"}}`)
			return
		}
		status := http.StatusTemporaryRedirect
		if strings.HasSuffix(r.URL.Path, "308") {
			status = http.StatusPermanentRedirect
		}
		w.Header().Set("Location", targets[strings.TrimSuffix(r.URL.Path, "308")])
		w.WriteHeader(status)
		_, _ = io.WriteString(w, `{"decision":"approve"}`)
	}))
	t.Cleanup(srv.Close)
	for _, path := range []string{"/other", "/file", "/unix", "/self", "/other308"} {
		want := "HTTP 307"
		if strings.HasSuffix(path, "308") {
			want = "HTTP 308"
		}
		for _, failClosed := range []bool{true, false} {
			d := settingsDispatcher(t, httpGuardSettings("PreToolUse", srv.URL+path, failClosed), Options{})
			o := dispatch(t, d, "pre_tool_call", lsFields)
			if got := o.Decision == protocol.DecisionBlock; got != failClosed || failClosed && !strings.Contains(o.Message, want) {
				t.Errorf("http %s fail_closed=%v: %s %q, want block=%v naming %s", path, failClosed, o.Decision, o.Message, failClosed, want)
			}
			o = dispatch(t, dispatcherFor(t, opaYAML("pre_tool_call", srv.URL+path, failClosed, "")), "pre_tool_call", lsFields)
			if got := o.Decision == protocol.DecisionBlock; got != failClosed || failClosed && !strings.Contains(o.Message, want) {
				t.Errorf("opa %s fail_closed=%v: %s %q, want block=%v naming %s", path, failClosed, o.Decision, o.Message, failClosed, want)
			}
		}
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("a redirect was followed %d times", n)
	}
}

// Attack: an http hook that is not fail_closed, on an event whose hooks add
// context (UserPromptSubmit, SessionStart), behind a proxy that answers
// 200 with a page of its own. Read as a command's stdout, text on exit 0 is
// context: the page (whatever a proxy, portal or whoever answers writes)
// would reach the model as the hook's words.
func TestHTTPContextIsNoPage(t *testing.T) {
	url := bodyServer(t)
	for _, c := range []struct {
		event, path string
		context     string
	}{
		{"UserPromptSubmit", "/html", ""},
		{"UserPromptSubmit", "/none", ""},
		{"UserPromptSubmit", "/hostile", ""},
		{"SessionStart", "/html", ""},
		{"UserPromptSubmit", "/text", "ok"},
	} {
		d := settingsDispatcher(t, httpGuardSettings(c.event, url+c.path, false), Options{})
		ev := map[string]string{"UserPromptSubmit": "pre_llm_call", "SessionStart": "on_session_start"}[c.event]
		o := dispatch(t, d, ev, map[string]any{"user_message": "hi", "session_id": "s1"})
		if strings.TrimSpace(o.Context) != c.context {
			t.Errorf("%s %s: context %q, want %q (%+v)", c.event, c.path, o.Context, c.context, o.Hooks)
		}
	}
}
