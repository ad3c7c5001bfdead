//go:build unix

package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A forwarded `hook` call is answered only from the config the one-shot
// would read now. Each test starts serve with no hooks, then the user
// saves a config whose fail_closed rule blocks `rm -rf` — and something
// keeps serve from loading it: a process holding the file open for
// writing, one touching it every 0.1 s, or an error in the file. Through
// all of it `hook claude` must deny `rm -rf /` as `hook --no-server`
// does; before the fix serve answered from its old, empty config and the
// agent read "allow".

// staleGuard is the config the user saves: a rule, so that no approval is
// involved.
const staleGuard = `hooks:
  pre_tool_call:
    - matcher: terminal
      rule: 'args.command matches "rm\\s+-rf"'
      decision: block
      message: "no rm -rf"
      fail_closed: true
`

const staleDeny = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm -rf"}}` + "\n"

// staleEnv is a serve on the default socket (so `hook` finds it) with no
// hooks.
func staleEnv(t *testing.T) (*serveEnv, *serveProc) {
	e := newServeEnv(t, "hooks: {}\n")
	e.socketPath = filepath.Join(e.home, "hermes-hooks.sock")
	p := e.serve()
	return e, p
}

// hookCall runs `hook claude PreToolUse` on a Bash call of command, as the
// agent does: through serve unless noServer.
func (e *serveEnv) hookCall(command string, noServer bool) (stdout, stderr string) {
	e.t.Helper()
	payload := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + command + `"},"cwd":"` + e.dir + `"}`
	args := []string{"hook", "claude", "PreToolUse"}
	if noServer {
		args = append(args, "--no-server")
	}
	out, errs, code := e.cli(payload, args...)
	if code != 0 {
		e.t.Fatalf("hook: exit %d %q %s", code, out, errs)
	}
	return out, errs
}

// hookRmrf is hookCall on `rm -rf /`.
func (e *serveEnv) hookRmrf(noServer bool) (stdout, stderr string) {
	e.t.Helper()
	return e.hookCall("rm -rf /", noServer)
}

// startHelper starts sh -c script with $0 = the config and waits until it
// prints its first line (it is in place); stop kills it (and so does the
// test's end) and waits for it.
func startHelper(t *testing.T, e *serveEnv, script string) (stop func()) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script, e.config)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Read before Wait runs: Wait closes the pipe.
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
		t.Fatalf("helper: %v", err)
	}
	done := make(chan struct{})
	go func() {
		cmd.Wait()
		close(done)
	}()
	stop = func() {
		cmd.Process.Kill()
		<-done
	}
	t.Cleanup(stop)
	return stop
}

// The config saved in place while another process holds it open for
// writing (Linux: serve waits for the writer, however long).
func TestHookStaleServeWriterHoldsConfig(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the open-for-writing probe is Linux's (F_SETLEASE)")
	}
	e, p := staleEnv(t)
	stop := startHelper(t, e, `exec 3>>"$0"; echo held; exec sleep 600`)
	// In place: the holder's descriptor is the file serve reads.
	if err := os.WriteFile(e.config, []byte(staleGuard), 0o644); err != nil {
		t.Fatal(err)
	}
	stillWaiting(t, e, p)
	// The writer is done: serve loads the file and answers itself.
	stop()
	servesTheGuard(t, e, p)
}

// The config saved while another process touches it every 0.1 s: its
// stat identity seldom stays the same for the settle period (on a busy
// machine the toucher can pause longer, and serve may load the file
// meanwhile), so the hook is asked while it is touched, whichever config
// serve has.
func TestHookStaleServeToucher(t *testing.T) {
	e, p := staleEnv(t)
	stop := startHelper(t, e, `echo touching; while :; do touch "$0"; sleep 0.1; done`)
	e.writeConfig(staleGuard)
	if out, _ := e.hookRmrf(true); out != staleDeny {
		t.Fatalf("one-shot: %q", out)
	}
	if out, errs := e.hookRmrf(false); out != staleDeny {
		t.Fatalf("through serve (generation %v) while the config is touched: %q\n%s", p.generation(), out, errs)
	}
	stop()
	servesTheGuard(t, e, p)
}

// stillWaiting: past its settle bound serve says so and still keeps its
// old config (a file still open for writing may be half of one), and the
// hook, refused by serve (409), refuses `rm -rf /` by itself, as the
// one-shot does: neither reads a file still open for writing.
func stillWaiting(t *testing.T, e *serveEnv, p *serveProc) {
	t.Helper()
	const held = `"permissionDecision":"deny","permissionDecisionReason":"hermes-hooks refuses tool calls until its config loads: `
	if out, _ := e.hookRmrf(true); !strings.Contains(out, held) || !strings.Contains(out, "stays open for writing") {
		t.Fatalf("one-shot: %q", out)
	}
	p.waitLog(`the config files keep changing or stay open for writing`)
	if g := p.generation(); g != 1 {
		t.Fatalf("serve loaded a config still open for writing: generation %v", g)
	}
	if out, errs := e.hookRmrf(false); !strings.Contains(out, held) {
		t.Fatalf("through serve while the config is held: %q\n%s", out, errs)
	}
}

// servesTheGuard: once the file is left alone serve loads it and answers
// the hook itself.
func servesTheGuard(t *testing.T, e *serveEnv, p *serveProc) {
	t.Helper()
	p.waitFor("serve to load the config", func() bool { return p.generation() == 2 })
	if out, errs := e.hookRmrf(false); out != staleDeny || errs != "" {
		t.Fatalf("through serve after the load: %q\n%s", out, errs)
	}
	p.waitLog(`msg=dispatch event=pre_tool_call decision=block`)
}

// A config that does not load: the one-shot refuses every tool call,
// and so must a forwarded call, though serve keeps its last good config.
func TestHookStaleServeBrokenConfig(t *testing.T) {
	e, p := staleEnv(t)
	broken := strings.Replace(staleGuard, "      decision: block\n", "      decision: block\n      decision: allow\n", 1)
	e.writeConfig(broken)
	p.waitLog(`msg="config reload failed: keeping the last good config"`)
	refusal := `"permissionDecision":"deny","permissionDecisionReason":"hermes-hooks refuses tool calls until `
	if out, _ := e.hookRmrf(true); !strings.Contains(out, refusal) {
		t.Fatalf("one-shot: %q", out)
	}
	if out, errs := e.hookRmrf(false); !strings.Contains(out, refusal) {
		t.Fatalf("through serve (generation %v) with a broken config: %q\n%s", p.generation(), out, errs)
	}
	// doctor --live says what the server does meanwhile, not only what
	// is wrong with the file.
	if _, errs, code := e.cli("", "doctor", "--live"); code != 1 || !strings.Contains(errs, "decision") ||
		!strings.Contains(errs, "still answers from generation 1 (0 hooks)") {
		t.Fatalf("doctor --live with a broken config: exit %d\n%s", code, errs)
	}
	// Fixed: serve loads it and answers again.
	e.writeConfig(staleGuard)
	p.waitFor("serve to load the fixed config", func() bool { return p.generation() == 2 })
	out, errs := e.hookRmrf(false)
	if out != staleDeny || errs != "" {
		t.Fatalf("through serve after the fix: %q\n%s", out, errs)
	}
}
