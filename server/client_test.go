package server

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Forward against a real net/http server over TCP: the request our server
// reads (path, query, JSON body), a large reply, an error status with its
// body, and a reply that does not say the caller's inputs were checked
// refused (the hook then dispatches by itself).
func TestForwardOverTCP(t *testing.T) {
	big := strings.Repeat("x", 64<<10)
	var got struct {
		path, calledBy, body string
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
	defer srv.Close()
	fields := map[string]any{"tool_name": "terminal"}
	target := "tcp://" + strings.TrimPrefix(srv.URL, "http://")

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
	if _, err := Forward(context.Background(), "ftp://x", nil, "pre_tool_call", fields, version); err == nil || !strings.Contains(err.Error(), "unsupported server address") {
		t.Fatalf("bad scheme: %v", err)
	}
}

// version is the caller's version in these tests (the CLI passes its own).
const version = "v0.0.0-test"
