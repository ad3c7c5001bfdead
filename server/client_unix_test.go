//go:build linux

package server

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
)

// Forward over a Unix socket checks who listens: a server process of
// another user is refused once connected (SO_PEERCRED), before a byte of
// the call is sent, even though its socket file passed the owner and mode
// checks. (Pretending to be another user: the listener is this process.)
func TestForwardRefusesServerOfAnotherUser(t *testing.T) {
	sock, ln := privateSocket(t)
	asked := false
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = true
		w.Header().Set(InputsHeader, "checked")
		w.Header().Set(VersionHeader, version)
		w.Write([]byte(`{"event":"pre_tool_call","decision":"none","stop":false,"hooks":[]}`))
	})}
	go srv.Serve(ln)
	defer srv.Close()
	fields := map[string]any{"tool_name": "terminal"}

	if _, err := Forward(context.Background(), "unix://"+sock, url.Values{}, "pre_tool_call", fields, version); err != nil {
		t.Fatalf("own user's server: %v", err)
	}
	asked = false
	uid := os.Geteuid() + 1
	myUID = func() int { return uid }
	defer func() { myUID = os.Geteuid }()
	_, err := Forward(context.Background(), "unix://"+sock, url.Values{}, "pre_tool_call", fields, version)
	if err == nil || !strings.Contains(err.Error(), "the server's process runs as uid") || asked {
		t.Fatalf("another user's server: %v (asked %v)", err, asked)
	}
}
