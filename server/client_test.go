package server

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Forward against a real net/http server on a private Unix socket: the
// request our server reads (path, query, JSON body), a large reply, an
// error status with its body, and a reply that does not say the caller's
// inputs were checked refused (the hook then dispatches by itself). A
// tcp:// target is refused before anything is sent: nothing proves which
// user listens on a port.
func TestForwardReplies(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix sockets: the Windows forward is token:// (token_test.go)")
	}
	big := strings.Repeat("x", 64<<10)
	var got struct {
		path, calledBy, body string
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/healthz" {
			return // 200
		}
		b, _ := io.ReadAll(r.Body)
		got.path, got.calledBy, got.body = r.URL.Path, r.URL.Query().Get("called_by"), string(b)
		switch r.URL.Query().Get("project") {
		case "other":
			http.Error(w, `{"error":"another project"}`, http.StatusConflict)
		case "unchecked":
			w.Write([]byte(`{"event":"pre_tool_call","decision":"none","stop":false,"hooks":[]}`))
		default:
			w.Header().Set(InputsHeader, "checked")
			w.Header().Set(VersionHeader, r.URL.Query().Get("version"))
			body := []byte(`{"event":"pre_tool_call","decision":"block","message":"` + big + `","stop":false,"hooks":[]}`)
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.Write(body)
		}
	}))
	sock, ln := privateSocket(t)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	defer srv.Close()
	target := "unix://" + sock
	fields := map[string]any{"tool_name": "terminal"}

	o, err := Forward(context.Background(), target, url.Values{"called_by": {"claude"}, "project": {"p"}, "version": {version}}, "pre_tool_call", fields, version)
	if err != nil || o.Decision != protocol.DecisionBlock || o.Message != big {
		t.Fatalf("forward: %v, decision %q, message of %d bytes", err, o.Decision, len(o.Message))
	}
	if got.path != "/v1/dispatch/pre_tool_call" || got.calledBy != "claude" || got.body != `{"tool_name":"terminal"}` {
		t.Fatalf("request %+v", got)
	}
	if _, err := Forward(context.Background(), target, url.Values{"project": {"other"}}, "pre_tool_call", fields, version); err == nil || !strings.Contains(err.Error(), "HTTP 409") || !strings.Contains(err.Error(), "another project") {
		t.Fatalf("409: %v", err)
	}
	if _, err := Forward(context.Background(), target, url.Values{"project": {"unchecked"}}, "pre_tool_call", fields, version); err == nil || !strings.Contains(err.Error(), "does not check") {
		t.Fatalf("a reply without %s: %v", InputsHeader, err)
	}
	if _, err := Forward(context.Background(), target, url.Values{"project": {"p"}, "version": {"v0.0.1"}}, "pre_tool_call", fields, version); err == nil || !strings.Contains(err.Error(), `the server is hermes-hooks "v0.0.1"`) {
		t.Fatalf("another version: %v", err)
	}
	got.path = ""
	tcp := httptest.NewServer(srv.Config.Handler)
	defer tcp.Close()
	if _, err := Forward(context.Background(), "tcp://"+strings.TrimPrefix(tcp.URL, "http://"), url.Values{"project": {"p"}, "version": {version}}, "pre_tool_call", fields, version); err == nil || !strings.Contains(err.Error(), "cannot prove") || got.path != "" {
		t.Fatalf("tcp: %v (asked %q)", err, got.path)
	}
	if _, err := Forward(context.Background(), "ftp://x", nil, "pre_tool_call", fields, version); err == nil || !strings.Contains(err.Error(), "unsupported server address") {
		t.Fatalf("bad scheme: %v", err)
	}
}

// version is the caller's version in these tests (the CLI passes its own).
const version = "v0.0.0-test"

// privateSocket listens on a Unix socket only this user may reach (the
// socket 0600 in a 0700 directory), as serve's is.
func privateSocket(t *testing.T) (string, net.Listener) {
	t.Helper()
	dir := t.TempDir()
	os.Chmod(dir, 0o700)
	sock := filepath.Join(dir, "s")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(sock, 0o600)
	return sock, ln
}
