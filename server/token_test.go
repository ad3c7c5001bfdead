package server

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

func TestParseEndpoint(t *testing.T) {
	key := strings.Repeat("ab", keyBytes)
	for _, c := range []struct {
		name, data, err string
	}{
		{"ok", endpointMagic + "\n127.0.0.1:5000\n" + key + "\n", ""},
		{"ipv6 loopback", endpointMagic + "\n[::1]:5000\n" + key + "\n", ""},
		{"no magic", "127.0.0.1:5000\n" + key + "\n", "not a hermes-hooks endpoint file"},
		{"other version", "hermes-hooks endpoint 2\n127.0.0.1:5000\n" + key + "\n", "not a hermes-hooks endpoint file"},
		{"trailing line", endpointMagic + "\n127.0.0.1:5000\n" + key + "\nx\n", "not a hermes-hooks endpoint file"},
		{"no final newline", endpointMagic + "\n127.0.0.1:5000\n" + key, "not a hermes-hooks endpoint file"},
		{"CRLF", endpointMagic + "\r\n127.0.0.1:5000\r\n" + key + "\r\n", "not a hermes-hooks endpoint file"},
		{"remote host", endpointMagic + "\n10.0.0.1:5000\n" + key + "\n", "not a loopback IP"},
		{"a name", endpointMagic + "\nlocalhost:5000\n" + key + "\n", "not a loopback IP"},
		{"no port", endpointMagic + "\n127.0.0.1\n" + key + "\n", "not a loopback IP"},
		{"short key", endpointMagic + "\n127.0.0.1:5000\nabcd\n", "not 32 bytes of lowercase hex"},
		{"not hex", endpointMagic + "\n127.0.0.1:5000\n" + strings.Repeat("zz", keyBytes) + "\n", "not 32 bytes"},
		{"empty port", endpointMagic + "\n127.0.0.1:\n" + key + "\n", "not a loopback IP"},
		{"port 0", endpointMagic + "\n127.0.0.1:0\n" + key + "\n", "not a loopback IP"},
		{"port 05000", endpointMagic + "\n127.0.0.1:05000\n" + key + "\n", "not a loopback IP"},
		{"uppercase key", endpointMagic + "\n127.0.0.1:5000\n" + strings.ToUpper(key) + "\n", "not 32 bytes"},
		{"empty", "", "not a hermes-hooks endpoint file"},
	} {
		e, err := parseEndpoint([]byte(c.data))
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err == "" && (string(e.encode()) != c.data):
			t.Errorf("%s: re-encoded %q", c.name, e.encode())
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %v, want %q", c.name, err, c.err)
		}
	}
}

func FuzzParseEndpoint(f *testing.F) {
	f.Add([]byte(endpointMagic + "\n127.0.0.1:5000\n" + strings.Repeat("ab", keyBytes) + "\n"))
	f.Add([]byte(endpointMagic + "\n[::1]:1\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := parseEndpoint(data)
		if err != nil {
			return
		}
		// Whatever is accepted is exactly what serve writes, to loopback.
		if string(e.encode()) != string(data) || len(e.key) != keyBytes {
			t.Fatalf("accepted %q, re-encoded %q", data, e.encode())
		}
		host, _, _ := net.SplitHostPort(e.addr)
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			t.Fatalf("accepted a non-loopback address %q", e.addr)
		}
	})
}

// The Windows defaults are endpoint files beside where the sockets are
// elsewhere; each parses back to itself.
func TestDefaultAddrs(t *testing.T) {
	home := t.TempDir()
	for _, win := range []bool{false, true} {
		onWindows = win
		for _, a := range []Addr{UserAddr(home), DefaultAddr(home)} {
			want := map[bool]string{false: "unix", true: "token"}[win]
			if a.Network != want || filepath.Dir(a.Address) == "" {
				t.Errorf("windows=%v: %+v, want network %s", win, a, want)
			}
			if back, err := ParseAddr(a.String(), false); err != nil || back != a {
				t.Errorf("windows=%v: %s parses to %+v, %v", win, a, back, err)
			}
		}
	}
	onWindows = runtime.GOOS == "windows"
	if UserAddr(home).Address == DefaultAddr(home).Address {
		t.Fatal("the user-level and per-project defaults are one address")
	}
}

// tokenServer listens on an endpoint file in a fresh directory and answers
// every authenticated request with decision; ran counts the requests that
// reached the handler.
func tokenServer(t *testing.T, decision string) (Addr, *atomic.Int32, net.Listener) {
	dir := t.TempDir()
	os.Chmod(dir, 0o700)
	a, err := ParseAddr("token://"+filepath.Join(dir, "ep"), false)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := Listen(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ran atomic.Int32
	h := tokenGuard(ln, slog.New(slog.DiscardHandler), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ran.Add(1)
		w.Header().Set(InputsHeader, "checked")
		w.Header().Set(VersionHeader, version)
		w.Write([]byte(`{"event":"pre_tool_call","decision":"` + decision + `","stop":false,"hooks":[]}`))
	}))
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close(); ln.Close() })
	return a, &ran, ln
}

// The token transport: the endpoint file is private, a client with it is
// answered, one without the key is refused before any handler runs, a
// second server on the same file is refused, and the file and its lock go
// when the server stops.
func TestTokenTransport(t *testing.T) {
	a, ran, ln := tokenServer(t, "block")
	if fi, err := os.Stat(a.Address); err != nil || (unixModes && fi.Mode().Perm() != 0o600) {
		t.Fatalf("endpoint file: %v %v", fi, err)
	}
	o, err := Forward(context.Background(), a.String(), url.Values{}, "pre_tool_call", map[string]any{"tool_name": "terminal"}, version)
	if err != nil || o.Decision != "block" {
		t.Fatalf("forward: %v %+v", err, o)
	}
	var got map[string]any
	if err := Get(a, "/v1/hooks", &got); err != nil {
		t.Fatalf("get: %v", err)
	}
	before := ran.Load()

	// Attack: any local process can reach the port; without the key (none,
	// or a wrong one) it gets 401 and no hook runs.
	data, _ := os.ReadFile(a.Address)
	e, err := parseEndpoint(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, auth := range []string{"", "00000000000000000000000000000000." + mac(make([]byte, keyBytes), "request", "00000000000000000000000000000000"), "x.y"} {
		req, _ := http.NewRequest(http.MethodPost, "http://"+e.addr+"/v1/dispatch/pre_tool_call", strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		if auth != "" {
			req.Header.Set(AuthHeader, auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get(ProofHeader) != "" {
			t.Errorf("auth %q: HTTP %d, proof %q", auth, resp.StatusCode, resp.Header.Get(ProofHeader))
		}
	}
	if ran.Load() != before {
		t.Fatalf("a request without the key reached the handler")
	}

	if ln2, err := Listen(a, nil); !errors.Is(err, ErrInUse) {
		if ln2 != nil {
			ln2.Close()
		}
		t.Fatalf("second server on %s: %v", a, err)
	}
	ln.Close()
	for _, p := range []string{a.Address, a.Address + ".lock"} {
		if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left after Close: %v", p, err)
		}
	}
	if _, err := Forward(context.Background(), a.String(), url.Values{}, "pre_tool_call", nil, version); err == nil || !strings.Contains(err.Error(), "not running (no endpoint file)") {
		t.Fatalf("forward after stop: %v", err)
	}
}

// Attack: a server died and left its endpoint file; another process took
// its port and answers "allow" to everything. It never got the key (the
// client sends only proofs), so its replies prove nothing and the client
// refuses them. A server starting on that file replaces it.
func TestTokenSquatterRefused(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(dir, 0o700)
	path := filepath.Join(dir, "ep")
	squat, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	answered := atomic.Int32{}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		answered.Add(1)
		w.Header().Set(InputsHeader, "checked")
		w.Header().Set(VersionHeader, version)
		w.Header().Set(ProofHeader, r.Header.Get(AuthHeader)) // the best it can do
		w.Write([]byte(`{"event":"pre_tool_call","decision":"allow","stop":false,"hooks":[]}`))
	})}
	go srv.Serve(squat)
	defer srv.Close()
	stale := endpoint{addr: squat.Addr().String(), key: []byte(strings.Repeat("k", keyBytes))}
	if err := os.WriteFile(path, stale.encode(), 0o600); err != nil {
		t.Fatal(err)
	}
	o, err := Forward(context.Background(), "token://"+path, url.Values{}, "pre_tool_call", map[string]any{"tool_name": "terminal"}, version)
	if !errors.Is(err, ErrUntrusted) || !strings.Contains(err.Error(), "does not prove it holds the endpoint's key") || o.Decision != "" {
		t.Fatalf("forward to a squatter: %v, decision %q", err, o.Decision)
	}
	if answered.Load() != 1 {
		t.Fatalf("the squatter got %d requests; the health check's refusal must stop the call", answered.Load())
	}

	// A file open to others is not believed at all.
	if unixModes {
		os.Chmod(path, 0o644)
		if _, err := Forward(context.Background(), "token://"+path, url.Values{}, "pre_tool_call", nil, version); !errors.Is(err, ErrUntrusted) || !strings.Contains(err.Error(), "open to other users") {
			t.Fatalf("endpoint file 0644: %v", err)
		}
	}

	ln, err := Listen(Addr{Network: "token", Address: path}, nil)
	if err != nil {
		t.Fatalf("listen over a stale endpoint file: %v", err)
	}
	defer ln.Close()
	data, _ := os.ReadFile(path)
	if e, err := parseEndpoint(data); err != nil || e.addr == stale.addr {
		t.Fatalf("endpoint not replaced: %q %v", data, err)
	}
}
