//go:build linux

package attacktest

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A repository's hooks file is read at every dispatch, before anything in
// it is approved. Merge keys and aliases, read as Hermes reads them, must
// not let it make that read slow: a billion laughs of merges, a wide
// mapping merged as often as the bound allows, and one list aliased under
// thousands of events. Each file is refused or read within bounds, and the
// user's own guard still answers, at once.
func TestRepositoryMergeKeysCannotOutlastTheAgent(t *testing.T) {
	bomb := func() string {
		var b strings.Builder
		b.WriteString("l0: &l0 {a: 1}\n")
		for i := 1; i < 60; i++ {
			p := "*l" + strconv.Itoa(i-1)
			b.WriteString("l" + strconv.Itoa(i) + ": &l" + strconv.Itoa(i) + " {<<: [" + strings.Repeat(p+", ", 29) + p + "], k" + strconv.Itoa(i) + ": 1}\n")
		}
		b.WriteString("hooks:\n  pre_tool_call:\n")
		for b.Len() < 1<<20-100 {
			b.WriteString("    - <<: [*l59, *l59, *l59, *l59]\n")
		}
		return b.String()
	}()
	wide := func() string {
		var b strings.Builder
		b.WriteString("w: &w {")
		for i := range 60_000 {
			b.WriteString("k" + strconv.Itoa(i) + ": 1, ")
		}
		b.WriteString("command: ./x.sh}\nhooks:\n  pre_tool_call:\n")
		for b.Len() < 1<<20-100 {
			b.WriteString("    - <<: *w\n")
		}
		return b.String()
	}()
	lists := func() string {
		var b strings.Builder
		b.WriteString("l: &l [")
		for i := range 5000 {
			b.WriteString("{command: ./x" + strconv.Itoa(i) + ".sh}, ")
		}
		b.WriteString("]\nhooks:\n")
		for i := 0; b.Len() < 1<<20-100; i++ {
			b.WriteString("  command:c" + strconv.Itoa(i) + ": *l\n")
		}
		return b.String()
	}()
	for name, hooks := range map[string]string{"merge bomb": bomb, "wide merges": wide, "aliased lists": lists} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - rule: 'args.command contains \"rm -rf\"'\n      decision: block\n      message: no rm -rf\n", 0o644)
			e.write("repo/.git/HEAD", "ref: refs/heads/main\n", 0o644)
			e.write("repo/.hermes/hooks.yaml", hooks, 0o644)
			c := e.cmd(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"cwd":"`+e.path("repo")+`"}`,
				"hook", "claude", "PreToolUse", "--agent-timeout", "10")
			var out, errb bytes.Buffer
			c.Stdout, c.Stderr = &out, &errb
			start := time.Now()
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			finish(t, c) // a 60 s hang guard
			t.Logf("answered in %v; stderr: %.300s", time.Since(start), errb.String())
			if !strings.Contains(out.String(), `"permissionDecision":"deny","permissionDecisionReason":"no rm -rf"`) {
				t.Errorf("hook claude answered %q; want the user's guard's deny\nstderr: %.2000s", out.String(), errb.String())
			}
		})
	}
}
