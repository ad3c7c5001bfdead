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
