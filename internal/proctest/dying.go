package proctest

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"testing"
)

// DyingServer is the base URL of an HTTP server that answers every
// request with the raw bytes resp and closes the connection: a peer that
// dies part way through its answer (a status line and no body, a body
// shorter than its Content-Length, unended chunks), which net/http's own
// test server cannot play.
func DyingServer(t testing.TB, resp string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				req, err := http.ReadRequest(bufio.NewReader(c))
				if err != nil {
					return
				}
				_, _ = io.Copy(io.Discard, req.Body)
				_, _ = io.WriteString(c, resp)
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}
