package protocol

import (
	"strings"
	"testing"
	"unicode"
)

func httpReply(t testing.TB, status int, ct, body string, failClosed bool) Reply {
	ev, ok := Lookup("PreToolUse")
	if !ok {
		t.Fatal("no PreToolUse")
	}
	return Reply{Dialect: Claude, Event: ev, Command: "https://guard.example/x", Stdout: []byte(body),
		FailClosed: failClosed, HTTP: &HTTPAnswer{Status: status, ContentType: ct}}
}

// What a fail_closed http guard's 2xx body must be: empty, or a JSON
// object. Anything else is no reply and blocks, naming status and type.
func TestNotAnHTTPReply(t *testing.T) {
	for _, c := range []struct {
		status     int
		ct, body   string
		failClosed bool
		block      string // "" for none; else a part of the message
	}{
		{200, "text/html", "<html>Service Unavailable</html>", true, `HTTP 200 answer ("text/html")`},
		{204, "", "\n", true, ""},
		{200, "text/plain", "ok", true, `"ok"`},
		{200, "", "ok", true, "(no content type)"},
		{200, "application/json", "[]", true, `"[]"`},
		{200, "application/json", "null", true, `"null"`},
		{200, "application/json", "42", true, `"42"`},
		{201, "text/html", "<p>\n<b>line two</b>", true, `"<p>"`},
		{299, "text/plain", "\ufeff ok \u2028", true, `"ok"`},
		// Empty, blank and JSON objects are replies (read by the dialect).
		{200, "text/html", "", true, ""},
		{200, "text/html", " \t\r\n", true, ""},
		{200, "text/html", `{}`, true, ""},
		{200, "text/plain", ` {"decision":"approve"} `, true, ""},
		// An object cut or malformed: the dialect and CutReply refuse it.
		{200, "application/json", `{"decision":`, true, ""},
		// Not 2xx: the status is already a failed hook's (exit 1).
		{500, "text/html", "<html>", true, ""},
		// Not fail_closed: as before.
		{200, "text/html", "<html>", false, ""},
	} {
		r := httpReply(t, c.status, c.ct, c.body, c.failClosed)
		if c.status > 299 {
			r.ExitCode = 1
		}
		got, _ := NotAnHTTPReply(r, true, nil, "")
		switch {
		case c.block == "" && got != nil:
			t.Errorf("%d %q %q fail_closed=%v: %+v, want none", c.status, c.ct, c.body, c.failClosed, got)
		case c.block != "" && (got == nil || got.Decision != DecisionBlock || !strings.Contains(got.Message, c.block)):
			t.Errorf("%d %q %q: %+v, want a block saying %q", c.status, c.ct, c.body, got, c.block)
		}
	}
	// Not on an event the entry refuses, not for a process's reply, and a
	// block the dialect read stays its own.
	r := httpReply(t, 200, "text/html", "<html>", true)
	if got, _ := NotAnHTTPReply(r, false, nil, ""); got != nil {
		t.Errorf("an event it does not refuse: %+v", got)
	}
	r.HTTP = nil
	if got, _ := NotAnHTTPReply(r, true, nil, ""); got != nil {
		t.Errorf("a process's text: %+v", got)
	}
	r.HTTP = &HTTPAnswer{Status: 200}
	own := &Contribution{Decision: DecisionBlock, Message: "mine"}
	if got, _ := NotAnHTTPReply(r, true, own, ""); got != own {
		t.Errorf("the dialect's block: %+v", got)
	}
}

// FuzzNotAnHTTPReply: whatever a server answers, a block's reason is one
// line of at most a few hundred bytes with no control character, and a
// body that is empty or a JSON object is never refused here.
func FuzzNotAnHTTPReply(f *testing.F) {
	f.Add(200, "text/html\x1b[2J", "<html>\x1b]0;x\x07</html>")
	f.Add(200, "", "{}")
	f.Add(204, "application/json", `["a"]`)
	f.Add(200, "text/plain", "\xff\xfe ok\n\r")
	f.Fuzz(func(t *testing.T, status int, ct, body string) {
		got, _ := NotAnHTTPReply(httpReply(t, status, ct, body, true), true, nil, "")
		if got == nil {
			return
		}
		if status < 200 || status > 299 {
			t.Fatalf("status %d refused: %q", status, got.Message)
		}
		if JSTrim(toValidUTF8([]byte(body))) == "" || strings.HasPrefix(JSTrim(toValidUTF8([]byte(body))), "{") {
			t.Fatalf("body %q refused: %q", body, got.Message)
		}
		if len(got.Message) > 1200 || strings.IndexFunc(got.Message, func(r rune) bool { return unicode.IsControl(r) || r == '\u202e' }) >= 0 {
			t.Fatalf("reason not cut or not terminal-safe: %q", got.Message)
		}
	})
}
