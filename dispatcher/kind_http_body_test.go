package dispatcher

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// bodyServer answers every post with 200, the content type and the body of
// its path's row: what a proxy, a captive portal or a load balancer puts
// in front of a guard's server answers with.
func bodyServer(t *testing.T) string {
	rows := map[string][2]string{
		"/html":    {"text/html; charset=utf-8", "<html><body><h1>Service Unavailable</h1>\n<p>try later</p></body></html>\n"},
		"/text":    {"text/plain", "ok\n"},
		"/array":   {"application/json", `["block"]`},
		"/string":  {"application/json", `"block"`},
		"/none":    {"", "Service Unavailable"},
		"/hostile": {"text/html\u202e\t" + strings.Repeat("x", 500), "\x1b[2J\x1b]0;pwned\x07down " + strings.Repeat("y", 500)},
		// net/http refuses this answer, quoting the header line whole.
		"/badheader": {"text/html\x1b[2J" + strings.Repeat("x", 5000), "ok"},
		"/empty":     {"text/html", ""},
		"/blank":     {"text/html", " \r\n\t"},
		"/object":    {"application/json", `{}`},
		"/blocks":    {"application/json", `{"decision":"block","reason":"no"}`},
		"/objtext":   {"text/plain", ` {"continue":true} `},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		row := rows[r.URL.Path]
		w.Header()["Content-Type"] = []string{row[0]}
		_, _ = io.WriteString(w, row[1])
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func httpGuardSettings(event, url string, failClosed bool) string {
	onFailure := ""
	if failClosed {
		onFailure = `,"onFailure":"block"`
	}
	return `{"hooks":{"` + event + `":[{"hooks":[{"type":"http","url":"` + url + `"` + onFailure + `}]}]}}`
}

// Attack: a fail_closed http guard behind a proxy, captive portal or load
// balancer that answers 200 with a page of its own. The old code read the
// 2xx body as a command's stdout, and text on exit 0 is a success: the
// guard's server was never asked, and the tool call went through with no
// objection. Under fail_closed, on an event the guard refuses, a 2xx body
// that is not empty must be a JSON object; the block names the status and
// the content type, cut and escaped, since both come from whoever answered.
func TestHTTPFailClosedBodyIsNoReply(t *testing.T) {
	url := bodyServer(t)
	for _, c := range []struct {
		event, path string
		failClosed  bool
		block       bool
		says        []string
	}{
		{"PreToolUse", "/html", true, true, []string{"HTTP 200", `"text/html; charset=utf-8"`, "<html>"}},
		{"PreToolUse", "/text", true, true, []string{"HTTP 200", `"text/plain"`, `"ok"`}},
		{"PreToolUse", "/array", true, true, []string{`"application/json"`}},
		{"PreToolUse", "/string", true, true, []string{`"application/json"`}},
		{"PreToolUse", "/none", true, true, []string{"no content type"}},
		{"PreToolUse", "/hostile", true, true, []string{`\u202e\t`, `\x1b[2J`, "…"}},
		{"PreToolUse", "/badheader", true, true, []string{"malformed MIME header", "…"}},
		{"UserPromptSubmit", "/html", true, true, []string{"text/html"}},
		// An empty body, and a JSON object, keep their meaning.
		{"PreToolUse", "/empty", true, false, nil},
		{"PreToolUse", "/blank", true, false, nil},
		{"PreToolUse", "/object", true, false, nil},
		{"PreToolUse", "/objtext", true, false, nil},
		{"PreToolUse", "/blocks", true, true, []string{"no"}},
		// Not fail_closed: as before, a page is a success with nothing
		// to say.
		{"PreToolUse", "/html", false, false, nil},
		{"PreToolUse", "/text", false, false, nil},
	} {
		d := settingsDispatcher(t, httpGuardSettings(c.event, url+c.path, c.failClosed), Options{})
		ev := map[string]string{"PreToolUse": "pre_tool_call", "UserPromptSubmit": "pre_llm_call"}[c.event]
		o := dispatch(t, d, ev, map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"}, "user_message": "hi"})
		if got := o.Decision == protocol.DecisionBlock; got != c.block {
			t.Errorf("%s %s fail_closed=%v: decision %q %q, want block=%v (%+v)", c.event, c.path, c.failClosed, o.Decision, o.Message, c.block, o.Hooks)
			continue
		}
		for _, s := range c.says {
			if !strings.Contains(o.Message, s) {
				t.Errorf("%s %s: message %q does not say %q", c.event, c.path, o.Message, s)
			}
		}
		if strings.ContainsAny(o.Message, "\x1b\x07") || len(o.Message) > 700 {
			t.Errorf("%s %s: message not cut or not terminal-safe (%d bytes): %q", c.event, c.path, len(o.Message), o.Message)
		}
	}
}
