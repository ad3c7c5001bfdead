package server

import (
	"context"
	"net"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// limitListener lets at most n connections be open at once. At the cap,
// a new client is accepted and the connection that has waited longest
// without a request (accepted and silent, or idle between requests: the
// http.Server reports which through connState) is closed to make room for
// it; only when every connection is in a request does the new one wait
// for one to end (it is held, not served: one connection over the cap,
// further clients waiting in the kernel's accept queue). A client holding
// many connections can exhaust neither the server's file descriptors nor
// its goroutines, and cannot keep others out with connections it does not
// use: without the eviction, 4,000 silent connections kept every other
// client waiting for their header timeouts, 16 at a time.
//
// A connection is closed for room only once a client is there to take
// its place (closing one for a client that may never come would churn
// idle keep-alive connections at the cap), and never once a byte of its
// request has arrived: bytes waiting in the kernel count (pending), and a
// connection's Read notes them before it takes them (AwaitReadable; where
// poll(2) is missing, once read). Its state (silent, heard, evicted)
// changes by compare-and-swap, so its first bytes and its eviction cannot
// both win. Bytes that arrive at a connection already
// evicted are never handled (its Read fails, and a request that came
// with the one before it, already in net/http's buffer, is refused before
// its handler: attach): its client sees the connection close before any
// answer and, as `hook` does, dispatches by itself (the Node and Python
// clients report ServerNotAnsweringError to their host), and no hook ran
// on the server for it.
func limitListener(l net.Listener, n int) *limited {
	return &limited{Listener: l, sem: make(chan struct{}, n), done: make(chan struct{}),
		waiting: map[*limitedConn]time.Time{}, woke: make(chan struct{}, 1)}
}

type limited struct {
	net.Listener
	sem       chan struct{}
	done      chan struct{}
	closeOnce sync.Once

	mu sync.Mutex
	// waiting holds the open connections not in a request, and since when.
	waiting map[*limitedConn]time.Time
	// woke is signalled when a connection starts waiting, so a full
	// Accept looks for one to close again.
	woke chan struct{}
	// seams, when a test sets them, run at the eviction's race points.
	seams *evictSeams
}

// evictSeams are the points where a connection's first bytes can race its
// eviction, for a test to act at (nil in production).
type evictSeams struct {
	// checked: evictOldest found c silent and is about to close it.
	checked func(c *limitedConn)
	// decided: evictOldest closed c, or passed it over.
	decided func(c *limitedConn)
	// read: c's Read returned bytes (and noted them).
	read func(c *limitedConn)
	// arrived: c's Read knows bytes of a request are there and has not
	// noted them yet.
	arrived func(c *limitedConn)
}

func (l *limited) Accept() (net.Conn, error) {
	select {
	case l.sem <- struct{}{}:
		c, err := l.Listener.Accept()
		if err != nil {
			<-l.sem
			return nil, err
		}
		return l.wrap(c), nil
	default:
	}
	// At the cap: the client first, then room for it.
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	for {
		select {
		case l.sem <- struct{}{}:
			return l.wrap(c), nil
		default:
		}
		if l.evictOldest() {
			continue // its Close gave its place back
		}
		select {
		case l.sem <- struct{}{}:
			return l.wrap(c), nil
		case <-l.woke:
		case <-l.done:
			c.Close()
			return nil, net.ErrClosed
		}
	}
}

// wrap counts c, which holds a place of sem.
func (l *limited) wrap(c net.Conn) *limitedConn {
	lc := &limitedConn{Conn: c, seams: l.seams}
	lc.release = func() {
		l.mu.Lock()
		delete(l.waiting, lc)
		l.mu.Unlock()
		<-l.sem
	}
	// Serve reports it StateNew (connState) as Accept returns, on the
	// goroutine that calls Accept again: it is waiting before any other
	// Accept could look for one to close.
	return lc
}

// attach makes hs serve l's connections under its rules: ConnState
// (connState) keeps the set of connections l may close for room, and a
// request's connection is heard (hear) before its handler runs: a request
// that arrived with the one before it (pipelined) is read from net/http's
// buffer with no Read of its connection, which meanwhile went idle, and
// silent, once the request before it was answered.
func (l *limited) attach(hs *http.Server) {
	hs.ConnState = l.connState
	hs.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		if lc, ok := c.(*limitedConn); ok {
			ctx = context.WithValue(ctx, limitedConnKey{}, lc)
		}
		return ctx
	}
	next := hs.Handler
	hs.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if lc, ok := r.Context().Value(limitedConnKey{}).(*limitedConn); ok && !lc.hear() {
			// Closed for room: its client has seen the connection go
			// unanswered and acts by itself; no hook may run for it.
			// (ErrAbortHandler: no answer, and nothing logged.)
			panic(http.ErrAbortHandler)
		}
		next.ServeHTTP(w, r)
	})
}

type limitedConnKey struct{}

// connState is the http.Server's ConnState hook: it keeps the set of
// connections a full Accept may close.
func (l *limited) connState(c net.Conn, st http.ConnState) {
	lc, ok := c.(*limitedConn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch st {
	case http.StateNew, http.StateIdle:
		if lc.closed.Load() {
			return
		}
		if _, ok := l.waiting[lc]; !ok {
			l.waiting[lc] = time.Now()
			// Bytes read from now on are its next request's. (No Read
			// runs now: the server reads again only after this.)
			lc.state.CompareAndSwap(connHeard, connSilent)
		}
		select {
		case l.woke <- struct{}{}:
		default:
		}
	default:
		delete(l.waiting, lc)
	}
}

// evictOldest closes the connection that has waited longest without a
// request, passing over those whose request has arrived: read in part by
// the server already (heard: it reports a request only once its headers
// are read) or waiting in the kernel (pending). False when there is none
// to close.
func (l *limited) evictOldest() bool {
	l.mu.Lock()
	cands := make([]*limitedConn, 0, len(l.waiting))
	for c := range l.waiting {
		cands = append(cands, c)
	}
	slices.SortFunc(cands, func(a, b *limitedConn) int { return l.waiting[a].Compare(l.waiting[b]) })
	l.mu.Unlock()
	for _, c := range cands {
		if c.state.Load() != connSilent || pending(c.Conn) {
			if l.seams != nil {
				l.seams.decided(c)
			}
			continue
		}
		if l.seams != nil {
			l.seams.checked(c)
		}
		l.mu.Lock()
		_, still := l.waiting[c]
		// The commit: from here its Read handles nothing, or, if its
		// first bytes were read since the look, it is not closed.
		evict := still && c.state.CompareAndSwap(connSilent, connEvicted)
		if evict {
			delete(l.waiting, c)
		}
		l.mu.Unlock()
		if evict {
			c.Close()
		}
		if l.seams != nil {
			l.seams.decided(c)
		}
		if evict {
			return true
		}
	}
	return false
}

func (l *limited) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// A limitedConn's state while it waits (connState), changed by
// compare-and-swap only: silent (nothing read since it began waiting),
// heard (bytes read: a request is arriving) or evicted (closed for room;
// nothing it sends is handled).
const (
	connSilent int32 = iota
	connHeard
	connEvicted
)

type limitedConn struct {
	net.Conn
	once    sync.Once
	closed  atomic.Bool
	state   atomic.Int32
	release func()
	seams   *evictSeams
}

func (c *limitedConn) Read(p []byte) (int, error) {
	// A silent connection's first bytes are noted while they are still in
	// the kernel: taken first, they were neither pending nor heard for as
	// long as this goroutine waited for a CPU, and an eviction that looked
	// then closed a connection whose request had come before the look.
	// (Where AwaitReadable cannot wait, the bytes are noted once read.)
	if len(p) > 0 && c.state.Load() == connSilent && fsutil.AwaitReadable(c.Conn) && !c.arrive() {
		return 0, net.ErrClosed
	}
	n, err := c.Conn.Read(p)
	if n > 0 {
		if !c.arrive() {
			// Evicted while the bytes were on their way: the server
			// must not act on a request it has given up.
			return 0, net.ErrClosed
		}
		if c.seams != nil {
			c.seams.read(c)
		}
	}
	return n, err
}

// arrive notes that bytes of c's request are there; false if c was closed
// for room first.
func (c *limitedConn) arrive() bool {
	if c.seams != nil && c.state.Load() == connSilent {
		c.seams.arrived(c)
	}
	return c.hear()
}

// hear notes that c's client has sent a request: from now on c is not
// closed for room (until it waits again). False if it was closed first.
func (c *limitedConn) hear() bool {
	return c.state.CompareAndSwap(connSilent, connHeard) || c.state.Load() != connEvicted
}

func (c *limitedConn) Close() error {
	c.closed.Store(true)
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
