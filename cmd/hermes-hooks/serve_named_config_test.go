//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A config named with --config must exist for as long as serve runs, not
// only when it starts: deleted under a running serve (a checkout of
// another branch, a typo'd mv), serve reloaded it as "no hooks" and
// answered every forwarded `hook claude --config …` with an allow, where
// the one-shot refuses until the named file loads again. Now the reload
// fails as a broken file does: the last good config stays, and forwarded
// calls are refused back to the caller, whose one-shot refuses the call.
func TestServeNamedConfigDeleted(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	e.socketPath = filepath.Join(e.home, "hermes-hooks.sock") // where `hook` looks
	team := filepath.Join(e.dir, "team.yaml")
	replaceFile(t, team, staleGuard, 0o644)
	p := e.serve("--config", team)

	payload := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"cwd":"` + e.dir + `"}`
	call := func() string {
		t.Helper()
		out, errs, code := e.cli(payload, "--config", team, "hook", "claude", "PreToolUse")
		if code != 0 {
			t.Fatalf("hook: exit %d %q %s", code, out, errs)
		}
		return out
	}
	if out := call(); out != staleDeny {
		t.Fatalf("through serve, the named config in place: %q", out)
	}
	p.waitLog(`msg=dispatch event=pre_tool_call decision=block`)

	if err := os.Remove(team); err != nil {
		t.Fatal(err)
	}
	// Either outcome of the reload is logged: the fix's failure, or the
	// old empty config put in service.
	p.waitLog(`msg="config reload(ed|\sfailed)`)
	out := call()
	if !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "no such file (named by --config)") {
		t.Fatalf("through serve, the named config deleted: %q\nserve log:\n%s", out, p.log.String())
	}
	if g := p.generation(); g != 1 {
		t.Errorf("serve put another config in service for a deleted one: generation %v", g)
	}
	if h := p.healthz(); !strings.Contains(fmt.Sprint(h["reload_error"]), "no such file (named by --config)") {
		t.Errorf("healthz does not say why the config did not reload: %v", h)
	}
}

// The other way round: serve reads HERMES_HOME's config as optional (not
// named, absent: no hooks), and an agent's hook line names that same file
// with --config. While it is missing the one-shot refuses the call; serve
// answered it with an allow from no hooks. It now hands the call back.
func TestServeOptionalConfigCallerNamedIt(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	e.socketPath = filepath.Join(e.home, "hermes-hooks.sock") // where `hook` looks
	if err := os.Remove(e.config); err != nil {
		t.Fatal(err)
	}
	p := e.serve()
	payload := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"cwd":"` + e.dir + `"}`
	out, errs, code := e.cli(payload, "--config", e.config, "hook", "claude", "PreToolUse")
	if code != 0 || !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "no such file (named by --config)") {
		t.Fatalf("through serve, the named config missing: exit %d %q\n%s\nserve log:\n%s", code, out, errs, p.log.String())
	}
	// Not named by the caller either: no hooks, served.
	out, errs, code = e.cli(payload, "hook", "claude", "PreToolUse")
	if code != 0 || out != "" {
		t.Fatalf("through serve, the optional config missing: exit %d %q\n%s", code, out, errs)
	}
	// ... and not handed back: the one conflict in the log is the first call's.
	if n := strings.Count(p.log.String(), "status=409"); n != 1 {
		t.Errorf("%d calls handed back, want 1:\n%s", n, p.log.String())
	}
}
