package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// An agent that writes its payload but never closes hook's stdin must
// still get its answer before its deadline: an answer after it is no
// answer (every agent then lets the call through). hook used to read to
// EOF first and only then start counting down to the deadline.
func TestHookAnswersAnUnclosedStdinBeforeTheDeadline(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HERMES_HOME", home)
	t.Setenv("HOME", t.TempDir())
	cfg := "hooks:\n  PreToolUse:\n    - command: ./guard.sh\n      dialect: claude\n      fail_closed: true\n"
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	r, w := io.Pipe()
	defer w.Close()
	go func() {
		_, _ = w.Write([]byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`))
		// ... and never closes it.
	}()
	var out, errb bytes.Buffer
	a := &App{In: r, Out: &out, Err: &errb, NoSubreap: true}
	done := make(chan error, 1)
	go func() { done <- a.Hook("claude", "PreToolUse", HookOptions{NoServer: true, AgentTimeout: time.Second}) }()
	select {
	case <-done:
	case <-time.After(time.Minute): // a hang guard: the agent waits 1 s
		t.Fatal("hook claude waited for the end of a stdin the agent never closed")
	}
	if !strings.Contains(out.String(), `"permissionDecision":"deny"`) {
		t.Fatalf("hook claude answered %q; want Claude Code's deny (a fail_closed guard cannot check the call)\nstderr: %s", out.String(), errb.String())
	}
}
