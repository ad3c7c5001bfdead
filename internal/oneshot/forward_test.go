package oneshot

import (
	"slices"

	"github.com/hermes-hooks/hermes-hooks/server"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// readResponse reads what our server sends (a Content-Length, or a body
// ending at EOF under Connection: close) and refuses everything else
// rather than guess: the caller then dispatches by itself.
func TestReadResponse(t *testing.T) {
	cases := []struct {
		name, in string
		status   int
		body     string
		err      string
	}{
		{"content-length", "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}trailing", 200, `{"a":1}`, ""},
		{"until EOF", "HTTP/1.1 409 Conflict\r\nConnection: close\r\n\r\nanother project\n", 409, "another project\n", ""},
		{"HTTP/1.0", "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}", 200, "{}", ""},
		{"empty body", "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n", 204, "", ""},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", 0, "", "Transfer-Encoding"},
		{"short body", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{}", 0, "", "reply body"},
		{"bad length", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", 0, "", "Content-Length"},
		{"too long", "HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\n", 0, "", "Content-Length"},
		{"not HTTP", "SSH-2.0-OpenSSH\r\n", 0, "", "not an HTTP reply"},
		{"bad status", "HTTP/1.1 2x0 OK\r\n\r\n", 0, "", "not an HTTP reply"},
		{"nothing", "", 0, "", "no reply"},
		{"header cut", "HTTP/1.1 200 OK\r\nContent-Le", 0, "", "reply header"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, _, body, err := readResponse(strings.NewReader(c.in), 1<<20)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err %v, want one naming %q", err, c.err)
				}
				return
			}
			if err != nil || status != c.status || string(body) != c.body {
				t.Fatalf("got %d %q %v, want %d %q", status, body, err, c.status, c.body)
			}
		})
	}
}

// A header line past maxReplyHeader is an error, not an allocation as big
// as the server cares to send.
func TestReadResponseHeaderBound(t *testing.T) {
	huge := "HTTP/1.1 200 OK\r\nX-Pad: " + strings.Repeat("x", 2*maxReplyHeader) + "\r\nContent-Length: 2\r\n\r\n{}"
	if _, _, _, err := readResponse(strings.NewReader(huge), 1<<20); err == nil {
		t.Fatal("a 2 MiB header was accepted")
	}
}

// The body limit holds with and without a Content-Length.
func TestReadResponseLimit(t *testing.T) {
	in := "HTTP/1.1 200 OK\r\n\r\n" + strings.Repeat("x", 100)
	if _, _, body, err := readResponse(strings.NewReader(in), 10); err != nil || len(body) != 10 {
		t.Fatalf("EOF body past the limit: %d bytes, %v", len(body), err)
	}
	in = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + strings.Repeat("x", 100)
	if _, _, _, err := readResponse(strings.NewReader(in), 10); err == nil {
		t.Fatal("a Content-Length past the limit was accepted")
	}
}

func FuzzReadResponse(f *testing.F) {
	f.Add("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
	f.Add("HTTP/1.1 409 Conflict\r\n\r\nno")
	f.Add("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
	f.Fuzz(func(t *testing.T, in string) {
		status, _, body, err := readResponse(strings.NewReader(in), 1<<10)
		if err != nil {
			return
		}
		if status < 100 || status > 999 || len(body) > 1<<10 {
			t.Fatalf("status %d, %d bytes", status, len(body))
		}
	})
}

// forward against a real net/http server over TCP: the request our server
// reads (path, query, JSON body), a reply larger than net/http's chunking
// buffer sent with a Content-Length, an error status with its body, and a
// chunked reply refused, and a reply that does not say the caller's
// inputs were checked refused (the hook then dispatches by itself).
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
		case "chunked":
			w.Write([]byte(`{"decision":"none",`))
			w.(http.Flusher).Flush()
			w.Write([]byte(`"event":"pre_tool_call"}`))
		case "unchecked":
			w.Write([]byte(`{"event":"pre_tool_call","decision":"none","stop":false,"hooks":[]}`))
		default:
			w.Header().Set(server.InputsHeader, "checked")
			body := []byte(`{"event":"pre_tool_call","decision":"block","message":"` + big + `","stop":false,"hooks":[]}`)
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.Write(body)
		}
	}))
	defer srv.Close()
	ev, _ := protocol.Lookup("pre_tool_call")
	call := &agents.Call{Event: ev, Fields: map[string]any{"tool_name": "terminal"}}
	target := "tcp://" + strings.TrimPrefix(srv.URL, "http://")

	o, err := forward(target, url.Values{"called_by": {"claude"}, "project": {"p"}}, call)
	if err != nil || o.Decision != protocol.DecisionBlock || o.Message != big {
		t.Fatalf("forward: %v, decision %q, message of %d bytes", err, o.Decision, len(o.Message))
	}
	if got.path != "/v1/dispatch/pre_tool_call" || got.calledBy != "claude" || got.body != `{"tool_name":"terminal"}` {
		t.Fatalf("request %+v", got)
	}
	if _, err := forward(target, url.Values{"project": {"other"}}, call); err == nil || !strings.Contains(err.Error(), "HTTP 409") || !strings.Contains(err.Error(), "another project") {
		t.Fatalf("409: %v", err)
	}
	if _, err := forward(target, url.Values{"project": {"chunked"}}, call); err == nil || !strings.Contains(err.Error(), "Transfer-Encoding") {
		t.Fatalf("chunked reply: %v", err)
	}
	if _, err := forward(target, url.Values{"project": {"unchecked"}}, call); err == nil || !strings.Contains(err.Error(), "does not check") {
		t.Fatalf("a reply without %s: %v", server.InputsHeader, err)
	}
	if _, err := forward("ftp://x", nil, call); err == nil || !strings.Contains(err.Error(), "unsupported server address") {
		t.Fatalf("bad scheme: %v", err)
	}
}

// The names of a forwarded call's inputs are the server's: the front keeps
// its own copies, as it must not link the server.
func TestForwardInputNamesAreTheServers(t *testing.T) {
	if queryInputs != server.QueryInputs || queryAccept != server.QueryAccept || queryEnvAccept != server.QueryEnvAccept ||
		querySafeMode != server.QuerySafeMode || inputsHeader != server.InputsHeader || !slices.Equal(queryFiles, server.QueryFiles) {
		t.Fatal("the forward's query names differ from package server's")
	}
}
