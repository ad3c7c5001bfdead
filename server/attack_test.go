//go:build unix

package server

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// dribble writes s to c one byte every gap until it is written or the
// server closes the connection; it reports how far it got.
func dribble(c net.Conn, s string, gap time.Duration) (sent int, err error) {
	for i := range len(s) {
		if _, err := c.Write([]byte{s[i]}); err != nil {
			return i, err
		}
		time.Sleep(gap) // the attack's pace, not a wait for anything
	}
	return len(s), nil
}

// Attack: a local process sends its request's head one byte at a time,
// each byte well within any idle bound, to hold a connection (and, at
// --max-conns, everyone else's place) for as long as the server lets a
// head take. The head must be whole within DefaultHeaderTimeout (2 s):
// the connection is closed then, long before the 10 s it used to get.
// The hang guard is four times the bound, so only a server that lets a
// head take far longer fails it.
func TestSlowHeadIsCut(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, nil)
	c, err := net.Dial("unix", f.sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	head := "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: " + strings.Repeat("a", 600) + "\r\n\r\n"
	begin := time.Now()
	done := make(chan struct{})
	var sent int
	go func() {
		defer close(done)
		sent, _ = dribble(c, head, 20*time.Millisecond)
	}()
	c.SetReadDeadline(time.Now().Add(deadline))
	_, rerr := c.Read(make([]byte, 1))
	took := time.Since(begin)
	c.Close()
	<-done
	if rerr == nil {
		t.Fatalf("the server answered a head sent a byte at a time")
	}
	if guard := 4 * 2 * time.Second; took > guard {
		t.Fatalf("a head dribbled a byte every 20 ms held its connection %v (%d of %d bytes sent), more than %v", took, sent, len(head), guard)
	}
	t.Logf("cut after %v, %d of %d bytes of the head", took, sent, len(head))
}

// A slow but real client is never cut by the head's bound: its head
// arrives at once and its body a byte at a time over several times the
// head's bound (well within BodyTimeout), and it is answered.
func TestSlowBodyOutlivesTheHeadBound(t *testing.T) {
	const headTimeout = 100 * time.Millisecond
	f := start(t, "hooks: {}\n", nil, func(o *Options) { o.HeaderTimeout = headTimeout })
	c, err := net.Dial("unix", f.sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	body := `{"tool_name":"terminal"}`
	head := "POST /v1/dispatch/pre_tool_call HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n\r\n"
	if _, err := c.Write([]byte(head)); err != nil {
		t.Fatal(err)
	}
	// 24 bytes, one every 25 ms: 600 ms, six times the head's bound.
	if _, err := dribble(c, body, 25*time.Millisecond); err != nil {
		t.Fatalf("the server cut a body in progress: %v", err)
	}
	c.SetReadDeadline(time.Now().Add(deadline))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer to a slow body: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("slow body: %d %s", resp.StatusCode, b)
	}
}

// Attack: a local process names an event of 500 KB (the head's limit is
// 1 MB) with terminal controls in it. The 404 names it cut to a bound and
// escaped, the request line in the log too, and the did-you-mean costs
// no more than for a short name.
func TestLongEventNameIsBounded(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, nil)
	name := "\x1b]0;pwned\x07" + strings.Repeat("a", 500<<10)
	begin := time.Now()
	r := f.dispatch(url.PathEscape(name), `{}`)
	took := time.Since(begin)
	if r.status != http.StatusNotFound {
		t.Fatalf("status %d %.200s", r.status, r.body)
	}
	if len(r.body) > 1024 {
		t.Errorf("the 404 is %d bytes: it echoes the name whole", len(r.body))
	}
	msg, _ := r.json(t)["error"].(string)
	if strings.ContainsAny(msg, "\x1b\x07") || !strings.Contains(msg, `\x1b]0;pwned\x07aaa`) {
		t.Errorf("error %.300q: the name's controls are not escaped", msg)
	}
	f.waitLog("status=404")
	for _, line := range strings.Split(f.logs.String(), "\n") {
		if strings.Contains(line, "msg=dispatch") && len(line) > 2048 {
			t.Errorf("a log line of %d bytes for one request", len(line))
		}
	}
	// A hang guard: scoring the name for a did-you-mean took 14 s.
	if took > 5*time.Second {
		t.Errorf("one 404 took %v", took)
	}
}

// Attack: between verifyProjectDir's look at a project directory and its
// open, the directory is swapped for a FIFO nobody writes (opening a FIFO
// for reading waits for a writer: the request's goroutine must not), or for
// a symlink to a directory elsewhere (the server keeps what it loaded by
// path: a symlink is refused, as when Lstat sees one). The swap happens at
// the seam between the two, so the race is won every time.
func TestVerifyProjectDirNeverBlocksOnASwappedFIFO(t *testing.T) {
	for _, kind := range []string{"fifo", "symlink"} {
		t.Run(kind, func(t *testing.T) {
			root := shortDir(t)
			d := filepath.Join(root, "proj")
			if err := os.Mkdir(d, 0o700); err != nil {
				t.Fatal(err)
			}
			afterProjectLstat = func(string) {
				if err := os.Rename(d, d+".away"); err != nil {
					t.Error(err)
				}
				var err error
				if kind == "fifo" {
					err = syscall.Mkfifo(d, 0o600)
				} else {
					err = os.Symlink(d+".away", d)
				}
				if err != nil {
					t.Error(err)
				}
			}
			defer func() { afterProjectLstat = nil }()
			done := make(chan error, 1)
			go func() { done <- verifyProjectDir(d) }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), "project directory "+d) {
					t.Fatalf("a %s swapped in: %v, want a refusal", kind, err)
				}
				t.Logf("refused: %v", err)
			case <-time.After(10 * time.Second): // a hang guard: the open blocks for ever
				// Unblock the stuck open so the test can end.
				if w, err := os.OpenFile(d, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					w.Close()
				}
				<-done
				t.Fatalf("verifyProjectDir blocked opening a %s swapped in for the directory", kind)
			}
		})
	}
}

// A server that cuts a forwarded call (a bound reached, a connection
// closed for room) costs the caller time, never a decision: Forward
// returns an error and no outcome, and `hook` dispatches by itself.
func TestForwardCutIsAnError(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/healthz" {
			return // 200
		}
		c, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			c.Close() // the head was read; the connection goes before any answer
		}
	}))
	sock, ln := privateSocket(t)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	defer srv.Close()
	o, err := Forward(context.Background(), "unix://"+sock, url.Values{}, "pre_tool_call", map[string]any{"tool_name": "terminal"}, version)
	if err == nil || o.Decision != "" {
		t.Fatalf("a cut forward: %+v, %v; want an error and no decision", o, err)
	}
	t.Logf("the caller hears: %v", err)
}
