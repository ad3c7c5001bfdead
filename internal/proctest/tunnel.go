package proctest

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"testing"
)

// TunnelTo starts a proxy on the loopback that answers every CONNECT with
// a tunnel to to, whatever host the client asked for: a repository's
// HTTPS_PROXY in the attack tests of http hooks and export, which then
// needs the client to trust a CA of the repository's to read anything. It
// returns the proxy's host:port; it stops with the test.
func TunnelTo(t testing.TB, to string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go tunnel(c, to)
		}
	}()
	return l.Addr().String()
}

// tunnel serves one CONNECT on c: read it, dial to, copy both ways.
func tunnel(c net.Conn, to string) {
	defer c.Close()
	br := bufio.NewReader(c)
	if _, err := http.ReadRequest(br); err != nil {
		return
	}
	up, err := net.Dial("tcp", to)
	if err != nil {
		return
	}
	defer up.Close()
	_, _ = io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n")
	go func() { _, _ = io.Copy(up, br) }()
	_, _ = io.Copy(c, up)
}
