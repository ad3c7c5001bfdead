//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Attack (a guard lost to a write in progress): a rule file rewritten in
// place — truncated, then written — is half a file on disk while its
// writer pauses. serve keeps its last good config and refuses the
// forwarded call (409), and the hook then dispatched by itself from the
// half-written file: the guard not written back yet did not exist, and
// `echo BBB` went through, with serve running and with --no-server. A
// dispatch now reads no file that is still open for writing: it waits,
// and refuses a tool call when the writer does not finish in time.
func TestHookHalfWrittenRuleFile(t *testing.T) {
	const head = "hooks:\n  pre_tool_call:\n" +
		"    - matcher: terminal\n      rule: 'args.command contains \"AAA\"'\n      decision: block\n      fail_closed: true\n      message: \"no AAA\"\n"
	const tail = "    - matcher: terminal\n      rule: 'args.command contains \"BBB\"'\n      decision: block\n      fail_closed: true\n      message: \"no BBB\"\n"
	e, p := staleEnv(t)
	rules := filepath.Join(e.home, "r1.yaml")
	replaceFile(t, rules, head+tail, 0o644)
	e.writeConfig("rules: [" + rules + "]\n")
	p.waitFor("serve to load the rules", func() bool { return p.generation() == 2 })

	w, err := os.OpenFile(rules, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.WriteString(head); err != nil {
		t.Fatal(err)
	}
	const refused = `"permissionDecision":"deny","permissionDecisionReason":"hermes-hooks refuses tool calls until `
	for _, noServer := range []bool{true, false} {
		out, errs := e.hookCall("echo BBB", noServer)
		if !strings.Contains(out, refused) || !strings.Contains(errs, "open for writing") {
			t.Fatalf("while r1.yaml is half written (no server: %v): %q\n%s", noServer, out, errs)
		}
	}

	if _, err := w.WriteString(tail); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, noServer := range []bool{true, false} {
		if out, errs := e.hookCall("echo BBB", noServer); !strings.Contains(out, `"permissionDecisionReason":"no BBB"`) {
			t.Fatalf("once r1.yaml is written (no server: %v): %q\n%s", noServer, out, errs)
		}
	}
}

// mkProject makes a git repository under e.root with hooks as its
// .hermes/hooks.yaml, and returns its root.
func mkProject(t *testing.T, e *serveEnv, name, hooks string) string {
	t.Helper()
	dir := filepath.Join(e.root, name)
	for _, d := range []string{".git", ".hermes"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	replaceFile(t, filepath.Join(dir, ".hermes", "hooks.yaml"), hooks, 0o644)
	return dir
}

// hookIn runs `hook claude --no-server` in dir on a Bash call of command
// whose cwd is cwd.
func hookIn(e *serveEnv, dir, cwd, command string) (stdout, stderr string) {
	e.t.Helper()
	payload := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + command + `"},"cwd":"` + cwd + `"}`
	out, errs, code := e.cliIn(dir, payload, nil, "hook", "claude", "PreToolUse", "--no-server")
	if code != 0 {
		e.t.Fatalf("hook: exit %d %q %s", code, out, errs)
	}
	return out, errs
}

// The same with a second project's hooks file (the agent's directory
// beside the call's cwd): the files read were checked, but of the
// projects only the first one's, and the second's guard was lost to a
// writer that had truncated its file.
func TestHookHalfWrittenSecondProject(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	guard := "hooks:\n  pre_tool_call:\n    - id: no-rmrf\n      matcher: terminal\n      rule: 'args.command contains \"rm -rf\"'\n" +
		"      decision: block\n      fail_closed: true\n      message: \"project A forbids rm -rf\"\n"
	pa := mkProject(t, e, "pa", guard)
	pb := mkProject(t, e, "pb", "hooks: {}\n")
	if out, errs, code := e.cliIn(pa, "", nil, "approve", "--project", "--yes"); code != 0 {
		t.Fatalf("approve: %d %s %s", code, out, errs)
	}
	if out, errs := hookIn(e, pa, pb, "rm -rf /tmp/x"); !strings.Contains(out, "project A forbids rm -rf") {
		t.Fatalf("before: %q\n%s", out, errs)
	}
	w, err := os.OpenFile(filepath.Join(pa, ".hermes", "hooks.yaml"), os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if out, errs := hookIn(e, pa, pb, "rm -rf /tmp/x"); !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "stays open for writing") {
		t.Fatalf("while project A's file is truncated and held: %q\n%s", out, errs)
	}
}

// Attack (a wait for ever): a repository whose hooks file names, as a
// rule file, a file some program keeps open for writing (its dev server's
// log). The project does not load (a log is no rule file) and has its
// answer for that; its files are not waited for, or every call of the
// agent would wait and then be refused.
func TestHookUnloadedProjectNotWaitedFor(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	pc := mkProject(t, e, "pc", "rules: [../app.log]\n")
	log, err := os.OpenFile(filepath.Join(pc, "app.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	if _, err := log.WriteString("GET / 200\n"); err != nil {
		t.Fatal(err)
	}
	out, errs := hookIn(e, pc, pc, "ls")
	if out != "" || strings.Contains(errs, "open for writing") || !strings.Contains(errs, "project hooks file skipped") {
		t.Fatalf("a project that does not load, with a file held open: %q\n%s", out, errs)
	}
}
