//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Rules through serve: a forwarded call is answered as the one-shot
// answers it whatever happens to a repository's rule files.

// repoRuleGuard is a repository's rule file: it blocks rm -rf.
const repoRuleGuard = `hooks:
  pre_tool_call:
    - matcher: terminal
      rule: 'args.command matches "rm\\s+-rf"'
      decision: block
      message: "repo says no"
`

// repoRuleEnv is a serve (default socket) in a project whose hooks file
// includes rules/team.yaml, approved.
func repoRuleEnv(t *testing.T) (e *serveEnv, ruleFile string) {
	t.Helper()
	e = newServeEnv(t, "hooks: {}\n")
	e.socketPath = filepath.Join(e.home, "hermes-hooks.sock")
	for _, d := range []string{".git", ".hermes", "rules"} {
		if err := os.MkdirAll(filepath.Join(e.dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	replaceFile(t, filepath.Join(e.dir, ".hermes", "hooks.yaml"), "rules: [../rules/team.yaml]\nhooks: {}\n", 0o644)
	ruleFile = filepath.Join(e.dir, "rules", "team.yaml")
	replaceFile(t, ruleFile, repoRuleGuard, 0o644)
	if out, errs, code := e.cli("", "approve", "--project", "--yes"); code != 0 {
		t.Fatalf("approve --project: %d %s %s", code, out, errs)
	}
	return e, ruleFile
}

// A repository's rule file goes missing (a checkout of a branch without
// it) while serve runs, then comes back: the one-shot blocks with the rule
// again, and so must a forwarded call. Serve loaded the hooks file that
// did not load, and with it no list of its rule files, so it never looked
// at the rule file again and kept refusing every call.
func TestHookStaleServeRepositoryRuleFileBack(t *testing.T) {
	e, ruleFile := repoRuleEnv(t)
	p := e.serve()
	if out, _ := e.hookRmrf(false); out != claudeDeny("repo says no") {
		t.Fatalf("before: %q", out)
	}
	aside := filepath.Join(e.root, "team.yaml")
	if err := os.Rename(ruleFile, aside); err != nil {
		t.Fatal(err)
	}
	p.waitFor("serve to load the hooks file without its rule file", func() bool { return p.generation() == 2 })
	if err := os.Rename(aside, ruleFile); err != nil {
		t.Fatal(err)
	}
	if out, _ := e.hookRmrf(true); out != claudeDeny("repo says no") {
		t.Fatalf("one-shot: %q", out)
	}
	if out, errs := e.hookRmrf(false); out != claudeDeny("repo says no") {
		t.Fatalf("through serve (generation %v) once the rule file is back: %q\n%s", p.generation(), out, errs)
	}
}

// slowRule blocks rm -rf /zz; on a long command without a | or ; its
// first pattern passes the rule's time bound (one match of it runs on,
// past the bound, for about as many times the bound as the command is
// longer than 200 KB), and it is not fail_closed. Its class needs no
// literal, so the command is matched, not answered by the literals a
// match needs.
const slowRule = `hooks:
  pre_tool_call:
    - matcher: terminal
      rule: 'args.command matches "[^|]{0,1000}[|;]" || args.command contains "rm -rf /zz"'
      decision: block
      message: "no rm -rf /zz"
`

// A rule that passed its time bound in serve is disabled there until its
// evaluation ends; a call of another session meanwhile found it disabled
// and was let through, where the one-shot, a process of its own, decides
// the rule and blocks. A forwarded call is refused then (409) and decides
// by itself. (In serve --user each project set compiles its rules apart,
// so another project's calls never found the rule disabled.)
func TestHookServeRuleDisabledAfterItsBound(t *testing.T) {
	e := newServeEnv(t, slowRule)
	e.socketPath = filepath.Join(e.home, "hermes-hooks.sock")
	e.serve()
	long := `{"session_id":"x","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` +
		strings.Repeat("a", 4<<20) + `"},"cwd":"` + e.dir + `"}`
	out, errs, code := e.cli(long, "hook", "claude", "PreToolUse")
	if code != 0 || !strings.Contains(out, "passed its time bound") {
		t.Fatalf("the long command: exit %d %q %s", code, out, errs)
	}
	// The long command's match goes on (seconds) in serve.
	if out, _ := e.hookCall("rm -rf /zz", true); out != claudeDeny("no rm -rf /zz") {
		t.Fatalf("one-shot: %q", out)
	}
	if out, errs := e.hookCall("rm -rf /zz", false); out != claudeDeny("no rm -rf /zz") {
		t.Fatalf("through serve after another session's call passed the rule's bound: %q\n%s", out, errs)
	}
}

// The same for a bundle's rule file: gone by hand while serve runs (the
// bundle's config then does not load), then put back. Serve kept no list
// of the rule files of a bundle whose config did not load either.
func TestHookStaleServeBundleRuleFileBack(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	e.socketPath = filepath.Join(e.home, "hermes-hooks.sock")
	src := filepath.Join(e.root, "src")
	if err := os.MkdirAll(filepath.Join(src, "rules"), 0o700); err != nil {
		t.Fatal(err)
	}
	replaceFile(t, filepath.Join(src, "config.yaml"), "rules: [rules/guard.yaml]\n", 0o644)
	replaceFile(t, filepath.Join(src, "rules", "guard.yaml"), repoRuleGuard, 0o644)
	for _, args := range [][]string{
		{"bundle", "pack", src, "--name", "corp", "--serial", "1", "-o", "corp.tar.gz"},
		{"bundle", "keygen", "-o", "corp"},
		{"bundle", "sign", "corp.tar.gz", "--key", "corp.key"},
		{"bundle", "install", "corp.tar.gz", "--pub", "corp.pub"},
	} {
		e.mustCLI(args...)
	}
	p := e.serve()
	if out, _ := e.hookRmrf(false); out != claudeDeny("repo says no") {
		t.Fatalf("before: %q", out)
	}
	ruleFile := filepath.Join(e.home, "bundles", "corp", "files", "rules", "guard.yaml")
	aside := filepath.Join(e.root, "guard.yaml")
	if err := os.Rename(ruleFile, aside); err != nil {
		t.Fatal(err)
	}
	p.waitFor("serve to load the bundle without its rule file", func() bool { return p.generation() == 2 })
	if err := os.Rename(aside, ruleFile); err != nil {
		t.Fatal(err)
	}
	if out, _ := e.hookRmrf(true); out != claudeDeny("repo says no") {
		t.Fatalf("one-shot: %q", out)
	}
	if out, errs := e.hookRmrf(false); out != claudeDeny("repo says no") {
		t.Fatalf("through serve (generation %v) once the rule file is back: %q\n%s", p.generation(), out, errs)
	}
}
