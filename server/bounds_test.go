//go:build unix

package server

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/sessions"
)

// Session state through a real server stays within the store's budget:
// 1 500 sessions each patching ~60 KB of state (90 MB in all, 5 times the
// 16 MiB budget) leave the server's live heap within the budget plus a
// fixed allowance (40 MiB together), and the least recently used sessions
// are dropped. An unbounded store keeps all 90 MB.
//
// The hook is `cat` of a prepared reply (no shell), the fastest process
// that answers; the server runs in-process so that its heap can be
// measured without the race detector's shadow memory (which a child's
// RSS would include). 1 500 sessions keep the test near 8 s under -race
// on two cores (a loaded machine: minutes); the bound does not depend on
// the count once the store is full (after ~280 sessions), and 90 MB is
// still more than twice what the check allows.
func TestSessionStateStaysBounded(t *testing.T) {
	const (
		budget    = 16 << 20
		nSessions = 1500
		// allowance covers the rest of the process: the test's own
		// client, the HTTP server, the runtime, buffers in flight.
		allowance = 24 << 20
	)
	store := sessions.NewMemoryWithLimits(budget, time.Hour)
	f := start(t, "hooks: {}\n", nil, func(o *Options) { o.Sessions = store })
	reply := filepath.Join(f.dir, "state.json")
	blob := strings.Repeat("x", 60_000)
	if err := os.WriteFile(reply, []byte(`{"state":{"blob":"`+blob+`"}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hook := "cat " + reply
	if _, err := f.store.Approve("pre_llm_call", hook); err != nil {
		t.Fatal(err)
	}
	f.writeConfig("hooks:\n  pre_llm_call:\n    - command: " + hook + "\n")
	f.waitGeneration(2)

	// The live heap (after a collection) at regular points, and the peak
	// heap in use between them (garbage included).
	var liveMax, inuseMax uint64
	measure := func(gc bool) {
		if gc {
			runtime.GC()
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		inuseMax = max(inuseMax, ms.HeapInuse)
		if gc {
			liveMax = max(liveMax, ms.HeapAlloc)
		}
	}
	measure(true)
	base := liveMax

	begin := time.Now()
	work := make(chan int)
	var failed atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				r := f.dispatch("pre_llm_call", fmt.Sprintf(`{"session_id":"s-%d"}`, i))
				if r.status != http.StatusOK || strings.Contains(string(r.body), "state patch refused") {
					failed.Add(1)
				}
			}
		}()
	}
	for i := 0; i < nSessions; i++ {
		work <- i
		if i%100 == 0 {
			measure(i%500 == 0)
		}
	}
	close(work)
	wg.Wait()
	measure(true)
	took := time.Since(begin)

	t.Logf("%d sessions × 60 KB in %v: store %d KiB in %d sessions (%d evicted); live heap %d KiB at most (%d KiB before), heap in use %d KiB at most; budget %d KiB",
		nSessions, took.Round(time.Millisecond), store.Bytes()>>10, store.Len(), store.Evicted(), liveMax>>10, base>>10, inuseMax>>10, budget>>10)
	if n := failed.Load(); n != 0 {
		t.Fatalf("%d dispatches failed or had their state refused", n)
	}
	if store.Bytes() > budget {
		t.Errorf("the store counts %d bytes, over its budget %d", store.Bytes(), budget)
	}
	if store.Evicted() < nSessions-budget/60_000 {
		t.Errorf("only %d nSessions evicted", store.Evicted())
	}
	if liveMax > budget+allowance {
		t.Errorf("live heap %d KiB, over the bound %d KiB (budget + allowance)", liveMax>>10, (budget+allowance)>>10)
	}
	// Garbage may make the heap in use up to twice the live heap (GOGC=100).
	if inuseMax > 2*(budget+allowance) {
		t.Errorf("heap in use %d KiB, over the bound %d KiB", inuseMax>>10, 2*(budget+allowance)>>10)
	}
	// The most recent session is still there; the first is gone.
	if o := f.outcome("pre_llm_call", fmt.Sprintf(`{"session_id":"s-%d"}`, nSessions-1)); len(hooksOf(t, o)) != 1 {
		t.Fatalf("probe: %v", o)
	}
	if got, _ := store.Load("s-0"); got.State != nil {
		t.Error("the least recently used session was kept")
	}
	if got, _ := store.Load(fmt.Sprintf("s-%d", nSessions-1)); got.State["blob"] != blob {
		t.Error("the most recent session was dropped")
	}
}

// A request body must arrive within BodyTimeout: a client that sends the
// headers and then never finishes the body, or dribbles it a byte at a
// time, gets 408 with a JSON error when the deadline passes and its
// connection is closed; meanwhile it holds no dispatch slot (another
// client is served with a single slot and almost no queue wait).
func TestSlowBodyGets408(t *testing.T) {
	const bodyTimeout = 300 * time.Millisecond
	f := start(t, "hooks: {}\n", nil, func(o *Options) {
		o.BodyTimeout = bodyTimeout
		o.MaxConcurrent = 1
		o.QueueWait = time.Millisecond
	})
	headers := "POST /v1/dispatch/pre_tool_call HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
	dial := func() net.Conn {
		c, err := net.Dial("unix", f.sock)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	// The body deadline starts when the server reads a request, after its
	// headers were sent: the earliest a 408 can be due is bodyTimeout
	// after this. (Taken after the writes, a loaded machine could run the
	// server's reads before the test's clock.)
	begin := time.Now()
	// One client stops after part of the body.
	stalled := dial()
	if _, err := stalled.Write([]byte(headers + `{"tool_name"`)); err != nil {
		t.Fatal(err)
	}
	// Another sends a byte every 20 ms: never idle for long, but never done
	// within the timeout either (100 bytes would take 2 s).
	dribbler := dial()
	if _, err := dribbler.Write([]byte(headers)); err != nil {
		t.Fatal(err)
	}
	stopDribble := make(chan struct{})
	dribbled := make(chan struct{})
	go func() {
		defer close(dribbled)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stopDribble:
				return
			case <-tick.C:
				if _, err := dribbler.Write([]byte(" ")); err != nil {
					return // the server closed the connection
				}
			}
		}
	}()
	defer func() { close(stopDribble); <-dribbled }()

	// Meanwhile the single dispatch slot is free for others.
	if r := f.dispatch("pre_tool_call", `{}`); r.status != http.StatusOK {
		t.Fatalf("another client got %d %s while two bodies were pending", r.status, r.body)
	}
	for name, c := range map[string]net.Conn{"stalled": stalled, "dribbling": dribbler} {
		c.SetReadDeadline(time.Now().Add(deadline))
		br := bufio.NewReader(c)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("%s body: no answer: %v", name, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestTimeout || resp.Header.Get("Content-Type") != "application/json" ||
			!strings.Contains(string(b), `"error":"the request body did not arrive within 300ms"`) {
			t.Errorf("%s body: %d %q %s", name, resp.StatusCode, resp.Header.Get("Content-Type"), b)
		}
		// The connection is closed after the answer (an end of file, or a
		// reset when the server drops unread bytes): it holds nothing.
		var ne net.Error
		if _, err := br.ReadByte(); err == nil || errors.As(err, &ne) && ne.Timeout() {
			t.Errorf("%s body: connection still open after the 408: %v", name, err)
		}
	}
	if took := time.Since(begin); took < bodyTimeout {
		t.Errorf("answered after %v, before the body timeout %v", took, bodyTimeout)
	}
	f.waitLog(`status=408 error="the request body did not arrive within 300ms"`)
}

// A dispatch whose body arrived in time is not cut short by the body's
// deadline however long its hooks run: the deadline ends with the body.
// (net/http clears a connection's read deadline when it starts watching
// for the client going away; this guards that the 408 never reaches a
// dispatch in progress.)
func TestBodyTimeoutEndsWithTheBody(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, func(o *Options) { o.BodyTimeout = 200 * time.Millisecond })
	// The hook outlives the body timeout several times over.
	hook := f.script("slow.sh", "cat >/dev/null\nsleep 1\necho '{\"context\":\"finished\"}'\n")
	if _, err := f.store.Approve("pre_llm_call", hook); err != nil {
		t.Fatal(err)
	}
	f.writeConfig("hooks:\n  pre_llm_call:\n    - command: " + hook + "\n")
	f.waitGeneration(2)
	r := f.dispatch("pre_llm_call", `{}`)
	if r.status != http.StatusOK || !strings.Contains(string(r.body), `"context":"finished"`) {
		t.Fatalf("a dispatch longer than the body timeout: %d %s", r.status, r.body)
	}
}

// At most MaxConns connections are open, yet connections left idle do not
// keep a new client out: with MaxConns idle keep-alive connections, a new
// client is served at once and the connection idle the longest is closed
// to make room (it reads EOF); the server answers everyone else as before.
// (A connection in a request is never closed for room: the attack test
// TestServeConnectionCap holds that a new client waits then.)
func TestMaxConnsCapsOpenConnections(t *testing.T) {
	const maxConns = 4
	f := start(t, "hooks: {}\n", nil, func(o *Options) { o.MaxConns = maxConns })
	f.client.CloseIdleConnections()
	// maxConns connections, each served once and then left idle: all are
	// accepted and counted.
	var held []net.Conn
	var readers []*bufio.Reader
	for i := 0; i < maxConns; i++ {
		c, err := net.Dial("unix", f.sock)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
		c.SetReadDeadline(time.Now().Add(deadline))
		br := bufio.NewReader(c)
		resp, err := http.ReadResponse(br, nil)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("connection %d: %v %v", i, resp, err)
		}
		resp.Body.Close()
		held = append(held, c)
		readers = append(readers, br)
	}

	other := unixClient(f.sock)
	other.Timeout = deadline
	resp, err := other.Get("http://x/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("a client beyond %d idle connections: %v %v", maxConns, resp, err)
	}
	resp.Body.Close()
	other.CloseIdleConnections()
	// The oldest idle connection was closed for it, unless the fixture's
	// own client, closing its connection just before, made room first.
	// Each held connection is either closed (EOF) or still answers.
	for i, c := range held {
		c.SetReadDeadline(time.Now().Add(deadline))
		fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
		resp, err := http.ReadResponse(readers[i], nil)
		switch {
		case err == nil && resp.StatusCode == 200:
			resp.Body.Close()
		case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE):
		default:
			t.Fatalf("held connection %d: %v %v", i, resp, err)
		}
		c.Close()
	}
	for i := 0; i < 2*maxConns; i++ {
		if r := f.dispatch("pre_tool_call", `{}`); r.status != 200 {
			t.Fatalf("after the cap: %d %s", r.status, r.body)
		}
	}
}
