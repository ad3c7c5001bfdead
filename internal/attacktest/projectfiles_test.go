//go:build linux

package attacktest

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// A repository cannot make the dispatch slow through the files its hooks
// file names. Each may be 1 MiB, and a hooks file could include 64 rule
// files of 1 MiB, or name one 1 MiB settings file thousands of times: every
// one-shot dispatch in the repository then parsed them all (19.5 s, and
// over a minute), before any approval, so the user's own guard answered
// long after the agent's deadline — and every agent lets a call through
// when its hook times out. Now those files share one MiB (and at most 256
// agent files): the project is skipped with a warning and the user's guard
// answers at once.
func TestRepositoryFilesCannotOutlastTheAgent(t *testing.T) {
	pad := `"` + strings.Repeat("x", 1<<20-64) + `"`
	for name, files := range map[string]map[string]string{
		"rule files": func() map[string]string {
			m := map[string]string{}
			var names []string
			for i := range 64 {
				name := "r" + strconv.Itoa(i) + ".yaml"
				names = append(names, name)
				m["repo/.hermes/"+name] = "x: [" + strings.Repeat("a,", 1<<19-8) + "a]\n"
			}
			m["repo/.hermes/hooks.yaml"] = "rules: [" + strings.Join(names, ", ") + "]\n"
			return m
		}(),
		"agent files": {
			"repo/.hermes/hooks.yaml": "claude_settings: [" + strings.TrimSuffix(strings.Repeat("big.json, ", 3000), ", ") + "]\n",
			"repo/big.json":           `{"x": ` + pad + `}`,
		},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - rule: 'args.command contains \"rm -rf\"'\n      decision: block\n      message: no rm -rf\n", 0o644)
			e.write("repo/.git/HEAD", "ref: refs/heads/main\n", 0o644)
			for p, body := range files {
				e.write(p, body, 0o644)
			}
			c := e.cmd(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"cwd":"`+e.path("repo")+`"}`,
				"hook", "claude", "PreToolUse", "--agent-timeout", "10")
			var out, errb bytes.Buffer
			c.Stdout, c.Stderr = &out, &errb
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			finish(t, c) // a 60 s hang guard
			if !strings.Contains(out.String(), `"permissionDecision":"deny","permissionDecisionReason":"no rm -rf"`) {
				t.Errorf("hook claude answered %q; want the user's guard's deny\nstderr: %.2000s", out.String(), errb.String())
			}
		})
	}
}
