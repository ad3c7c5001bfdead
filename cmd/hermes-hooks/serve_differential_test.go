//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A forwarded `hook` call must be answered exactly as `hook --no-server`
// answers it at that moment, or handed back (409) for the caller to
// decide. These tests run one payload both ways, with some input differing
// between serve and the caller, and compare what the agent reads: stdout
// and the exit code.

// hookWay is one run of `hook AGENT EVENT`.
type hookWay struct {
	out, errs string
	code      int
}

// handedBack: the server did not answer (409, or not reached) and the
// hook dispatched by itself, saying so.
func (w hookWay) handedBack() bool { return strings.Contains(w.errs, "not used: ") }

// diffCall is one call made both ways from dir, with env added to the
// caller's environment and pre before `hook`.
type diffCall struct {
	dir     string
	env     []string
	pre     []string
	agent   string // "claude" unless set
	event   string // "PreToolUse" unless set
	payload string
}

// hookBoth runs c through serve (as the agent's hook line does) and with
// --no-server, and fails the test when serve answered and answered
// otherwise.
func (e *serveEnv) hookBoth(c diffCall) (fwd, one hookWay) {
	e.t.Helper()
	if c.dir == "" {
		c.dir = e.dir
	}
	agent, event := cmpOr(c.agent, "claude"), cmpOr(c.event, "PreToolUse")
	run := func(extra ...string) hookWay {
		args := append(append(append([]string{}, c.pre...), "hook", agent, event), extra...)
		var w hookWay
		w.out, w.errs, w.code = e.cliIn(c.dir, c.payload, c.env, args...)
		return w
	}
	fwd, one = run(), run("--no-server")
	if one.handedBack() {
		e.t.Fatalf("--no-server asked a server: %s", one.errs)
	}
	if !fwd.handedBack() && (fwd.out != one.out || fwd.code != one.code) {
		e.t.Errorf("serve answered otherwise than the one-shot:\nserve:    exit %d %q\none-shot: exit %d %q\n(one-shot stderr: %s)",
			fwd.code, fwd.out, one.code, one.out, one.errs)
	}
	return fwd, one
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// serveWith starts serve with env added to its environment.
func (e *serveEnv) serveWith(env []string, args ...string) *serveProc {
	e.t.Helper()
	saved := e.env
	e.env = append(append([]string{}, saved...), env...)
	defer func() { e.env = saved }()
	return e.serve(args...)
}

var diffSeq int

// bashCall is a Claude Code PreToolUse payload for a Bash command run in
// cwd (each in a session of its own: session state is not compared here).
func bashCall(cwd, command string) string {
	diffSeq++
	return `{"session_id":"d` + strconv.Itoa(diffSeq) + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":` +
		strconv.Quote(command) + `},"cwd":` + strconv.Quote(cwd) + `}`
}

// readCall is one of the Read tool on file.
func readCall(cwd, file string) string {
	diffSeq++
	return `{"session_id":"d` + strconv.Itoa(diffSeq) + `","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":` +
		strconv.Quote(file) + `},"cwd":` + strconv.Quote(cwd) + `}`
}

// mkHome makes another home directory under the env's root.
func (e *serveEnv) mkHome(name string) string {
	e.t.Helper()
	d := filepath.Join(e.root, name)
	if err := os.MkdirAll(d, 0o700); err != nil {
		e.t.Fatal(err)
	}
	return d
}

func writeAt(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	replaceFile(t, path, content, mode)
}

// The caller's home directory decides what the one-shot loads and
// matches: a "~/…" path in the config (rules:, an agent's settings file,
// the journal), a Claude `if` rule's "~/…" pattern, and which hook files
// are an agent's own. serve answered with its own HOME's: a guard in the
// caller's ~/guards.yaml, or one whose `if` names the caller's ~/.ssh,
// was skipped, and the agent read no objection.
func TestServeCallerHomeDiffers(t *testing.T) {
	t.Run("rules", func(t *testing.T) {
		e := newServeEnv(t, "rules: [~/guards.yaml]\nhooks: {}\n")
		e.socketPath = filepath.Join(e.home, "hermes-hooks.sock")
		serveHome, callerHome := e.mkHome("shome"), e.mkHome("chome")
		writeAt(t, filepath.Join(serveHome, "guards.yaml"), "hooks: {}\n", 0o644)
		writeAt(t, filepath.Join(callerHome, "guards.yaml"), staleGuard, 0o644)
		e.serveWith([]string{"HOME=" + serveHome})
		if fwd, one := e.hookBoth(diffCall{env: []string{"HOME=" + callerHome}, payload: bashCall(e.dir, "rm -rf /")}); one.out != staleDeny || !fwd.handedBack() {
			t.Errorf("another HOME: one-shot %q; serve's answer used: %v", one.out, !fwd.handedBack())
		}
		// The same HOME is still served.
		if fwd, _ := e.hookBoth(diffCall{env: []string{"HOME=" + serveHome}, payload: bashCall(e.dir, "rm -rf /")}); fwd.handedBack() {
			t.Errorf("the server's own HOME handed back: %s", fwd.errs)
		}
	})
	t.Run("if", func(t *testing.T) {
		e := newServeEnv(t, "claude_settings: [settings.json]\nhooks: {}\n")
		e.socketPath = filepath.Join(e.home, "hermes-hooks.sock")
		serveHome, callerHome := e.mkHome("shome"), e.mkHome("chome")
		guard := e.script("guard.sh", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no keys"}}'`+"\n")
		writeAt(t, filepath.Join(e.home, "settings.json"), `{"hooks":{"PreToolUse":[{"matcher":"Read","hooks":[{"type":"command","command":"`+guard+`","if":"Read(~/.ssh/**)"}]}]}}`, 0o644)
		e.mustCLI("approve", "--all")
		e.serveWith([]string{"HOME=" + serveHome})
		fwd, one := e.hookBoth(diffCall{env: []string{"HOME=" + callerHome}, payload: readCall(e.dir, filepath.Join(callerHome, ".ssh", "id_rsa"))})
		if !strings.Contains(one.out, `"permissionDecision":"deny"`) || !fwd.handedBack() {
			t.Errorf("another HOME: one-shot %q; serve's answer used: %v", one.out, !fwd.handedBack())
		}
	})
}

// HERMES_HOME holds the allowlist (and the session files and journal) the
// one-shot reads. A caller sent to a serve of another HERMES_HOME
// (HERMES_HOOKS_SERVER, --server) with the same --config was answered by
// that server's approvals: a guard approved only in the caller's skipped
// as unapproved, no objection where the one-shot blocks.
func TestServeCallerHermesHomeDiffers(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	guard := e.script("guard.sh", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"guard says no"}}'`+"\n")
	e.writeConfig("hooks:\n  PreToolUse:\n    - matcher: Bash\n      command: " + guard + "\n")
	other := e.mkHome("hh2")
	callerEnv := []string{"HERMES_HOME=" + other, "HERMES_HOOKS_SERVER=" + e.socketPath}
	if out, errs, code := e.cliIn(e.dir, "", callerEnv, "--config", e.config, "approve", "--all"); code != 0 {
		t.Fatalf("approve: exit %d %s %s", code, out, errs)
	}
	e.serve("--config", e.config)
	fwd, one := e.hookBoth(diffCall{env: callerEnv, pre: []string{"--config", e.config}, payload: bashCall(e.dir, "ls")})
	if !strings.Contains(one.out, "guard says no") || !fwd.handedBack() {
		t.Errorf("another HERMES_HOME: one-shot %q; serve's answer used: %v", one.out, !fwd.handedBack())
	}
	// Its own HERMES_HOME (approved there too) is served.
	e.mustCLI("--config", e.config, "approve", "--all")
	if fwd, _ := e.hookBoth(diffCall{env: []string{"HERMES_HOOKS_SERVER=" + e.socketPath}, pre: []string{"--config", e.config}, payload: bashCall(e.dir, "ls")}); fwd.handedBack() {
		t.Errorf("the server's own HERMES_HOME handed back: %s", fwd.errs)
	}
}
