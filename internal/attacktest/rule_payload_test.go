//go:build linux

package attacktest

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// A payload built to make commands() slow must not switch a serve's rule
// off. A rule past its time bound (0.5 s) is refused (fail_closed) and
// quarantined while its evaluation runs on, which cannot be stopped from
// outside: 64 KiB of `eval 'echo aN';` ran on for 135 s, `a[0]=x;
// a[1]=x; …` for minutes and a gigabyte, and every call to the rule in
// that time was refused unread (a rule without fail_closed: let through
// unread). Now each such payload is decided at once, and the `ls` after
// them is judged as usual.
func TestRulePayloadsDoNotQuarantine(t *testing.T) {
	e := newEnv(t)
	e.write("home/config.yaml", `hooks:
  pre_tool_call:
    - matcher: terminal
      rule: 'any(commands(args.command), # matches "^rm\\s")'
      decision: block
      fail_closed: true
      message: "no rm here"
`, 0o644)
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	s := e.serveWithStderr(devnull)

	fill := func(unit func(i int) string, tail string) string {
		var b strings.Builder
		for i := 0; b.Len()+len(unit(i))+len(tail) < 64<<10; i++ {
			b.WriteString(unit(i))
		}
		return b.String() + tail
	}
	decide := func(command string) (decision, message string) {
		t.Helper()
		body, _ := json.Marshal(map[string]any{"tool_name": "terminal", "args": map[string]any{"command": command}})
		resp, err := s.client.Post("http://x/v1/dispatch/pre_tool_call", "application/json", strings.NewReader(string(body)))
		if err != nil {
			t.Fatalf("dispatch: %v", err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		var o struct{ Decision, Message string }
		if err := json.Unmarshal(out, &o); err != nil {
			t.Fatalf("dispatch: %v: %s", err, out)
		}
		return o.Decision, o.Message
	}
	for _, p := range []struct{ name, command string }{
		{"evals", fill(func(i int) string { return fmt.Sprintf("eval 'echo a%d'; ", i) }, "rm -rf x")},
		{"arrays", fill(func(i int) string { return fmt.Sprintf("a[%d]=x; ", i) }, `rm "${a[@]}"`)},
		{"evals of values", fill(func(i int) string { return fmt.Sprintf("X%d=a; eval echo $X%d; ", i, i) }, "")},
		{"braces", fill(func(i int) string {
			if i == 0 {
				return "rm -rf x; echo "
			}
			return "{a,b}"
		}, "")},
	} {
		if d, msg := decide(p.command); d != "block" {
			t.Errorf("%s: %s (%s), want block", p.name, d, msg)
		}
		// Each is read in well under the rule's bound (at most 0.12 s
		// here), but on a machine loaded enough one may pass it: the
		// rule is then off until that evaluation ends, which must be
		// soon (it was minutes). The bound only catches that.
		var d, msg string
		for start := time.Now(); ; {
			if d, msg = decide("ls -la"); d == "none" || !strings.Contains(msg, "still runs") || time.Since(start) > 20*time.Second {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if d != "none" {
			t.Fatalf("ls after %s: %s (%s): the rule is off", p.name, d, msg)
		}
	}
}

// A payload built to make a Claude handler's `if` rule slow must not hold
// the hook past the agent's wait. 15 KB of {a,b} in one word held
// `hook claude` for 47 s in the if rule's analysis (each word brace
// expansion made copied the word's parts at every level), and the agent,
// having stopped waiting, reads no answer: the fail_closed rule that
// refuses the call's rm -rf was lost with it. Now the word is refused at
// once, and the analysis of a firing's if rules has a bound of its own.
func TestIfRulePayloadDoesNotHoldTheHook(t *testing.T) {
	e := newEnv(t)
	e.write("guard.sh", "#!/bin/sh\nexit 0\n", 0o755)
	e.write("userhome/.claude/settings.json", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"`+e.path("guard.sh")+`","if":"Bash(git push:*)"}]}]}}`, 0o644)
	e.write("home/config.yaml", `claude_settings: [../userhome/.claude/settings.json]
hooks:
  pre_tool_call:
    - matcher: terminal
      rule: 'args.command contains "rm -rf"'
      decision: block
      fail_closed: true
      message: "no rm -rf here"
`, 0o644)
	e.run("", "approve", "--all")
	var b strings.Builder
	b.WriteString("rm -rf ~; echo ")
	for b.Len() < 64<<10-5 {
		b.WriteString("{a,b}")
	}
	payload, _ := json.Marshal(map[string]any{"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": b.String()}})
	start := time.Now()
	out := e.hookOut(t, nil, string(payload), "hook", "claude", "--no-server")
	if d := time.Since(start); d > 60*time.Second {
		t.Errorf("the hook answered after %s", d)
	}
	if !strings.Contains(out, `"deny"`) || !strings.Contains(out, "no rm -rf here") {
		t.Fatalf("hook claude answered %q; want the rule's deny", out)
	}
}
