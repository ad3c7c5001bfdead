//go:build unix

package main

import (
	"os"
	"path/filepath"
	"testing"
)

// Inputs that serve and the caller may see differently, or that change
// under a running serve: each call is answered as `hook --no-server`
// answers it, or handed back (hookBoth fails the test otherwise). The
// deliberate difference (hooks run with serve's environment: a guard that
// reads a variable or is found on PATH) is docs/serve.md's, and not here.

const diffDeny = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"guard says no"}}'` + "\n"

// defaultSocket puts serve where `hook` looks for it.
func (e *serveEnv) defaultSocket() *serveEnv {
	e.socketPath = filepath.Join(e.home, "hermes-hooks.sock")
	return e
}

// The caller's environment and directory differ from serve's.
func TestServeDifferentialCaller(t *testing.T) {
	e := newServeEnv(t, staleGuard).defaultSocket()
	managed := filepath.Join(e.root, "managed.yaml")
	writeAt(t, managed, "hooks: {}\n", 0o644)
	sub := filepath.Join(e.dir, "sub")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	e.serve()
	rmrf := func(cwd string) string { return bashCall(cwd, "rm -rf /") }
	for _, c := range []diffCall{
		{payload: rmrf(e.dir)},
		{env: []string{"CLAUDE_PROJECT_DIR=" + e.mkHome("other")}, payload: rmrf(e.dir)},
		{dir: sub, payload: rmrf(sub)},
		{payload: rmrf(sub)},
		{env: []string{"HERMES_SAFE_MODE=1"}, payload: rmrf(e.dir)},
		{env: []string{"HERMES_ACCEPT_HOOKS=1"}, payload: rmrf(e.dir)},
		{env: []string{"HERMES_HOOKS_MANAGED_CONFIG=" + managed}, payload: rmrf(e.dir)},
		{env: []string{"CODEX_HOME=" + e.mkHome("codex")}, agent: "codex", payload: rmrf(e.dir)},
	} {
		e.hookBoth(c)
	}
}

// serve runs in safe mode, the caller does not.
func TestServeDifferentialSafeServe(t *testing.T) {
	e := newServeEnv(t, staleGuard).defaultSocket()
	e.serveWith([]string{"HERMES_SAFE_MODE=1"})
	e.hookBoth(diffCall{payload: bashCall(e.dir, "rm -rf /")})
}

// A rule file the config includes is edited, deleted, replaced by a
// symlink, and the symlink's target edited, each under a running serve.
func TestServeDifferentialRuleFile(t *testing.T) {
	e := newServeEnv(t, "rules: [x.yaml]\nhooks: {}\n").defaultSocket()
	x, y := filepath.Join(e.home, "x.yaml"), filepath.Join(e.root, "y.yaml")
	writeAt(t, x, "hooks: {}\n", 0o644)
	e.serve()
	call := func() { e.hookBoth(diffCall{payload: bashCall(e.dir, "rm -rf /")}) }
	writeAt(t, x, staleGuard, 0o644)
	call()
	if err := os.Remove(x); err != nil {
		t.Fatal(err)
	}
	call()
	writeAt(t, y, "hooks: {}\n", 0o644)
	if err := os.Symlink(y, x); err != nil {
		t.Fatal(err)
	}
	call()
	writeAt(t, y, staleGuard, 0o644)
	call()
}

// A project hooks file appears in the parent directory; the project's
// Claude settings, which the config names, gain a hook.
func TestServeDifferentialProjectFiles(t *testing.T) {
	e := newServeEnv(t, "claude_settings: [../work/.claude/settings.json]\nhooks: {}\n").defaultSocket()
	settings := filepath.Join(e.dir, ".claude", "settings.json")
	writeAt(t, settings, `{"hooks":{}}`, 0o644)
	guard := e.script("guard.sh", diffDeny)
	e.serve()
	writeAt(t, filepath.Join(e.root, ".hermes", "hooks.yaml"), staleGuard, 0o644)
	e.hookBoth(diffCall{payload: bashCall(e.dir, "rm -rf /")})
	writeAt(t, settings, `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"`+guard+`"}]}]}}`, 0o644)
	e.mustCLI("approve", "--project", "--yes")
	for _, agent := range []string{"claude", "codex"} {
		e.hookBoth(diffCall{agent: agent, payload: bashCall(e.dir, "ls")})
	}
}

// The allowlist edited by hand (emptied, truncated, restored) and the
// approved guard edited in place with its mtime put back.
func TestServeDifferentialAllowlistByHand(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n").defaultSocket()
	guard := e.script("guard.sh", diffDeny)
	e.writeConfig("hooks:\n  PreToolUse:\n    - matcher: Bash\n      command: " + guard + "\n")
	e.mustCLI("approve", "--all")
	e.serve()
	call := func() { e.hookBoth(diffCall{payload: bashCall(e.dir, "ls")}) }
	call()
	al := filepath.Join(e.home, "shell-hooks-allowlist.json")
	data, err := os.ReadFile(al)
	if err != nil {
		t.Fatal(err)
	}
	for _, content := range []string{`{"approvals": []}`, string(data[:len(data)/2]), string(data)} {
		replaceFile(t, al, content, 0o600)
		call()
	}
	st, err := os.Stat(guard)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(guard, []byte("#!/bin/sh\n"+diffDeny[:len(diffDeny)-8]+"maybe'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(guard, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	call()
}

// A journal that cannot be written decides nothing, either way.
func TestServeDifferentialJournal(t *testing.T) {
	e := newServeEnv(t, staleGuard+"journal:\n  path: /nonexistent/dir/j.jsonl\n").defaultSocket()
	e.serve()
	e.hookBoth(diffCall{payload: bashCall(e.dir, "rm -rf /")})
}
