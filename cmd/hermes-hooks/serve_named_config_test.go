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
