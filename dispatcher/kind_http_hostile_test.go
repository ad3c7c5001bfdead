package dispatcher

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/hookproc"
	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// hostileServer answers by path as a hostile or broken server would: a
// gzip bomb (16 MiB of zeros, which net/http inflates itself), a body that
// never ends, a status then a body dripped forever, a body that says it is
// gzip and is not, and a reply with its decision named twice.
func hostileServer(t *testing.T) string {
	var bomb bytes.Buffer
	zw := gzip.NewWriter(&bomb)
	zero := make([]byte, 1<<20)
	for range 16 {
		_, _ = zw.Write(zero)
	}
	_ = zw.Close()
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		switch strings.TrimPrefix(r.URL.Path, "/v1/data") {
		case "/bomb":
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write(bomb.Bytes())
		case "/notgzip":
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = io.WriteString(w, `{"result":{"decision":"allow"}}`)
		case "/twice":
			_, _ = io.WriteString(w, `{"result":{"decision":"allow"},"decision":"approve","decision":"block","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecision":"allow"}}`)
		case "/endless":
			for r.Context().Err() == nil {
				if _, err := w.Write(zero[:4096]); err != nil {
					return
				}
			}
		case "/drip":
			_, _ = io.WriteString(w, `{"result":{"decision":"allow","message":"`)
			for {
				w.(http.Flusher).Flush()
				select {
				case <-stop:
					return
				case <-r.Context().Done():
					return
				case <-time.After(10 * time.Millisecond):
				}
				if _, err := io.WriteString(w, "a"); err != nil {
					return
				}
			}
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stop) })
	return srv.URL + "/v1/data"
}

// Attack: a hostile or broken server behind a fail_closed http guard or
// opa: entry. Each answer is bounded — in memory by the output cap, in
// time by the entry's timeout (dispatch's hang guard is far above it) —
// and none lets the call through: the guard blocks.
func TestHTTPAndOPAHostileBodiesFailClosed(t *testing.T) {
	url := hostileServer(t)
	chunks := proctest.DyingServer(t, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
	for _, path := range []string{"/bomb", "/notgzip", "/twice", "/endless", "/drip", "chunked"} {
		u := url + path
		if path == "chunked" {
			u = chunks + "/v1/data/x"
		}
		d := settingsDispatcher(t, `{"hooks":{"PreToolUse":[{"hooks":[{"type":"http","url":"`+u+`","onFailure":"block","timeout":1}]}]}}`,
			Options{OutputCap: 64 << 10})
		o := dispatch(t, d, "pre_tool_call", lsFields)
		if o.Decision != protocol.DecisionBlock {
			t.Errorf("http %s: %s %q (%+v), want a block", path, o.Decision, o.Message, o.Hooks)
		}
		o = dispatch(t, dispatcherFor(t, opaYAML("pre_tool_call", u, true, "\n      timeout: 1")), "pre_tool_call", lsFields)
		if o.Decision != protocol.DecisionBlock || !strings.Contains(o.Message, "failed closed") {
			t.Errorf("opa %s: %s %q (%+v), want a block", path, o.Decision, o.Message, o.Hooks)
		}
	}
}

// Attack: an OPA reply whose result is of a type the policy cannot have
// meant, or a decision spelt in another case, nested, or named twice
// (also through an escape): each is a failed hook, never a decision.
func TestOPAResultOfTheWrongType(t *testing.T) {
	ev, _ := protocol.Lookup("pre_tool_call")
	for _, body := range []string{
		`{"result":["block"]}`,
		`{"result":"allow"}`,
		`{"result":0}`,
		`{"result":{"decision":"BLOCK"}}`,
		`{"result":{"decision":"Allow"}}`,
		`{"result":{"decision":{"decision":"allow"}}}`,
		`{"result":{"decision":["allow"]}}`,
		`{"result":{"decision":true}}`,
		`{"result":{"decision":"allow\u0000"}}`,
		`{"result":{"decision":"allow","decisio\u006e":"block"}}`,
		`{"result":{"decision":"block"},"result":{"decision":"allow"}}`,
		`{"result":{"decision":"block"},"r\u0065sult":{"decision":"allow"}}`,
		`{"result":{"decision":"allow"}}garbage`,
	} {
		c, err := opaDecision(ev, hookproc.Result{Exited: true, Stdout: []byte(body)})
		if err == nil {
			t.Errorf("%s: read as %+v, want an error", body, c)
		}
	}
}
