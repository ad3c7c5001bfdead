//go:build linux

package attacktest

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 23: paths on which an approved guard used to be skipped and the
// agent told "no objection". Each test drives the real binary.

// guardConfig is a fail_closed guard on tool calls whose script records
// its pid and then runs until killed.
const guardConfig = "hooks:\n  pre_tool_call:\n    - command: ./guard.sh\n      fail_closed: true\n"

const sleepingGuard = "#!/bin/sh\necho $$ > \"$WORK/guard.pid\"\nexec sleep 3600\n"

// finish waits (hang-bounded) for c and returns its exit code.
func finish(t *testing.T, c *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		c.Process.Kill()
		t.Fatal("the dispatch did not end")
	}
	return c.ProcessState.ExitCode()
}

// Item 5: SIGTERM while a fail_closed guard runs. dispatch used to print
// "decision: none" (or {} in Hermes' shape) and exit 0; it prints no
// outcome and exits 128+15. hook claude answers with Claude Code's deny.
func TestSignalledDispatchGivesNoAnswer(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		in   string
		// check is given stdout and the exit code.
		check func(t *testing.T, out string, code int)
	}{
		{"dispatch", []string{"dispatch", "pre_tool_call"}, `{"tool_name":"terminal"}`, func(t *testing.T, out string, code int) {
			if out != "" || code != 128+int(syscall.SIGTERM) {
				t.Errorf("dispatch answered %q with exit %d; want no outcome and exit %d", out, code, 128+int(syscall.SIGTERM))
			}
		}},
		{"dispatch --format hermes", []string{"dispatch", "--format", "hermes", "pre_tool_call"}, `{"tool_name":"terminal"}`, func(t *testing.T, out string, code int) {
			if out != "" || code == 0 {
				t.Errorf("dispatch answered %q with exit %d; want no outcome and a non-zero exit", out, code)
			}
		}},
		{"hook claude", []string{"hook", "claude"}, `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, func(t *testing.T, out string, code int) {
			if !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "SIGTERM") {
				t.Errorf("hook claude answered %q (exit %d); want Claude Code's deny naming SIGTERM", out, code)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.write("guard.sh", sleepingGuard, 0o755)
			e.write("home/config.yaml", guardConfig, 0o644)
			e.run("", "approve", "./guard.sh")
			c := e.cmd(tc.in, tc.args...)
			var out, errb bytes.Buffer
			c.Stdout, c.Stderr = &out, &errb
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			readPid(t, e.path("guard.pid"))
			if err := c.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			code := finish(t, c)
			tc.check(t, out.String(), code)
			if t.Failed() {
				t.Logf("stderr: %s", errb.String())
			}
		})
	}
}

// blockingGuard refuses every tool call, in Hermes' words.
const blockingGuard = "#!/bin/sh\necho '{\"action\": \"block\", \"message\": \"guarded\"}'\n"

const rmPayload = `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`

// hookOut runs hook AGENT with extra environment and returns stdout.
func (e *env) hookOut(t *testing.T, env []string, stdin string, args ...string) string {
	t.Helper()
	c := e.cmd(stdin, args...)
	c.Env = append(c.Env, env...)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	if code := finish(t, c); code != 0 {
		t.Fatalf("hermes-hooks %v: exit %d\n%s", args, code, errb.String())
	}
	return out.String()
}

// Item 2: a forward to a live serve states every input that changes the
// answer. A guard from the caller's --codex-hooks file was skipped by a
// serve started without it, and HERMES_SAFE_MODE was ignored.
func TestForwardStatesEveryInput(t *testing.T) {
	e := newEnv(t)
	e.write("guard.sh", "#!/bin/sh\necho ran >> \"$WORK/guard.ran\"\necho 'no rm here' >&2\nexit 2\n", 0o755)
	e.write("codex.json", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./guard.sh"}]}]}}`, 0o644)
	e.write("home/config.yaml", "hooks: {}\n", 0o644)
	e.run("", "--codex-hooks", "codex.json", "approve", "--all")
	e.serve(e.path("home/hermes-hooks.sock"))

	out := e.hookOut(t, nil, rmPayload, "--codex-hooks", "codex.json", "hook", "claude")
	if !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "no rm here") {
		t.Fatalf("the guard of --codex-hooks did not answer through a serve started without it: %q", out)
	}
}

// Item 2, safe mode: HERMES_SAFE_MODE in the caller's environment runs
// nothing, whatever the serve's own environment says.
func TestForwardStatesSafeMode(t *testing.T) {
	e := newEnv(t)
	e.write("guard.sh", "#!/bin/sh\necho ran >> \"$WORK/guard.ran\"\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: ./guard.sh\n", 0o644)
	e.run("", "approve", "./guard.sh")
	e.serve(e.path("home/hermes-hooks.sock"))
	e.hookOut(t, []string{"HERMES_SAFE_MODE=1"}, rmPayload, "hook", "claude")
	if _, err := os.Stat(e.path("guard.ran")); err == nil {
		t.Fatal("a hook ran for a caller in HERMES_SAFE_MODE: the serve ignored it")
	}
}

// Item 6: a stopped (or wedged) serve still accepts connections into its
// backlog; hook used to wait for it for 15 minutes. It checks the server
// answers first, and otherwise dispatches by itself.
func TestStoppedServeIsNotWaitedFor(t *testing.T) {
	e := newEnv(t)
	e.write("guard.sh", blockingGuard, 0o755)
	e.write("home/config.yaml", guardConfig, 0o644)
	e.run("", "approve", "./guard.sh")
	s := e.serve(e.path("home/hermes-hooks.sock"))
	if err := s.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.cmd.Process.Signal(syscall.SIGCONT) })
	out := e.hookOut(t, nil, rmPayload, "hook", "claude")
	if !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "guarded") {
		t.Fatalf("with the serve stopped, hook answered %q; want the guard's deny", out)
	}
}

// Item 7: the project's guards follow the agent, not only the payload's
// cwd. After a `cd /tmp` in a shell tool, Claude Code still runs in the
// repository (CLAUDE_PROJECT_DIR); Cursor names its workspace roots.
func TestProjectGuardsFollowTheAgentsProject(t *testing.T) {
	e := newEnv(t)
	e.write("home/config.yaml", "hooks: {}\n", 0o644)
	e.write("repo/.git/HEAD", "ref: refs/heads/main\n", 0o644)
	e.write("repo/guard.sh", blockingGuard, 0o755)
	e.write("repo/.hermes/hooks.yaml", guardConfig, 0o644)
	approve := e.cmd("", "approve", "./guard.sh")
	approve.Dir = e.path("repo")
	if out, err := approve.CombinedOutput(); err != nil {
		t.Fatalf("approve: %v\n%s", err, out)
	}
	elsewhere := t.TempDir()
	for _, tc := range []struct {
		name, agent, payload string
		env                  []string
		dir                  string
	}{
		{"claude, CLAUDE_PROJECT_DIR", "claude",
			`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"cwd":"` + elsewhere + `"}`,
			[]string{"CLAUDE_PROJECT_DIR=" + e.path("repo")}, elsewhere},
		{"claude, started in the repository", "claude",
			`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"cwd":"` + elsewhere + `"}`,
			nil, e.path("repo")},
		{"cursor, workspace_roots", "cursor",
			`{"conversation_id":"c","hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"rm -rf /"},"cwd":"` + elsewhere + `","workspace_roots":["` + e.path("repo") + `"]}`,
			nil, elsewhere},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := e.cmd(tc.payload, "hook", tc.agent)
			c.Dir, c.Env = tc.dir, append(c.Env, tc.env...)
			out, err := c.Output()
			if err != nil {
				t.Fatalf("hook %s: %v", tc.agent, err)
			}
			if !strings.Contains(string(out), "deny") || !strings.Contains(string(out), "guarded") {
				t.Fatalf("the repository's approved guard did not run: %q", out)
			}
		})
	}
}
