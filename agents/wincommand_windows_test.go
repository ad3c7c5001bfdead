package agents

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

// fakeWhereEnv makes this test binary where.exe as the prologue uses it:
// exit 0 when its one argument is found on PATH, else 1.
const fakeWhereEnv = "HERMES_TEST_FAKE_WHERE"

func TestMain(m *testing.M) {
	if os.Getenv(fakeWhereEnv) == "1" {
		if len(os.Args) == 2 {
			// where NAME also looks in the current directory (Go's
			// LookPath finds it there with ErrDot); where $PATH:NAME does
			// not.
			name, pathOnly := strings.CutPrefix(os.Args[1], "$PATH:")
			if _, err := exec.LookPath(name); err == nil || !pathOnly && errors.Is(err, exec.ErrDot) {
				os.Exit(0)
			}
		}
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// TestCodexWindowsCommandRunsInCmd runs the commandWindows line install
// writes for Codex as Codex does (%COMSPEC% /C LINE, the line passed
// as is), with hermes-hooks absent from PATH (the prologue's own answer:
// the agent's refusal, its exit code) and present (a hermes-hooks.cmd
// that echoes its arguments: the hook runs with them).
func TestCodexWindowsCommandRunsInCmd(t *testing.T) {
	comspec := os.Getenv("COMSPEC")
	if comspec == "" {
		comspec = filepath.Join(os.Getenv("SystemRoot"), "System32", "cmd.exe")
	}
	sys32 := filepath.Join(os.Getenv("SystemRoot"), "System32")
	dir := t.TempDir()
	repo := t.TempDir() // the directory the agent works in
	run := func(line string) (string, string, int) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		// Wine, now and then, fails a start before the process ran
		// (proctest.RunRetrying tries it again).
		err := proctest.RunRetrying(t, func() *exec.Cmd {
			cmd := exec.Command(comspec)
			cmd.Dir = repo
			cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: `"` + comspec + `" /C ` + line}
			// The environment is case-insensitive on Windows: a second
			// "Path" would be the one read.
			cmd.Env = []string{"PATH=" + dir + ";" + sys32 + ";" + os.Getenv("SystemRoot")}
			for _, kv := range os.Environ() {
				if k, _, _ := strings.Cut(kv, "="); !strings.EqualFold(k, "PATH") {
					cmd.Env = append(cmd.Env, kv)
				}
			}
			cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse"}`)
			stdout.Reset()
			stderr.Reset()
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			return cmd
		})
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return stdout.String(), stderr.String(), code
	}
	// Wine 8's where.exe is a stub (prints nothing, exits 0 for
	// anything): there a where.exe ahead of it on PATH does what where
	// does for the line (exit 0 when its argument is found on PATH with
	// PATHEXT, else 1); a real where.exe is used where there is one.
	if out, _, _ := run("where cmd.exe"); strings.TrimSpace(out) == "" {
		t.Log("where.exe is a stub here (Wine): a where.exe that looks the name up on PATH stands in")
		// This test binary as where.exe (TestMain, fakeWhereEnv); a
		// where.cmd would not do: a batch file started without call ends
		// the line.
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(self)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "where.exe"), data, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv(fakeWhereEnv, "1")
	}
	for _, ev := range []string{"PreToolUse", "Stop"} {
		line, err := codex.WindowsHookCommand("", ev)
		if err != nil {
			t.Fatal(err)
		}
		want := codex.MissingReply(ev, MissingReasonCmd)
		stdout, stderr, code := run(line)
		if strings.ReplaceAll(stdout, "\r\n", "\n") != string(want.Stdout) || code != want.Exit || stderr != string(want.Stderr) {
			t.Errorf("%s, hermes-hooks absent: stdout %q stderr %q exit %d; want %q, exit %d", ev, stdout, stderr, code, want.Stdout, want.Exit)
		}
	}
	// Attack: absent from PATH, but the repository the agent works in
	// holds a hermes-hooks.cmd. cmd.exe would run it in place of the
	// guard; the line asks PATH only, refuses, and never runs it.
	planted := filepath.Join(repo, "hermes-hooks.cmd")
	if err := os.WriteFile(planted, []byte("@echo PLANTED\r\n@exit /b 0\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, ev := range []string{"PreToolUse", "Stop"} {
		line, _ := codex.WindowsHookCommand("", ev)
		want := codex.MissingReply(ev, MissingReasonCmd)
		stdout, _, code := run(line)
		if strings.Contains(stdout, "PLANTED") || code != want.Exit {
			t.Errorf("%s, hermes-hooks absent, the repository's planted: stdout %q exit %d; want the refusal, exit %d", ev, stdout, code, want.Exit)
		}
	}
	// Present: a hermes-hooks.cmd on PATH that echoes its arguments and
	// exits 2, as a block would.
	if err := os.WriteFile(filepath.Join(dir, "hermes-hooks.cmd"), []byte("@echo args: %*\r\n@exit /b 2\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	line, _ := codex.WindowsHookCommand("", "PreToolUse")
	stdout, _, code := run(line)
	if strings.TrimSpace(stdout) != "args: hook codex PreToolUse --agent-timeout 600" || code != 2 {
		if !strings.Contains(stdout, "PLANTED") || os.Getenv(fakeWhereEnv) == "" {
			t.Errorf("hermes-hooks present: stdout %q exit %d", stdout, code)
		}
		// Wine's cmd.exe ignores NoDefaultCurrentDirectoryInExePath and
		// runs the planted file; Windows honours it (checked there).
		t.Logf("hermes-hooks present, the repository's planted: Wine's cmd.exe ran it (%q)", stdout)
	}
	if err := os.Remove(planted); err != nil {
		t.Fatal(err)
	}
	if stdout, _, code := run(line); strings.TrimSpace(stdout) != "args: hook codex PreToolUse --agent-timeout 600" || code != 2 {
		t.Errorf("hermes-hooks present: stdout %q exit %d", stdout, code)
	}
	// By path, with a space in it.
	sub := filepath.Join(dir, "my tools")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(sub, "hermes-hooks.cmd")
	if err := os.WriteFile(exe, []byte("@echo path args: %*\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	line, err := codex.WindowsHookCommand(filepath.ToSlash(exe), "Stop")
	if err != nil {
		t.Fatal(err)
	}
	stdout, _, code = run(line)
	if strings.TrimSpace(stdout) != "path args: hook codex Stop --agent-timeout 600" || code != 0 {
		t.Errorf("by path %s: stdout %q exit %d", line, stdout, code)
	}
	// By path, the program gone or a folder in its place: the agent's
	// refusal of a gating event, silence for the others; never cmd.exe's
	// "is not recognized", which Codex reads as no objection.
	for _, gone := range []func(){
		func() { os.Remove(exe) },
		func() { os.Mkdir(exe, 0o755) },
	} {
		gone()
		for _, ev := range []string{"PreToolUse", "Stop"} {
			line, err := codex.WindowsHookCommand(filepath.ToSlash(exe), ev)
			if err != nil {
				t.Fatal(err)
			}
			want := codex.MissingReply(ev, MissingProgramReason)
			stdout, stderr, code := run(line)
			if strings.ReplaceAll(stdout, "\r\n", "\n") != string(want.Stdout) || code != want.Exit || stderr != string(want.Stderr) {
				t.Errorf("%s, %s gone: stdout %q stderr %q exit %d; want %q, exit %d", ev, exe, stdout, stderr, code, want.Stdout, want.Exit)
			}
		}
	}
}
