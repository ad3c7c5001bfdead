//go:build linux

package attacktest

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// The fail-closed matrix's rows for http entries (Claude Code's type:
// http handler, onFailure: block): for every caller of every gating event
// with a Claude Code name (matrixCallers: a new agent or event has its
// rows by construction), a guard whose server is down, answers an error
// status, answers what is no JSON object or one naming a member twice,
// or answers 2xx with a body that is no reply (an HTML error page, text)
// makes hook AGENT EVENT answer with the agent's own refusal, and the
// journal holds the refused firing. Beside the command rows of
// failclosed_matrix_test.go and the opa rows of failclosed_opa_test.go.
func TestFailClosedMatrixHTTP(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		switch r.URL.Path {
		case "/error":
			http.Error(w, `{"decision":"approve"}`, http.StatusInternalServerError)
		case "/garbage":
			_, _ = io.WriteString(w, `{ this is not a reply`)
		case "/ambiguous":
			_, _ = io.WriteString(w, `{"decision":"block","reason":"no","decision":"approve"}`)
		case "/html":
			// A proxy's or load balancer's error page, served with 200.
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = io.WriteString(w, "<html><body><h1>Service Unavailable</h1></body></html>\n")
		case "/text":
			// Text is no reply under fail_closed (docs/config.md).
			w.Header().Set("Content-Type", "text/plain")
			_, _ = io.WriteString(w, "ok\n")
		}
	}))
	t.Cleanup(srv.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String() + "/hook"
	ln.Close() // nothing listens there now

	callers := matrixCallers(agents.All())
	for _, f := range []matrixFailure{
		{name: "http-server-down", unapproved: true, claude: true, after: httpGuard(down)},
		{name: "http-error-status", unapproved: true, claude: true, after: httpGuard(srv.URL + "/error")},
		{name: "http-garbage", unapproved: true, claude: true, after: httpGuard(srv.URL + "/garbage")},
		{name: "http-ambiguous", unapproved: true, claude: true, after: httpGuard(srv.URL + "/ambiguous")},
		{name: "http-html-page", unapproved: true, claude: true, after: httpGuard(srv.URL + "/html"), reason: "text/html"},
		{name: "http-plain-text", unapproved: true, claude: true, after: httpGuard(srv.URL + "/text"), reason: "text/plain"},
	} {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			for _, c := range callers {
				t.Run(c.String(), func(t *testing.T) {
					t.Parallel()
					runMatrixRow(t, c, f)
				})
			}
		})
	}
}

// httpGuard turns the matrix's guard (a Claude-dialect entry: its event
// is a Claude Code name) into an http handler of a Claude settings file
// the config names, failing closed, posting to url, and approves it (by
// its URL, as a person would with approve --all).
func httpGuard(url string) func(e *env) {
	return func(e *env) {
		data, err := os.ReadFile(e.path("home/config.yaml"))
		must(e.t, err)
		event, _, _ := strings.Cut(strings.TrimPrefix(string(data), "hooks:\n  "), ":")
		e.write("home/settings.json", `{"hooks": {"`+event+`": [{"hooks": [{"type": "http", "url": "`+url+`", "onFailure": "block"}]}]}}`, 0o644)
		e.write("home/config.yaml", "hooks: {}\nclaude_settings: [settings.json]\n", 0o644)
		e.run("", "approve", "--all")
	}
}
