//go:build linux

package attacktest

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// startServeLog starts serve with --log-file path and returns it with a
// channel closed when it exits and its stderr.
func (e *env) startServeLog(path string) (*exec.Cmd, chan struct{}, *lockedBuf) {
	e.t.Helper()
	stderr := &lockedBuf{}
	c := exec.Command(binary, "serve", "--listen", "unix://"+shortSock(e.t), "--log-file", path)
	c.Dir, c.Env, c.Stderr = e.dir, e.vars, stderr
	if err := c.Start(); err != nil {
		e.t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { c.Wait(); close(done) }()
	e.t.Cleanup(func() {
		c.Process.Kill()
		<-done
	})
	return c, done, stderr
}

// refusedLog waits until serve exits, failing the test if harm shows
// first (harm says what it is, or ""), then checks it exited 1 saying why.
func refusedLog(t *testing.T, c *exec.Cmd, done chan struct{}, stderr *lockedBuf, harm func() string, why string) {
	t.Helper()
	var seen string
	waitFor(t, "serve to refuse the log file", func() bool {
		select {
		case <-done:
			return true
		default:
		}
		seen = harm()
		return seen != ""
	})
	if seen != "" {
		t.Fatalf("serve used the log file: %s (stderr: %s)", seen, stderr.String())
	}
	if code := c.ProcessState.ExitCode(); code != 1 || !strings.Contains(stderr.String(), why) {
		t.Errorf("serve exited %d, want 1 saying %q; stderr:\n%s", code, why, stderr.String())
	}
}

// Issue 31 item 13: a symbolic link at --log-file's path made serve append
// its log (commands, paths, hook output) to the file it names, with
// serve's rights. It is refused, and the file named is left alone.
func TestServeLogFileNeverFollowsASymlink(t *testing.T) {
	e := newEnv(t)
	e.write("home/config.yaml", "hooks: {}\n", 0o644)
	e.write("victim", "mine\n", 0o600)
	if err := os.Symlink(e.path("victim"), e.path("serve.log")); err != nil {
		t.Fatal(err)
	}
	c, done, stderr := e.startServeLog(e.path("serve.log"))
	refusedLog(t, c, done, stderr, func() string {
		if b, _ := os.ReadFile(e.path("victim")); string(b) != "mine\n" {
			return "the file the link names now holds " + string(b)
		}
		return ""
	}, "serve.log is a symbolic link; not followed")
}

// Item 13: a FIFO at the path held serve's start forever (opening a FIFO
// for writing waits for a reader); with a reader, serve wrote its log to
// whoever held the FIFO. Both are refused, at once.
func TestServeLogFileRefusesAFIFO(t *testing.T) {
	t.Run("without a reader", func(t *testing.T) {
		e := newEnv(t)
		e.write("home/config.yaml", "hooks: {}\n", 0o644)
		if err := syscall.Mkfifo(e.path("serve.log"), 0o600); err != nil {
			t.Fatal(err)
		}
		c, done, stderr := e.startServeLog(e.path("serve.log"))
		refusedLog(t, c, done, stderr, func() string { return "" }, "serve.log is a FIFO, not a regular file")
	})
	t.Run("with a reader", func(t *testing.T) {
		e := newEnv(t)
		e.write("home/config.yaml", "hooks: {}\n", 0o644)
		if err := syscall.Mkfifo(e.path("serve.log"), 0o600); err != nil {
			t.Fatal(err)
		}
		fd, err := syscall.Open(e.path("serve.log"), syscall.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer syscall.Close(fd)
		c, done, stderr := e.startServeLog(e.path("serve.log"))
		var got []byte
		refusedLog(t, c, done, stderr, func() string {
			buf := make([]byte, 4096)
			if n, _ := syscall.Read(fd, buf); n > 0 {
				got = append(got, buf[:n]...)
			}
			if bytes.Contains(got, []byte("\n")) {
				return "the FIFO's reader got " + string(got)
			}
			return ""
		}, "serve.log is a FIFO, not a regular file")
	})
}

// Item 13: an existing log file readable by others stayed so, and every
// line serve logged was theirs to read. Its mode is tightened to 0600
// before the first line.
func TestServeLogFileMadePrivate(t *testing.T) {
	e := newEnv(t)
	e.write("home/config.yaml", "hooks: {}\n", 0o644)
	e.write("serve.log", "earlier\n", 0o644)
	c, done, stderr := e.startServeLog(e.path("serve.log"))
	waitFor(t, "the listening line in the log file", func() bool {
		select {
		case <-done:
			t.Fatalf("serve exited: %v\n%s", c.ProcessState, stderr.String())
		default:
		}
		b, _ := os.ReadFile(e.path("serve.log"))
		return strings.Contains(string(b), "msg=listening")
	})
	fi, err := os.Stat(e.path("serve.log"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("the log file is mode %04o after serve opened it, want 0600", fi.Mode().Perm())
	}
	if b, _ := os.ReadFile(e.path("serve.log")); !strings.HasPrefix(string(b), "earlier\n") {
		t.Errorf("the log file lost what it held: %q", b)
	}
}
