//go:build linux

package attacktest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
	"github.com/hermes-hooks/hermes-hooks/internal/testbin"
)

// server is a running `hermes-hooks serve` on a Unix socket.
type server struct {
	e      *env
	cmd    *exec.Cmd
	sock   string
	log    *lockedBuf
	client *http.Client
	done   chan struct{}
}

type lockedBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *lockedBuf) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// shortSock is a socket path short enough for sun_path.
func shortSock(t *testing.T) string {
	dir, err := os.MkdirTemp("", "hhat-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "s.sock")
}

func (e *env) serve(sock string, args ...string) *server {
	e.t.Helper()
	s := &server{e: e, sock: sock, log: &lockedBuf{}, done: make(chan struct{})}
	s.cmd = exec.Command(binary, append([]string{"serve", "--listen", "unix://" + sock}, args...)...)
	s.cmd.Dir, s.cmd.Env, s.cmd.Stderr = e.dir, e.vars, s.log
	if err := s.cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	go func() { s.cmd.Wait(); close(s.done) }()
	e.t.Cleanup(func() {
		select {
		case <-s.done:
		default:
			s.cmd.Process.Kill()
			<-s.done
		}
		if e.t.Failed() {
			e.t.Logf("server log:\n%s", s.log.String())
		}
	})
	s.client = &http.Client{Transport: &http.Transport{
		MaxIdleConnsPerHost: 16,
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", sock)
		},
	}}
	waitFor(e.t, "the server to answer", func() bool {
		select {
		case <-s.done:
			e.t.Fatalf("serve exited: %s", s.log.String())
		default:
		}
		resp, err := s.client.Get("http://x/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == 200
	})
	return s
}

func (s *server) dispatch(event, body string) (int, string) {
	resp, err := s.client.Post("http://x/v1/dispatch/"+event, "application/json", strings.NewReader(body))
	if err != nil {
		s.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Hot reload never serves a half-written config (issue 12, item 7): a
// config rewritten in place (truncate, then write) in a tight loop, with the
// same content, must not make a single `rm -rf /` dispatch come back
// unblocked. The old server answered "none" to 83 of 286. Once the loop
// stops, a new config is still picked up.
func TestServeReloadNeverAppliesAHalfWrittenConfig(t *testing.T) {
	e := newEnv(t)
	e.write("guard.sh", "#!/bin/sh\necho '{\"action\": \"block\", \"message\": \"no\"}'\n", 0o755)
	config := "hooks:\n  pre_tool_call:\n    - command: " + e.path("guard.sh") + "\n      matcher: terminal\n"
	e.write("home/config.yaml", config, 0o644)
	e.run("", "approve", e.path("guard.sh"))
	s := e.serve(shortSock(t))

	stop := make(chan struct{})
	var writes atomic.Int64
	loop := make(chan struct{})
	go func() {
		defer close(loop)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if f, err := os.OpenFile(e.path("home/config.yaml"), os.O_WRONLY|os.O_TRUNC, 0); err == nil {
				// Truncated, then written in two halves by a slow writer:
				// the window a reload could land in. (The pause is the
				// attacker's pace, not a wait for anything.)
				f.Write([]byte(config[:len(config)/2]))
				time.Sleep(2 * time.Millisecond)
				f.Write([]byte(config[len(config)/2:]))
				f.Close()
				writes.Add(1)
			}
		}
	}()
	// At least 300 dispatches, over at least three seconds, so that
	// several reloads are attempted while the file is being rewritten.
	n, unblocked := 0, 0
	for start := time.Now(); n < 300 || time.Since(start) < 3*time.Second; n++ {
		code, body := s.dispatch("pre_tool_call", `{"tool_name":"terminal","args":{"command":"rm -rf /"}}`)
		if code != 200 || !strings.Contains(body, `"decision":"block"`) {
			if unblocked == 0 {
				t.Logf("first unblocked dispatch: %d %s", code, body)
			}
			unblocked++
		}
	}
	close(stop)
	<-loop
	t.Logf("%d dispatches during %d in-place rewrites: %d not blocked", n, writes.Load(), unblocked)
	if unblocked != 0 {
		t.Fatalf("%d of %d dispatches were not blocked while the config was being rewritten", unblocked, n)
	}
	// Reloads still happen once the file is quiet.
	e.write("home/config.yaml", "hooks: {}\n", 0o644)
	waitFor(t, "the new config", func() bool {
		_, body := s.dispatch("pre_tool_call", `{"tool_name":"terminal","args":{"command":"rm -rf /"}}`)
		return strings.Contains(body, `"decision":"none"`)
	})
}

// A writer that pauses half-way through rewriting the config — for longer
// than the settle period — still never has its half file applied: it keeps
// the file open, and a reload waits for that.
func TestServeReloadWaitsForAStalledWriter(t *testing.T) {
	testbin.SkipUnlessLinuxFeatures(t, "read leases: a writer that stalls past the settle period is not seen")
	e := newEnv(t)
	e.write("guard.sh", "#!/bin/sh\necho '{\"action\": \"block\", \"message\": \"no\"}'\n", 0o755)
	config := "hooks:\n  pre_tool_call:\n    - command: " + e.path("guard.sh") + "\n      matcher: terminal\n"
	e.write("home/config.yaml", config, 0o644)
	e.run("", "approve", e.path("guard.sh"))
	s := e.serve(shortSock(t))
	f, err := os.OpenFile(e.path("home/config.yaml"), os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte(config[:len(config)/2]))
	gen := func() string {
		resp, err := s.client.Get("http://x/healthz")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	// Dispatch for a second — five settle periods — while the writer holds
	// the half-written file open.
	for start := time.Now(); time.Since(start) < time.Second; {
		if _, body := s.dispatch("pre_tool_call", `{"tool_name":"terminal","args":{"command":"rm -rf /"}}`); !strings.Contains(body, `"decision":"block"`) {
			t.Fatalf("a half-written config was applied: %s (%s)", body, gen())
		}
	}
	f.Write([]byte(config[len(config)/2:]))
	f.Close()
	if !strings.Contains(gen(), `"generation":1`) {
		t.Fatalf("no reload should have happened while the file was half-written: %s", gen())
	}
}

// serve stays bounded (issue 12, item 8): 4 000 sessions each patching
// ~60 KB of state (240 MB in all) keep the server's memory within the
// session budget plus a fixed allowance; the least recently used sessions
// are dropped.
func TestServeSessionStateStaysBounded(t *testing.T) {
	e := newEnv(t)
	blob := strings.Repeat("x", 60_000)
	e.write("state.json", `{"state": {"blob": "`+blob+`"}}`+"\n", 0o644)
	// The hook keeps the payload it was given (the last one: the probes
	// below run one at a time) and patches the session's state with 60 KB.
	e.write("patch.sh", "#!/bin/sh\ncat > \""+e.path("in.json")+"\"\ncat \""+e.path("state.json")+"\"\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  pre_llm_call:\n    - command: "+e.path("patch.sh")+"\n", 0o644)
	e.run("", "approve", e.path("patch.sh"))
	// A small budget, so that few sessions outgrow it many times over: 1,200
	// sessions of 60 KB are 72 MB kept by an unbounded store, more than
	// twice the bound below, and each costs a hook's three processes.
	const budget = 2 << 20
	s := e.serve(shortSock(t), "--session-budget", strconv.Itoa(budget))
	const warm, sessions = 20, 1200
	var wg sync.WaitGroup
	work := make(chan int)
	var failed atomic.Int64
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				code, _ := s.dispatch("pre_llm_call", fmt.Sprintf(`{"session_id":"s-%d"}`, i))
				if code != 200 {
					failed.Add(1)
				}
			}
		}()
	}
	// The baseline: serve's runtime, its HTTP server and a store of warm
	// sessions (1.2 MB, within the budget).
	base := 0
	peak := 0
	for i := 0; i < sessions; i++ {
		work <- i
		if i == warm {
			base = rssKB(t, s.cmd.Process.Pid)
		}
		if i%200 == 0 {
			peak = max(peak, rssKB(t, s.cmd.Process.Pid))
		}
	}
	close(work)
	wg.Wait()
	peak = max(peak, rssKB(t, s.cmd.Process.Pid))
	// The budget, plus a generous allowance for garbage not yet collected
	// and the requests in flight: less than half of the 72 MB that an
	// unbounded store would keep (160 MB of RSS, measured).
	bound := base + budget/1024 + 32*1024
	t.Logf("%d sessions × 60 KB through serve: peak RSS %d KiB (bound %d KiB: baseline %d KiB, budget %d KiB)", sessions, peak, bound, base, budget/1024)
	if failed.Load() != 0 {
		t.Fatalf("%d dispatches failed", failed.Load())
	}
	if peak > bound {
		t.Fatalf("peak RSS %d KiB exceeds the bound %d KiB", peak, bound)
	}
	// The most recent session is still there, its state in the payload;
	// the first was dropped, and its next firing starts with no state.
	for _, c := range []struct {
		id   string
		kept bool
	}{{fmt.Sprintf("s-%d", sessions-1), true}, {"s-0", false}} {
		if code, body := s.dispatch("pre_llm_call", `{"session_id":"`+c.id+`","probe":1}`); code != 200 {
			t.Fatalf("probe %s: %d %s", c.id, code, body)
		}
		in, err := os.ReadFile(e.path("in.json"))
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.Contains(in, []byte(blob)); got != c.kept {
			t.Errorf("session %s: its state in the hook's payload: %v, want %v", c.id, got, c.kept)
		}
	}
}

func rssKB(t *testing.T, pid int) int {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "VmRSS:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	return 0
}

// A client that sends the headers and then never the body is cut off at
// --body-timeout with 408, and holds no dispatch slot meanwhile.
func TestServeBodyDeadline(t *testing.T) {
	e := newEnv(t)
	e.write("home/config.yaml", "hooks: {}\n", 0o644)
	sock := shortSock(t)
	s := e.serve(sock, "--body-timeout", "300ms", "--max-concurrent", "1")
	c, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /v1/dispatch/pre_tool_call HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"tool")
	// Meanwhile the server answers others, even with one slot.
	if code, _ := s.dispatch("pre_tool_call", `{}`); code != 200 {
		t.Fatalf("another client got %d", code)
	}
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer to the slow body: %v", err)
	}
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Fatalf("status %d, want 408", resp.StatusCode)
	}
}

// At most --max-conns connections are open: with every one in a request
// (its headers begun, not finished), one more waits until another closes.
// (Connections not in a request make room instead: see
// TestServeTenThousandIdleConnections.)
func TestServeConnectionCap(t *testing.T) {
	e := newEnv(t)
	// Each held connection is in a dispatch whose hook runs until the
	// test ends: its pid file says the server is in that request.
	e.write("slow.sh", "#!/bin/sh\necho $$ > \"$WORK/hook.$$.tmp\"\nmv \"$WORK/hook.$$.tmp\" \"$WORK/hook.$$.pid\"\nexec sleep 3600\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: "+e.path("slow.sh")+"\n", 0o644)
	e.run("", "approve", e.path("slow.sh"))
	sock := shortSock(t)
	s := e.serve(sock, "--max-conns", "4")
	// The client of serve() holds an idle keep-alive connection; open
	// busy ones up to the cap.
	s.client.CloseIdleConnections()
	var idle []net.Conn
	for i := 0; i < 4; i++ {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(c, "POST /v1/dispatch/pre_tool_call HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"); err != nil {
			t.Fatal(err)
		}
		idle = append(idle, c)
	}
	waitFor(t, "four hooks running", func() bool {
		m, _ := filepath.Glob(e.path("hook.*.pid"))
		return len(m) == 4
	})
	answered := make(chan int, 1)
	go func() {
		c := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", sock)
		}}}
		resp, err := c.Get("http://x/healthz")
		if err != nil {
			answered <- -1
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	select {
	case code := <-answered:
		t.Fatalf("a fifth connection was served (%d) while four were open", code)
	case <-time.After(300 * time.Millisecond):
		// Waiting, as it should: this is the only fixed wait, and it
		// proves an absence; the positive half below is awaited.
	}
	idle[0].Close()
	select {
	case code := <-answered:
		if code != 200 {
			t.Fatalf("status %d", code)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the waiting connection was never served")
	}
	for _, c := range idle[1:] {
		c.Close()
	}
}

// A second server cannot start on the same socket path while the first
// runs, even after the first one's socket file was deleted.
func TestServeSecondServerRefusedByLock(t *testing.T) {
	e := newEnv(t)
	e.write("home/config.yaml", "hooks: {}\n", 0o644)
	sock := shortSock(t)
	e.serve(sock)
	if err := os.Remove(sock); err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuf
	c := e.cmd("", "serve", "--listen", "unix://"+sock)
	c.Stderr = &stderr
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- c.Wait() }()
	select {
	case err := <-exited:
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "s.sock.lock") {
			t.Fatalf("second server: %v %s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		c.Process.Kill()
		t.Fatalf("a second server started on the same path: %s", stderr.String())
	}
}

// SIGHUP ends serve as cleanly as SIGTERM: the running hook is killed and
// the socket removed.
func TestServeSIGHUP(t *testing.T) {
	e := newEnv(t)
	e.write("slow.sh", "#!/bin/sh\necho $$ > \"$WORK/hook.pid\"\nexec sleep 3600\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: "+e.path("slow.sh")+"\n", 0o644)
	e.run("", "approve", e.path("slow.sh"))
	sock := shortSock(t)
	s := e.serve(sock, "--shutdown-timeout", "2s")
	go func() {
		// The request fails when the server stops; only the hook matters.
		if resp, err := s.client.Post("http://x/v1/dispatch/pre_tool_call", "application/json", strings.NewReader(`{}`)); err == nil {
			resp.Body.Close()
		}
	}()
	pid := readPid(t, e.path("hook.pid"))
	s.cmd.Process.Signal(syscall.SIGHUP)
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop on SIGHUP")
	}
	if err := proctest.AwaitExit(pid, 60*time.Second); err != nil {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("hook %d outlived the server's SIGHUP: %v", pid, err)
	}
	if _, err := os.Lstat(sock); err == nil {
		t.Fatal("the socket was left behind")
	}
}
