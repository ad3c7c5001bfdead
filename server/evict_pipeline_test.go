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

// pipelineHang is the hang guard of the test below, which runs on every
// system (deadline is the unix tests').
const pipelineHang = time.Minute

// pipeListener hands the server one end of a net.Pipe per dial: one Write
// of the client is one Read of the server, so a test knows exactly what
// the server has buffered.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

func (l *pipeListener) dial() net.Conn {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
	case <-l.done:
	}
	return client
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error   { l.once.Do(func() { close(l.done) }); return nil }
func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

// Attack (or a pipelining client): its second request arrives with its
// first, so net/http holds it in its buffer while the first is handled.
// Once the first is answered the connection is idle (silent: nothing read
// since), a new client at --max-conns has it closed for room, and the
// server then reads the second request from its buffer, with no Read the
// eviction could fail. Were it handled, its hooks would run on the server
// while its client, whose connection closed unanswered, dispatches by
// itself: the hooks would run twice. The ConnState hook holds the server
// just after the connection goes idle until the eviction is done.
func TestEvictionNeverHandlesAPipelinedRequest(t *testing.T) {
	pl := newPipeListener()
	lim := limitListener(pl, 1)
	handled := make(chan string, 4)
	hs := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			handled <- r.URL.Path
			w.Write([]byte("ok"))
		}),
		ReadHeaderTimeout: pipelineHang,
	}
	lim.attach(hs)
	evicted, gone := make(chan struct{}), make(chan struct{})
	var first atomic.Pointer[limitedConn]
	var idleOnce, goneOnce sync.Once
	connState := hs.ConnState
	hs.ConnState = func(c net.Conn, st http.ConnState) {
		connState(c, st)
		lc := c.(*limitedConn)
		switch {
		case st == http.StateIdle && lc == first.Load():
			// Held here, before the server looks at its buffer again.
			idleOnce.Do(func() { <-evicted })
		case (st == http.StateClosed || st == http.StateHijacked) && lc == first.Load():
			goneOnce.Do(func() { close(gone) })
		case st == http.StateNew:
			first.CompareAndSwap(nil, lc)
		}
	}
	lim.seams = &evictSeams{
		checked: func(*limitedConn) {},
		decided: func(c *limitedConn) {
			if c == first.Load() && c.state.Load() == connEvicted {
				close(evicted)
			}
		},
		read:    func(*limitedConn) {},
		arrived: func(*limitedConn) {},
	}
	go hs.Serve(lim)
	defer hs.Close()

	a := pl.dial()
	defer a.Close()
	a.SetDeadline(time.Now().Add(pipelineHang))
	// Both requests in one write: the server's first Read takes both.
	go a.Write([]byte("GET /first HTTP/1.1\r\nHost: x\r\n\r\nGET /second HTTP/1.1\r\nHost: x\r\n\r\n"))
	resp, err := http.ReadResponse(bufio.NewReader(a), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if p := <-handled; p != "/first" {
		t.Fatalf("handled %s first", p)
	}
	// A second client at the cap: the first connection, idle, is closed
	// for it (the server's goroutine for it is held until then).
	b := pl.dial()
	defer b.Close()
	select {
	case <-evicted:
	case <-time.After(pipelineHang):
		t.Fatal("the idle connection was not closed for the new client")
	}
	select {
	case <-gone:
	case <-time.After(pipelineHang):
		t.Fatal("the evicted connection's goroutine never ended")
	}
	select {
	case p := <-handled:
		t.Fatalf("the server handled %s, read from its buffer after the connection was closed for room", p)
	default:
	}
}
