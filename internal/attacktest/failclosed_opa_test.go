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

// The fail-closed matrix's rows for opa: entries (issue 35, item 5): for
// every caller of every gating event (matrixCallers, so a new agent or
// event has its rows by construction), a fail_closed opa: guard whose OPA
// server is down, does not answer in time, answers an error status or
// answers what is no decision makes hook AGENT EVENT answer with the
// agent's own refusal, and the journal holds the refused firing. Kept in
// its own file beside the command rows of failclosed_matrix_test.go.
func TestFailClosedMatrixOPA(t *testing.T) {
	hold := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // never answers: the entry's own timeout ends the post
		case <-r.Context().Done():
		case <-hold:
		}
	}))
	t.Cleanup(slow.Close)
	t.Cleanup(func() { close(hold) })
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/data/error" {
			http.Error(w, `{"code":"internal_error"}`, http.StatusInternalServerError)
			return
		}
		_, _ = io.WriteString(w, `{"result":{"decision":"deny","message":"not a decision of ours"}}`)
	}))
	t.Cleanup(broken.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String() + "/v1/data/x"
	ln.Close() // nothing listens there now

	callers := matrixCallers(agents.All())
	for _, f := range []matrixFailure{
		{name: "opa-server-down", unapproved: true, after: opaGuard(down, "")},
		{name: "opa-timeout", unapproved: true, after: opaGuard(slow.URL+"/v1/data/x", "      timeout: 1\n")},
		{name: "opa-error-status", unapproved: true, after: opaGuard(broken.URL+"/v1/data/error", "")},
		{name: "opa-no-decision", unapproved: true, after: opaGuard(broken.URL+"/v1/data/x", "")},
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

// opaGuard turns the matrix's guard into a fail_closed opa: entry on the
// same event, posting to url, and approves it (by its URL, as a person
// would with approve --all).
func opaGuard(url, more string) func(e *env) {
	return func(e *env) {
		data, err := os.ReadFile(e.path("home/config.yaml"))
		must(e.t, err)
		event, _, _ := strings.Cut(strings.TrimPrefix(string(data), "hooks:\n  "), ":")
		e.write("home/config.yaml", "hooks:\n  "+event+":\n    - opa: "+url+"\n      fail_closed: true\n"+more, 0o644)
		e.run("", "approve", "--all")
	}
}
