//go:build unix

package server

import (
	"bufio"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Attack (or plain bad luck): at --max-conns, a full Accept picks the
// connection that has waited longest in silence and closes it; that
// connection's request arrives between the look and the close. The server
// must then either answer it or never act on it: closing a connection
// whose request it has read (the handler still runs, the client sees the
// connection go and, as `hook` does, dispatches by itself) runs the hooks
// twice. The seams make the request land in that window every time: the
// server's read of it is held until the eviction has decided.
func TestEvictionNeverDropsARequestItRead(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lim := limitListener(ln, 1)
	var ran atomic.Int32
	hs := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ran.Add(1)
			w.Write([]byte("ok"))
		}),
		ReadHeaderTimeout: deadline,
	}
	// Two clients, one place: whichever waits in silence is looked at for
	// room for the other.
	clients := map[string]net.Conn{}
	for range 2 {
		c := dialFor(t, ln)
		clients[c.LocalAddr().String()] = c
	}
	var raced atomic.Pointer[limitedConn]
	var racer net.Conn // the client whose request lands in the window
	read, decided := make(chan struct{}), make(chan struct{})
	var checkOnce, readOnce, decideOnce sync.Once
	lim.seams = &evictSeams{
		checked: func(c *limitedConn) {
			checkOnce.Do(func() {
				raced.Store(c)
				// Its request arrives now, and the server reads it.
				racer = clients[c.RemoteAddr().String()]
				if _, err := racer.Write([]byte(getRoot)); err != nil {
					t.Error(err)
				}
				<-read
			})
		},
		decided: func(c *limitedConn) {
			if c == raced.Load() {
				decideOnce.Do(func() { close(decided) })
			}
		},
		read: func(c *limitedConn) {
			if c == raced.Load() {
				readOnce.Do(func() {
					close(read)
					<-decided // the server goes on with what it read once the eviction decided
				})
			}
		},
		arrived: func(*limitedConn) {},
	}
	lim.attach(hs)
	go hs.Serve(lim)
	defer hs.Close()
	waitFor(t, "an eviction to look at a silent connection", func() bool { return raced.Load() != nil })
	<-decided

	resp, err := http.ReadResponse(bufio.NewReader(racer), nil)
	if err != nil {
		t.Fatalf("the server closed a connection whose request it had read: %v (the handler ran %d times for it)", err, ran.Load())
	}
	resp.Body.Close()
	// The other client is served once the first is idle (and closed for it).
	for addr, c := range clients {
		if c == racer {
			continue
		}
		if _, err := c.Write([]byte(getRoot)); err != nil {
			t.Fatal(err)
		}
		if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("the other client (%s): %v %v", addr, resp, err)
		}
	}
	if n := ran.Load(); n != 2 {
		t.Errorf("the handler ran %d times for 2 requests", n)
	}
}

// At the cap, nothing is closed for room until a client is there to take
// it: Serve calls Accept again at once, and a full Accept used to close the
// oldest silent connection then (with a cap of one, each connection the
// moment it was accepted), churning idle keep-alive connections for
// clients that never came.
func TestEvictionWaitsForAClient(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lim := limitListener(ln, 1)
	var looked atomic.Int32
	lim.seams = &evictSeams{checked: func(*limitedConn) { looked.Add(1) }, decided: func(*limitedConn) {}, read: func(*limitedConn) {}, arrived: func(*limitedConn) {}}
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})}
	lim.attach(hs)
	go hs.Serve(lim)
	defer hs.Close()
	c := dialFor(t, ln)
	waitFor(t, "the connection waiting", func() bool {
		lim.mu.Lock()
		defer lim.mu.Unlock()
		return len(lim.waiting) == 1 || looked.Load() > 0
	})
	var resp *http.Response
	_, err = c.Write([]byte(getRoot))
	if err == nil {
		resp, err = http.ReadResponse(bufio.NewReader(c), nil)
	}
	if err != nil || looked.Load() != 0 {
		t.Fatalf("the only client: %v %v; connections looked at for room with nobody waiting: %d", resp, err, looked.Load())
	}
}

// A request that came before the look is never closed for room, however
// late its goroutine gets to note it: on a loaded machine the goroutine
// that has taken a request's bytes from the kernel can wait for a CPU
// before it marks its connection heard, and a full Accept that looked
// then found the connection silent with nothing waiting, closed it, and
// the request was dropped unanswered (CI: TestServeConnectionCap's four
// dispatches ran three hooks). The seam holds the server's read in that
// window until the eviction has decided about the connection.
func TestEvictionPassesOverARequestBeingRead(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lim := limitListener(ln, 1)
	hs := &http.Server{
		Handler:           http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }),
		ReadHeaderTimeout: deadline,
	}
	var first atomic.Pointer[limitedConn]
	held, decided := make(chan struct{}), make(chan struct{})
	var heldOnce, decideOnce sync.Once
	var looked atomic.Bool // the eviction decided while the read was held
	lim.seams = &evictSeams{
		checked: func(*limitedConn) {},
		read:    func(*limitedConn) {},
		decided: func(c *limitedConn) {
			if c == first.Load() {
				decideOnce.Do(func() { close(decided) })
			}
		},
		arrived: func(c *limitedConn) {
			if first.CompareAndSwap(nil, c) {
				heldOnce.Do(func() {
					close(held)
					select {
					case <-decided:
						looked.Store(true)
					case <-time.After(deadline):
					}
				})
			}
		},
	}
	lim.attach(hs)
	go hs.Serve(lim)
	defer hs.Close()
	a := dialFor(t, ln)
	if _, err := a.Write([]byte(getRoot)); err != nil {
		t.Fatal(err)
	}
	select {
	case <-held:
	case <-time.After(deadline):
		t.Fatal("the server never read the first request")
	}
	// A second client at the cap while the first one's request is being
	// read: the first is looked at for room.
	b := dialFor(t, ln)
	resp, err := http.ReadResponse(bufio.NewReader(a), nil)
	if err != nil {
		t.Fatalf("the server closed a connection whose request had come before it looked: %v", err)
	}
	resp.Body.Close()
	if !looked.Load() {
		t.Fatal("the eviction never looked at the connection while its request was being read")
	}
	// The first one, answered and idle, makes room for the second.
	if _, err := b.Write([]byte(getRoot)); err != nil {
		t.Fatal(err)
	}
	if resp, err := http.ReadResponse(bufio.NewReader(b), nil); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the second client: %v %v", resp, err)
	}
}

// getRoot is a whole request, as a client sends it.
const getRoot = "GET / HTTP/1.1\r\nHost: x\r\n\r\n"

// dialFor connects to ln as a client whose reads and writes give up (a
// hang guard) after deadline, closed when the test ends.
func dialFor(t *testing.T, ln net.Listener) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(deadline))
	return c
}
