//go:build windows

package hookproc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/windows"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

// The runner contract on Windows (runJob), with real processes: the hooks
// are this test binary re-executed in a helper mode (helperVar), so that
// no shell is needed; one case runs a .cmd through cmd.exe.

// hangBound bounds waits that only a hang would reach.
const hangBound = 20 * time.Second

const helperVar = "HOOKPROC_TEST_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperVar); mode != "" {
		os.Exit(helper(mode, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// helper is what a re-executed test binary does as a hook.
func helper(mode string, args []string) int {
	switch mode {
	case "echo": // stdin, then out and err; exit 3
		in, _ := io.ReadAll(os.Stdin)
		fmt.Printf("%sout\n", in)
		fmt.Fprintln(os.Stderr, "err")
		return 3
	case "ok":
		fmt.Println("ok")
		return 0
	case "sleep":
		time.Sleep(time.Hour)
	case "child": // start a sleeping child, write its pid to args[0]
		// Wine may fail the start before the child ran; a retry is told
		// on the hook's stderr (there is no T in this process).
		c, err := proctest.StartRetrying(proctest.WriterLogger{W: os.Stderr}, func() (*exec.Cmd, error) {
			c := helperCmd("sleep")
			if len(args) > 1 && args[1] == "hold" {
				c.Stdout = os.Stdout // it keeps the hook's stdout pipe open
			}
			if len(args) > 1 && args[1] == "breakaway" {
				// A hostile hook asks for its child to leave the job.
				c.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_BREAKAWAY_FROM_JOB}
			}
			return c, nil
		})
		if err != nil {
			if errors.Is(err, windows.ERROR_ACCESS_DENIED) {
				fmt.Fprint(os.Stderr, "start refused")
			}
			fmt.Fprintln(os.Stderr, err)
			return 9
		}
		if err := os.WriteFile(args[0], []byte(strconv.Itoa(c.Process.Pid)), 0o644); err != nil {
			return 9
		}
		if len(args) > 1 {
			switch args[1] {
			case "hold":
				fmt.Println(`{"decision":"block"}`)
				return 0
			case "exit0":
				return 0
			case "exit1":
				return 1
			}
		}
		time.Sleep(time.Hour)
	case "flood":
		buf := make([]byte, 3000000)
		os.Stdout.Write(buf)
		os.Stderr.Write(buf)
		return 0
	}
	return 2
}

func helperCmd(mode string, args ...string) *exec.Cmd {
	c := exec.Command(os.Args[0], args...)
	c.Env = append(os.Environ(), helperVar+"="+mode)
	return c
}

func helperSpec(t *testing.T, mode string, timeout time.Duration, args ...string) Spec {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Spec{
		Path:    exe,
		Argv:    append([]string{exe}, args...),
		Env:     append(os.Environ(), helperVar+"="+mode),
		Timeout: timeout,
	}
}

// readPid returns the pid a helper wrote to file, 0 if none yet.
func readPid(file string) uint32 {
	data, _ := os.ReadFile(file)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return uint32(pid)
}

// alive reports whether pid still runs, waiting up to wait for it to end.
func alive(t *testing.T, pid uint32, wait time.Duration) bool {
	t.Helper()
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, pid)
	if err != nil {
		return false // no such process any more
	}
	defer windows.CloseHandle(h)
	ev, err := windows.WaitForSingleObject(h, uint32(wait/time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	return ev == uint32(windows.WAIT_TIMEOUT)
}

// killPid ends a process a test left running on purpose.
func killPid(pid uint32) {
	if h, err := windows.OpenProcess(windows.PROCESS_TERMINATE, false, pid); err == nil {
		windows.TerminateProcess(h, 1)
		windows.CloseHandle(h)
	}
}

func TestRunJob(t *testing.T) {
	ctx := context.Background()
	t.Run("exit code, stdout, stderr, stdin", func(t *testing.T) {
		s := helperSpec(t, "echo", time.Minute)
		s.Stdin = []byte("in|")
		res := runJob(ctx, s)
		if !res.Exited || res.ExitCode != 3 || string(res.Stdout) != "in|out\n" || string(res.Stderr) != "err\n" {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("stdin never read does not hang", func(t *testing.T) {
		s := helperSpec(t, "ok", time.Minute)
		s.Stdin = make([]byte, 10<<20)
		start := time.Now()
		res := runJob(ctx, s)
		if string(res.Stdout) != "ok\n" || time.Since(start) > hangBound {
			t.Fatalf("%+v after %v", res, time.Since(start))
		}
	})
	t.Run("timeout kills the hook and the child it started", func(t *testing.T) {
		proctest.GrowTimeout(t, 2*time.Second, 64*time.Second, func(timeout time.Duration) bool {
			pidFile := filepath.Join(t.TempDir(), "pid")
			start := time.Now()
			res := runJob(ctx, helperSpec(t, "child", timeout, pidFile))
			if !res.TimedOut || res.Cancelled || time.Since(start) > timeout+hangBound {
				t.Fatalf("%+v after %v", res, time.Since(start))
			}
			pid := readPid(pidFile)
			if pid == 0 {
				return false // no child yet when the timeout fired
			}
			if alive(t, pid, hangBound) {
				killPid(pid)
				t.Fatalf("the hook's child %d survived its timeout", pid)
			}
			return true
		})
	})
	t.Run("a child cannot break away from the job", func(t *testing.T) {
		// Attack: CREATE_BREAKAWAY_FROM_JOB would put the child beyond
		// the timeout's reach; the job does not allow it, so the start
		// fails (exit 9) or, started anyway, the child dies with the job.
		proctest.GrowTimeout(t, 2*time.Second, 64*time.Second, func(timeout time.Duration) bool {
			pidFile := filepath.Join(t.TempDir(), "pid")
			res := runJob(ctx, helperSpec(t, "child", timeout, pidFile, "breakaway"))
			if res.Exited && res.ExitCode == 9 && strings.HasPrefix(string(res.Stderr), "start refused") {
				return true
			}
			if !res.TimedOut {
				t.Fatalf("%+v stderr %s", res, res.Stderr)
			}
			pid := readPid(pidFile)
			if pid == 0 {
				return false
			}
			if alive(t, pid, hangBound) {
				killPid(pid)
				t.Fatalf("child %d broke away from the job and survived", pid)
			}
			return true
		})
	})
	t.Run("a failed exit kills what the hook started", func(t *testing.T) {
		pidFile := filepath.Join(t.TempDir(), "pid")
		res := runJob(ctx, helperSpec(t, "child", time.Minute, pidFile, "exit1"))
		if !res.Exited || res.ExitCode != 1 {
			t.Fatalf("%+v", res)
		}
		if pid := readPid(pidFile); pid == 0 || alive(t, pid, hangBound) {
			killPid(pid)
			t.Fatalf("child %d of a failed hook survived", pid)
		}
	})
	t.Run("a successful hook keeps the helper it detached", func(t *testing.T) {
		pidFile := filepath.Join(t.TempDir(), "pid")
		res := runJob(ctx, helperSpec(t, "child", time.Minute, pidFile, "exit0"))
		pid := readPid(pidFile)
		defer killPid(pid)
		if !res.Exited || res.ExitCode != 0 || pid == 0 {
			t.Fatalf("%+v", res)
		}
		if !alive(t, pid, 0) {
			t.Fatalf("the detached helper %d of a successful hook was killed", pid)
		}
	})
	t.Run("a held pipe after exit is bounded, its output kept and its holder killed", func(t *testing.T) {
		pidFile := filepath.Join(t.TempDir(), "pid")
		start := time.Now()
		res := runJob(ctx, helperSpec(t, "child", time.Minute, pidFile, "hold"))
		if time.Since(start) > hangBound || !strings.Contains(string(res.Stdout), `"block"`) {
			t.Fatalf("%+v after %v", res, time.Since(start))
		}
		if pid := readPid(pidFile); pid == 0 || alive(t, pid, hangBound) {
			killPid(pid)
			t.Fatalf("the pipe's holder %d survived", pid)
		}
	})
	t.Run("output is capped", func(t *testing.T) {
		s := helperSpec(t, "flood", time.Minute)
		s.Cap = 1000
		res := runJob(ctx, s)
		if len(res.Stdout) != 1000 || len(res.Stderr) != 1000 || !res.StdoutTruncated || !res.StderrTruncated {
			t.Fatalf("stdout %d stderr %d %+v", len(res.Stdout), len(res.Stderr), res.StdoutTruncated)
		}
	})
	t.Run("spawn errors in Hermes' words", func(t *testing.T) {
		dir := t.TempDir()
		missing := filepath.Join(dir, "missing.exe")
		if res := runJob(ctx, Spec{Path: missing, Argv: []string{missing}, Timeout: time.Minute}); res.SpawnError != "command not found" {
			t.Fatalf("missing: %+v", res)
		}
		p := filepath.Join(dir, "notaprogram.exe")
		os.WriteFile(p, []byte("echo hi\r\n"), 0o644)
		if res := runJob(ctx, Spec{Path: p, Argv: []string{p}, Timeout: time.Minute}); res.SpawnError != "command not executable" {
			t.Fatalf("not a program: %+v", res)
		}
	})
	t.Run("cancellation kills and reports", func(t *testing.T) {
		// Cancelled once the hook runs: it has written its child's pid.
		pidFile := filepath.Join(t.TempDir(), "pid")
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go func() {
			deadline := time.Now().Add(hangBound)
			for readPid(pidFile) == 0 && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
			}
			cancel()
		}()
		res := runJob(cctx, helperSpec(t, "child", time.Minute, pidFile))
		if !res.Cancelled || res.TimedOut {
			t.Fatalf("%+v", res)
		}
		if pid := readPid(pidFile); pid != 0 && alive(t, pid, hangBound) {
			killPid(pid)
			t.Fatalf("child %d survived cancellation", pid)
		}
	})
	t.Run("a failing Verify starts nothing", func(t *testing.T) {
		pidFile := filepath.Join(t.TempDir(), "pid")
		s := helperSpec(t, "child", time.Minute, pidFile, "exit0")
		s.Verify = func() error { return errors.New("x changed") }
		if res := runJob(ctx, s); res.SpawnError != "x changed" {
			t.Fatalf("%+v", res)
		}
		if _, err := os.Stat(pidFile); err == nil {
			t.Fatal("it ran")
		}
	})
	t.Run("a .cmd hook through cmd.exe /d /s /c", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "guard.cmd")
		os.WriteFile(p, []byte("@echo off\r\necho {\"decision\":\"block\"}\r\nexit /b 2\r\n"), 0o644)
		comspec := os.Getenv("COMSPEC")
		if comspec == "" {
			comspec = `C:\windows\system32\cmd.exe`
		}
		res := runJob(ctx, Spec{
			Path: comspec, Argv: []string{comspec, "/d", "/s", "/c", p},
			CmdLine: `"` + comspec + `" /d /s /c ""` + p + `""`,
			Env:     os.Environ(), Timeout: time.Minute,
		})
		if !res.Exited || res.ExitCode != 2 || strings.TrimSpace(string(res.Stdout)) != `{"decision":"block"}` {
			t.Fatalf("%+v stdout %q", res, res.Stdout)
		}
	})
}
