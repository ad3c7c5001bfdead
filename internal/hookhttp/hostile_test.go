package hookhttp

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Attack: a hostile or broken server. A gzip reply that inflates to 16
// MiB (net/http asks for gzip and inflates it itself), a body that never
// ends, and a reply dripped a byte at a time past the timeout: each is
// bounded — the first two at the cap (what is kept is marked cut, which a
// guard's reading refuses when the cut falls inside a JSON object), the
// last by the timeout, which bounds the whole post, body included, not
// only the wait for the status line.
func TestRunBoundsAHostileServer(t *testing.T) {
	var bomb bytes.Buffer
	zw := gzip.NewWriter(&bomb)
	zero := make([]byte, 1<<20)
	for range 16 {
		zw.Write(zero)
	}
	zw.Close()
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/bomb":
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(bomb.Bytes())
		case "/endless":
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := w.Write(zero[:4096]); err != nil {
					return
				}
			}
		case "/drip":
			w.WriteHeader(http.StatusOK)
			for {
				select {
				case <-stop:
					return
				case <-time.After(10 * time.Millisecond):
				}
				if _, err := w.Write([]byte(" ")); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		}
	}))
	defer srv.Close()
	defer close(stop)
	const limit = 64 << 10
	for _, path := range []string{"/bomb", "/endless"} {
		res := Run(context.Background(), Spec{URL: srv.URL + path, Body: []byte(`{}`), Timeout: time.Minute, Cap: limit})
		if !res.Exited || !res.StdoutTruncated || len(res.Stdout) != limit {
			t.Errorf("%s: exited %v, truncated %v, %d bytes kept (spawn %q); want %d bytes, cut", path, res.Exited, res.StdoutTruncated, len(res.Stdout), res.SpawnError, limit)
		}
	}
	res := Run(context.Background(), Spec{URL: srv.URL + "/drip", Body: []byte(`{}`), Timeout: 300 * time.Millisecond})
	if !res.TimedOut || res.Exited {
		t.Errorf("/drip: %+v, want a timeout", res)
	}
}

// Attack: a server that answers with megabytes of headers. The output cap
// bounds a body only; net/http keeps up to 10 MiB of a reply's headers
// whole, for every post serve makes at once, before it reads a byte of
// the body. Past maxHeaderBytes the post fails (a guard then fails
// closed), naming why.
func TestRunBoundsTheHeaders(t *testing.T) {
	pad := strings.Repeat("a", 1000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := 16 // 16 KB: well under the bound
		if r.URL.Path == "/huge" {
			n = 2000 // 2 MB
		}
		for i := range n {
			w.Header().Set("X-Pad-"+strconv.Itoa(i), pad)
		}
		io.WriteString(w, `{}`)
	}))
	defer srv.Close()
	if res := Run(context.Background(), Spec{URL: srv.URL + "/some", Body: []byte(`{}`), Timeout: time.Minute}); !res.Exited || string(res.Stdout) != `{}` {
		t.Errorf("16 KB of headers: %+v, want the reply", res)
	}
	res := Run(context.Background(), Spec{URL: srv.URL + "/huge", Body: []byte(`{}`), Timeout: time.Minute})
	if res.Exited || !strings.Contains(res.SpawnError, "headers exceeded") {
		t.Errorf("2 MB of headers: %+v, want a failed post naming them", res)
	}
}
