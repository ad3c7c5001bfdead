package hookhttp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
)

// Header values name variables as Claude Code's do: $NAME and ${NAME},
// NAME a letter or _ then letters, digits and _. Anything else that has a
// $ is text, kept as written: $$, $1 and $* are not a shell's values
// (Go's os.Expand, as a shell, emptied them: "5$$ off" became "5 off"),
// and ${NAME:-default} is no default. $$ is no escape either: in
// "pa$$word" the second $ starts $word.
func TestExpandAllowedLikeClaudeCode(t *testing.T) {
	env := []string{"TOKEN=new", "SECRET=s3cret"}
	for _, tc := range []struct{ in, want string }{
		{"pa$$word", "pa$"},
		{"5$$ off", "5$$ off"},
		{"$$", "$$"},
		{"$$TOKEN", "$new"},
		{"$1x", "$1x"},
		{"$*", "$*"},
		{"cost: 5$", "cost: 5$"},
		{"${TOKEN:-d}", "${TOKEN:-d}"},
		{"${}", "${}"},
		{"${TOKEN", "${TOKEN"},
		{"$TOKEN$TOKEN", "newnew"},
		{"${TOKEN}x", "newx"},
		{"$TOKENx", ""}, // the name is TOKENx, not allowed
		{"$TOKEN-x", "new-x"},
		{"$SECRET ${SECRET}", " "},
		{"$_T9", ""},
	} {
		if got := expandAllowed(tc.in, env, []string{"TOKEN", "TOKEN-x"}); got != tc.want {
			t.Errorf("expandAllowed(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	var names []string
	HeaderVariables("$A ${B} $$ $1 ${C:-x} $A", func(name string) { names = append(names, name) })
	if strings.Join(names, ",") != "A,B,A" {
		t.Errorf("HeaderVariables: %q, want A, B, A", names)
	}
}

// Attack: an allowed variable whose value holds CR LF (set by whoever
// sets the environment) must not add a header of its own to the post; the
// post fails instead, and its error does not quote the value.
func TestRunHeaderValueCannotInjectHeaders(t *testing.T) {
	var injected atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Injected") != "" {
			injected.Add(1)
		}
	}))
	defer srv.Close()
	for _, v := range []string{"a\r\nX-Injected: 1", "a\nX-Injected: 1", "a\rX-Injected: 1"} {
		res := Run(context.Background(), Spec{URL: srv.URL, Body: []byte(`{}`), Timeout: time.Minute,
			Headers: map[string]string{"Authorization": "Bearer $TOKEN"}, AllowedEnvVars: []string{"TOKEN"}, Env: []string{"TOKEN=" + v}})
		if res.SpawnError == "" || strings.Contains(res.SpawnError, "X-Injected") {
			t.Errorf("%q: %+v, want a failed post that does not quote the value", v, res)
		}
	}
	if injected.Load() != 0 {
		t.Error("a header was injected")
	}
}

// FuzzExpandHeader: whatever a header value says, filling it in names
// only well-formed variables, and with every variable empty it never
// grows.
func FuzzExpandHeader(f *testing.F) {
	for _, s := range []string{"Bearer $TOKEN", "${A}", "$$", "${A:-b}", "$", "${", "a$1$_b${c}d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := expandHeader(s, func(name string) string {
			if !shquote.IsName(name) {
				t.Fatalf("%q: variable %q", s, name)
			}
			return ""
		})
		if len(got) > len(s) {
			t.Fatalf("%q grew to %q", s, got)
		}
	})
}
