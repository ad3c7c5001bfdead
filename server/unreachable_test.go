//go:build unix

package server

import (
	"context"
	"errors"
	"net"
	"net/url"
	"path/filepath"
	"testing"
)

// doctor --live words why no server answered in the user's words, from
// real dial errors: no socket at the path, a port nobody listens on, no
// answer in time; anything else as the innermost error says it.
func TestUnreachableWords(t *testing.T) {
	_, noSocket := net.Dial("unix", filepath.Join(t.TempDir(), "none.sock"))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, refused := net.Dial("tcp", addr)
	for _, c := range []struct {
		err  error
		want string
	}{
		{&url.Error{Op: "Get", URL: "http://hermes-hooks/v1/hooks", Err: noSocket}, "no socket there"},
		{&url.Error{Op: "Get", URL: "http://hermes-hooks/v1/hooks", Err: refused}, "connection refused"},
		{&url.Error{Op: "Get", URL: "http://hermes-hooks/v1/hooks", Err: context.DeadlineExceeded}, "no answer within " + liveTimeout.String()},
		{&url.Error{Op: "Get", URL: "http://hermes-hooks/v1/hooks", Err: &net.OpError{Op: "dial", Net: "unix", Err: errors.New("boom")}}, "boom"},
	} {
		if noSocket == nil || refused == nil {
			t.Fatalf("dial errors: %v, %v", noSocket, refused)
		}
		if got := unreachable(c.err); got == nil || got.Error() != c.want {
			t.Errorf("unreachable(%v) = %v, want %q", c.err, got, c.want)
		}
	}
}
