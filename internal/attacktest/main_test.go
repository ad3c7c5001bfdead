//go:build linux

package attacktest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"

	"github.com/hermes-hooks/hermes-hooks/internal/testbin"
)

// binary is the hermes-hooks under test.
var binary string

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	if runtime.GOOS != "linux" {
		fmt.Fprintln(os.Stderr, "attacktest: these tests read /proc; skipped on", runtime.GOOS)
		return 0
	}
	if b := os.Getenv("HERMES_HOOKS_TEST_BINARY"); b != "" {
		binary = b
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "attacktest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if binary, err = testbin.Build(dir, "../.."); err != nil {
		fmt.Fprintln(os.Stderr, "attacktest: building hermes-hooks:", err)
		return 1
	}
	return m.Run()
}

// env is one throwaway HERMES_HOME, HOME and working directory.
type env struct {
	t    *testing.T
	dir  string
	vars []string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	dir := t.TempDir()
	// Before the directory goes (cleanups run last first): what a test's
	// dispatches left running detached in it — an export flush still
	// retrying, an async child — would otherwise write into it while it is
	// removed ("directory not empty").
	t.Cleanup(func() { killLeftIn(t, dir) })
	for _, d := range []string{"home", "userhome"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return &env{t: t, dir: dir, vars: append(os.Environ(),
		"HERMES_HOME="+filepath.Join(dir, "home"), "HOME="+filepath.Join(dir, "userhome"),
		"HERMES_ACCEPT_HOOKS=", "HERMES_SAFE_MODE=", "HERMES_HOOKS_MANAGED_CONFIG=", "WORK="+dir)}
}

func (e *env) path(name string) string { return filepath.Join(e.dir, name) }

func (e *env) write(name, content string, mode os.FileMode) {
	e.t.Helper()
	p := e.path(name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		e.t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		e.t.Fatal(err)
	}
}

// cmd prepares a hermes-hooks command in the work directory.
func (e *env) cmd(stdin string, args ...string) *exec.Cmd {
	c := exec.Command(binary, args...)
	c.Dir, c.Env = e.dir, e.vars
	c.Stdin = strings.NewReader(stdin)
	return c
}

// run runs hermes-hooks and returns its stdout; a failure fails the test.
func (e *env) run(stdin string, args ...string) string {
	e.t.Helper()
	var out, errb bytes.Buffer
	c := e.cmd(stdin, args...)
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Run(); err != nil {
		e.t.Fatalf("hermes-hooks %v: %v\n%s", args, err, errb.String())
	}
	return out.String()
}

// killLeftIn kills every process whose working directory is dir or below
// it, and waits for each to exit. Each is held by a pidfd first, its
// directory read again, and the kill sent through the pidfd: a pid given
// to another process in between is never signalled.
func killLeftIn(t *testing.T, dir string) {
	in := func(p string) bool {
		cwd, err := os.Readlink(p + "/cwd")
		return err == nil && (cwd == dir || strings.HasPrefix(cwd, dir+"/"))
	}
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		pid, err := strconv.Atoi(filepath.Base(p))
		if err != nil || pid == os.Getpid() || !in(p) {
			continue
		}
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			continue // gone already
		}
		if in(p) && unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0) == nil {
			if err := proctest.AwaitPidfd(fd, time.Minute); err != nil {
				t.Errorf("process %d, left in the test's directory, after SIGKILL: %v", pid, err)
			}
		}
		unix.Close(fd)
	}
}

// alive reports whether pid is a live process (not a zombie).
func alive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(data, ')')
	return i > 0 && i+2 < len(data) && data[i+2] != 'Z' && data[i+2] != 'X'
}

// waitFor polls cond until it holds or the deadline passes: the bound only
// catches a hang.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// readPid waits for a pid file written by a hook and returns the pid.
func readPid(t *testing.T, path string) int {
	t.Helper()
	var pid int
	waitFor(t, path, func() bool {
		data, err := os.ReadFile(path)
		if err != nil || !bytes.HasSuffix(data, []byte("\n")) {
			return false
		}
		pid, err = strconv.Atoi(strings.TrimSpace(string(data)))
		return err == nil
	})
	return pid
}
