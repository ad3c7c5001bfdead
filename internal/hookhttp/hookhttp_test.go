package hookhttp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

// The approval is of one URL: a redirect is the reply (a non-2xx status),
// never followed with the payload.
func TestRunFollowsNoRedirect(t *testing.T) {
	followed := make(chan struct{}, 1)
	elsewhere := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { followed <- struct{}{} }))
	defer elsewhere.Close()
	srv := httptest.NewServer(http.RedirectHandler(elsewhere.URL, http.StatusTemporaryRedirect))
	defer srv.Close()
	res := Run(context.Background(), Spec{URL: srv.URL, Body: []byte(`{}`), Timeout: time.Minute})
	if !res.Exited || res.ExitCode != 1 || !strings.HasPrefix(string(res.Stderr), "HTTP 307 from "+srv.URL) {
		t.Fatalf("redirect: %+v", res)
	}
	select {
	case <-followed:
		t.Fatal("the redirect was followed")
	default:
	}
}

func TestExpandAllowed(t *testing.T) {
	env := []string{"TOKEN=old", "SECRET=s3cret", "TOKEN=new"}
	for _, tc := range []struct{ in, want string }{
		{"Bearer $TOKEN", "Bearer new"}, // the last value wins, as in a process environment
		{"Bearer ${TOKEN}", "Bearer new"},
		{"$SECRET", ""}, // not allowed: empty, never sent
		{"${MISSING}x", "x"},
		{"plain", "plain"},
	} {
		if got := expandAllowed(tc.in, env, []string{"TOKEN", "MISSING"}); got != tc.want {
			t.Errorf("expandAllowed(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// A post that gets no reply is a spawn error named by what posted it: an
// http hook's by default, another kind's (an OPA query) by its Name.
func TestRunNamesItsFailure(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there now
	for name, want := range map[string]string{"": "http hook: Post ", "opa": "opa: Post "} {
		res := Run(context.Background(), Spec{URL: url, Body: []byte(`{}`), Timeout: time.Minute, Name: name})
		if !strings.HasPrefix(res.SpawnError, want) || res.Exited {
			t.Errorf("Name %q: %+v, want a spawn error starting %q", name, res, want)
		}
	}
}

// A URL's user information never reaches a reply's error: that error is
// a failed hook's, shown to the agent (and its model) when a fail_closed
// guard blocks, and written to the journal. A password or a token passed
// as the user name; the caller's Shown, else the URL without it.
func TestRunErrorsHideUserInformation(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "down", http.StatusInternalServerError)
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	cases := []struct {
		user, shown, want string
	}{
		{"team:s3cret@", "http://team:xxxxx@" + host, "http://team:xxxxx@" + host},
		{"s3cret@", "http://xxxxx@" + host, "http://xxxxx@" + host},
		{"s3cret@", "", "http://" + host},
		{"team:s3cret@", "", "http://" + host},
	}
	for _, c := range cases {
		u := "http://" + c.user + host
		res := Run(context.Background(), Spec{URL: u, Shown: c.shown, Body: []byte(`{}`), Timeout: time.Minute, Name: "opa"})
		if res.ExitCode != 1 || strings.Contains(string(res.Stderr), "s3cret") || !strings.Contains(string(res.Stderr), "HTTP 500 from "+c.want) {
			t.Errorf("%s shown as %q: 500 reply: %+v (stderr %q)", u, c.shown, res, res.Stderr)
		}
	}
	srv.Close()
	for _, c := range cases {
		u := "http://" + c.user + host
		res := Run(context.Background(), Spec{URL: u, Shown: c.shown, Body: []byte(`{}`), Timeout: time.Minute, Name: "opa"})
		if res.SpawnError == "" || strings.Contains(res.SpawnError, "s3cret") || !strings.Contains(res.SpawnError, c.want) {
			t.Errorf("%s shown as %q: no reply: %+v", u, c.shown, res)
		}
	}
}

// A reply cut short — the server died after its status line, or part way
// through the body its framing announced — is no answer: it fails the
// post, so that a fail_closed guard blocks, rather than be read as a
// complete reply (an empty 200 is "no objection").
func TestRunCutReplyFails(t *testing.T) {
	for name, resp := range map[string]string{
		"no body":        "HTTP/1.1 200 OK\r\nContent-Length: 300\r\n\r\n",
		"half a body":    "HTTP/1.1 200 OK\r\nContent-Length: 300\r\n\r\nplease",
		"unended chunks": "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nplease\r\n",
	} {
		res := Run(context.Background(), Spec{URL: proctest.DyingServer(t, resp) + "/hook", Body: []byte(`{}`), Timeout: time.Minute})
		if res.SpawnError == "" || res.Exited || !strings.Contains(res.SpawnError, "cut short") {
			t.Errorf("%s: %+v (stdout %q), want a failed post", name, res, res.Stdout)
		}
	}
	// A reply that ends where its framing says is whole, read to the end
	// of the connection included.
	for name, resp := range map[string]string{
		"length":   "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nplease",
		"to close": "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nplease",
	} {
		res := Run(context.Background(), Spec{URL: proctest.DyingServer(t, resp) + "/hook", Body: []byte(`{}`), Timeout: time.Minute})
		if res.SpawnError != "" || !res.Exited || string(res.Stdout) != "please" {
			t.Errorf("%s: %+v (stdout %q), want the reply", name, res, res.Stdout)
		}
	}
}

// Post says what an answer said of itself — its status and its
// Content-Type as sent, whatever the status — and nothing when no whole
// answer came (no connection, or a reply cut short): a caller that reads
// a 2xx body by what it is (a fail_closed guard's) must not take a cut
// reply's header for an answer.
func TestPostSaysWhatTheAnswerSaidOfItself(t *testing.T) {
	for name, c := range map[string]struct {
		resp, ct string
		status   int
	}{
		"json 200":   {"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}", "application/json", 200},
		"a page 200": {"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 4\r\n\r\n<p/>", "text/html; charset=utf-8", 200},
		"untyped":    {"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}", "", 200},
		"503":        {"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\ndown", "text/plain", 503},
		"cut short":  {"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 300\r\n\r\n{", "", 0},
	} {
		_, status, ct := Post(context.Background(), Spec{URL: proctest.DyingServer(t, c.resp) + "/hook", Body: []byte(`{}`), Timeout: time.Minute})
		if status != c.status || ct != c.ct {
			t.Errorf("%s: status %d, content type %q; want %d, %q", name, status, ct, c.status, c.ct)
		}
	}
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there now
	if res, status, ct := Post(context.Background(), Spec{URL: url, Body: []byte(`{}`), Timeout: time.Minute}); res.SpawnError == "" || status != 0 || ct != "" {
		t.Errorf("no connection: %+v, status %d, content type %q; want a spawn error and no answer", res, status, ct)
	}
}

// A refusal's first line is cut to 200 bytes for the error, never inside
// a character: the error is a fail_closed guard's block message, which
// reaches the agent as JSON text, and half a character there is no text.
func TestRunErrorCutsWholeCharacters(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "x"+strings.Repeat("é", 150), http.StatusInternalServerError)
	}))
	defer srv.Close()
	res := Run(context.Background(), Spec{URL: srv.URL, Body: []byte(`{}`), Timeout: time.Minute})
	text := string(res.Stderr)
	if !utf8.ValidString(text) || !strings.HasSuffix(text, ": x"+strings.Repeat("é", 99)) {
		t.Fatalf("the error %q is not the first 199 bytes of the reply, whole characters", text)
	}
}
