//go:build linux

package attacktest

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// logServer is a serve whose stderr the test chose.
type logServer struct {
	cmd    *exec.Cmd
	client *http.Client
	done   chan struct{}
}

// serveWithStderr starts serve on a Unix socket with stderr as given and
// waits until it answers (it cannot read the log for the listening line:
// stderr may be a pipe nobody reads).
func (e *env) serveWithStderr(stderr *os.File, args ...string) *logServer {
	e.t.Helper()
	sock := shortSock(e.t)
	s := &logServer{done: make(chan struct{})}
	s.cmd = exec.Command(binary, append([]string{"serve", "--listen", "unix://" + sock}, args...)...)
	s.cmd.Dir, s.cmd.Env, s.cmd.Stderr = e.dir, e.vars, stderr
	if err := s.cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	go func() { s.cmd.Wait(); close(s.done) }()
	e.t.Cleanup(func() {
		s.cmd.Process.Kill()
		<-s.done
	})
	s.client = &http.Client{
		// A hang guard, not a measure: a dispatch of no hook takes well
		// under a millisecond; the stalled server never answered.
		Timeout: 60 * time.Second,
		Transport: &http.Transport{
			MaxIdleConnsPerHost: 8,
			DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
				var d net.Dialer
				return d.DialContext(ctx, "unix", sock)
			},
		}}
	waitFor(e.t, "the server to answer", func() bool {
		select {
		case <-s.done:
			e.t.Fatalf("serve exited: %v", s.cmd.ProcessState)
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

func (s *logServer) dispatch(t *testing.T) error {
	resp, err := s.client.Post("http://x/v1/dispatch/pre_tool_call", "application/json",
		strings.NewReader(`{"tool_name":"terminal","args":{"command":"ls"}}`))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != 200 {
		t.Errorf("dispatch: status %d", resp.StatusCode)
	}
	return nil
}

// dropped is log_lines_dropped as /healthz and /v1/stats report it (the
// two must agree while nothing is logged in between).
func (s *logServer) dropped(t *testing.T) float64 {
	t.Helper()
	n := s.droppedAt(t, "/healthz")
	if m := s.droppedAt(t, "/v1/stats"); m < n {
		t.Errorf("/v1/stats log_lines_dropped %v < /healthz's %v", m, n)
	}
	return n
}

func (s *logServer) droppedAt(t *testing.T, path string) float64 {
	t.Helper()
	resp, err := s.client.Get("http://x" + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var h map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
		t.Fatal(err)
	}
	n, ok := h["log_lines_dropped"].(float64)
	if !ok {
		t.Fatalf("%s has no log_lines_dropped: %v", path, h)
	}
	return n
}

// Issue 28: a host that starts serve with stderr on a pipe it never reads
// (subprocess.Popen(..., stderr=PIPE)) got about 750 dispatches answered:
// then the pipe (64 KiB) was full, the log write of the next dispatch
// blocked, and every later one hung until the client gave up. Now 10 000
// dispatches are each answered in their usual time (a 10 s hang guard per
// request), with every dispatch logged (--log-level debug, the worst case:
// the default level logs none of these), and the lines the pipe did not
// take are counted in /healthz. The config has no hook: each request is
// still a full dispatch and log line, and the test stays a few seconds
// long.
func TestServeNeverStallsOnAnUnreadStderr(t *testing.T) {
	e := newEnv(t)
	e.write("home/config.yaml", "hooks: {}\n", 0o644)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close() // open and never read, as the host does
	s := e.serveWithStderr(w, "--log-level", "debug")
	w.Close()

	const total, workers = 10000, 4
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range total / workers {
				if err := s.dispatch(t); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("after %s: a dispatch was not answered: %v", time.Since(start).Round(time.Millisecond), err)
	}
	t.Logf("%d dispatches in %s", total, time.Since(start).Round(time.Millisecond))
	if n := s.dropped(t); n < 1000 {
		t.Errorf("log_lines_dropped = %v, want the lines the full pipe did not take counted", n)
	}
}

// A stderr whose reader went away: a write to it raised SIGPIPE, which
// kills a Go program that does not catch it. The server keeps answering
// and counts the lines as dropped.
func TestServeOutlivesAClosedStderr(t *testing.T) {
	e := newEnv(t)
	e.write("home/config.yaml", "hooks: {}\n", 0o644)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // the reader is gone before the first line
	s := e.serveWithStderr(w, "--log-level", "debug")
	w.Close()
	for range 20 {
		if err := s.dispatch(t); err != nil {
			t.Fatalf("dispatch: %v (server: %v)", err, s.cmd.ProcessState)
		}
	}
	// The lines are written (and refused) by serve's log goroutine after
	// each answer: the count catches up, it is not there with the answer.
	waitFor(t, "log_lines_dropped to count all 20 lines", func() bool { return s.dropped(t) >= 20 })
}

// --log-file is reopened by its name on SIGUSR1: rename it (log rotation),
// signal, and the next lines land in a new file under the old name.
func TestServeLogFileReopenedOnSIGUSR1(t *testing.T) {
	e := newEnv(t)
	e.write("home/config.yaml", "hooks: {}\n", 0o644)
	logPath := e.path("serve.log")
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	s := e.serveWithStderr(devnull, "--log-file", logPath)
	has := func(path, substr string) bool {
		b, err := os.ReadFile(path)
		return err == nil && strings.Contains(string(b), substr)
	}
	waitFor(t, "the listening line in the log file", func() bool { return has(logPath, "msg=listening") })
	if fi, err := os.Stat(logPath); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("log file: %v %v", fi.Mode(), err)
	}
	if err := os.Rename(logPath, logPath+".1"); err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Process.Signal(syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the reopened log file", func() bool { return has(logPath, "log file reopened") })
	// A refused request (unknown event, logged at the default level) lands
	// in the new file, not the renamed one.
	resp, err := s.client.Post("http://x/v1/dispatch/no_such_event", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	waitFor(t, "the refusal in the new file", func() bool { return has(logPath, "event=no_such_event") })
	if has(logPath+".1", "no_such_event") || !has(logPath+".1", "msg=listening") {
		t.Error("the renamed file got lines after the reopen, or lost its own")
	}
	select {
	case <-s.done:
		t.Fatalf("serve died: %v", s.cmd.ProcessState)
	default:
	}
}

// At the default level one line per dispatch is gone: a dispatch that
// blocks is logged, one with nothing to say is not (issue 28).
func TestServeDefaultLevelLogsBlocksNotEveryDispatch(t *testing.T) {
	e := newEnv(t)
	e.write("block.sh", "#!/bin/sh\ncat >/dev/null\necho '{\"action\": \"block\", \"message\": \"no\"}'\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: "+e.path("block.sh")+"\n      matcher: terminal\n", 0o644)
	e.run("", "approve", "--all")
	s := e.serve(shortSock(t))
	if code, body := s.dispatch("pre_tool_call", `{"tool_name":"read_file","args":{"path":"/x"}}`); code != 200 || !strings.Contains(body, `"decision":"none"`) {
		t.Fatalf("quiet dispatch: %d %s", code, body)
	}
	if code, body := s.dispatch("pre_tool_call", `{"tool_name":"terminal","args":{"command":"ls"}}`); code != 200 || !strings.Contains(body, `"decision":"block"`) {
		t.Fatalf("blocking dispatch: %d %s", code, body)
	}
	// Lines reach the log in order: once the block's is there, the quiet
	// dispatch's would be too.
	waitFor(t, "the block's log line", func() bool { return strings.Contains(s.log.String(), "decision=block") })
	if n := strings.Count(s.log.String(), "msg=dispatch"); n != 1 {
		t.Errorf("%d dispatch lines at the default level, want only the block's:\n%s", n, s.log.String())
	}
}
