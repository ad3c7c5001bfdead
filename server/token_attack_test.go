package server

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// recording is a RoundTripper straight to a handler that remembers the
// proofs it carried: what a process able to watch the loopback interface
// would capture.
type recording struct {
	h    http.Handler
	seen []string
}

func (r *recording) RoundTrip(req *http.Request) (*http.Response, error) {
	r.seen = append(r.seen, req.Header.Get(AuthHeader))
	rec := httptest.NewRecorder()
	r.h.ServeHTTP(rec, req)
	return rec.Result(), nil
}

// Attacks on the token transport's proof, by a local process that can
// reach the port: a proof cut short or lengthened, in capitals, the key's
// own hex, an empty or short nonce; and a proof captured from a client of
// this user (replayed as it was, or on another request) is good once. Each
// is refused with 401 before the handler runs, and nothing of a proof or
// of the key reaches the log.
func TestTokenProofAttacks(t *testing.T) {
	a, ran, ln := tokenServer(t, "block")
	var logs bytes.Buffer
	tl := ln.(*tokenListener)
	h := tokenGuard(ln, slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ran.Add(1) }))
	data, _ := os.ReadFile(a.Address)
	e, err := parseEndpoint(data)
	if err != nil {
		t.Fatal(err)
	}
	status := func(method, path, auth string) int {
		req, _ := http.NewRequest(method, "http://"+e.addr+path, strings.NewReader(`{}`))
		if auth != "" {
			req.Header.Set(AuthHeader, auth)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	// A client of this user, watched.
	rec := &recording{h: h}
	c := &http.Client{Transport: &proving{base: rec, e: e, path: a.Address}}
	resp, err := c.Get("http://" + e.addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	captured := rec.seen[0]
	nonce, sum, _ := strings.Cut(captured, ".")
	fresh := strings.Repeat("1", 32)
	good := fresh + "." + mac(tl.key, "request", fresh)
	before := ran.Load()
	for _, c := range []struct{ name, method, path, auth string }{
		{"replayed as it was", http.MethodGet, "/healthz", captured},
		{"replayed on a dispatch", http.MethodPost, "/v1/dispatch/pre_tool_call", captured},
		{"a prefix of the proof", http.MethodGet, "/healthz", nonce + "." + sum[:32]},
		{"the proof and more", http.MethodGet, "/healthz", good + "00"},
		{"in capitals", http.MethodGet, "/healthz", fresh + "." + strings.ToUpper(mac(tl.key, "request", fresh))},
		{"the key itself", http.MethodGet, "/healthz", fresh + "." + strings.Repeat("ab", keyBytes)},
		{"no nonce", http.MethodGet, "/healthz", "." + mac(tl.key, "request", "")},
		{"a short nonce", http.MethodGet, "/healthz", "ab." + mac(tl.key, "request", "ab")},
	} {
		if got := status(c.method, c.path, c.auth); got != http.StatusUnauthorized {
			t.Errorf("%s: HTTP %d, want 401", c.name, got)
		}
	}
	if n := ran.Load() - before; n != 0 {
		t.Errorf("%d refused requests reached the handler", n)
	}
	if got := status(http.MethodGet, "/healthz", good); got != http.StatusOK {
		t.Errorf("a fresh good proof: HTTP %d", got)
	}
	for _, secret := range []string{strings.SplitN(string(data), "\n", 4)[2], sum, mac(tl.key, "request", fresh)} {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("the log holds a proof or the key:\n%s", logs.String())
		}
	}
}

// The set of seen proofs keeps the latest n and drops the oldest first.
func TestSeenNoncesKeepsTheLatest(t *testing.T) {
	s := newSeenNonces(2)
	a, b, c := [nonceBytes]byte{1}, [nonceBytes]byte{2}, [nonceBytes]byte{3}
	for i, step := range []struct {
		n    [nonceBytes]byte
		want bool
	}{{a, true}, {a, false}, {b, true}, {c, true}, {b, false}, {c, false}, {a, true}, {b, true}, {c, true}} {
		if got := s.first(step.n); got != step.want {
			t.Fatalf("step %d: first(%d) = %v", i, step.n[0], got)
		}
	}
	if len(s.set) != 2 {
		t.Fatalf("%d remembered, want 2", len(s.set))
	}
}
