//go:build unix

package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/serverstats"
)

// A rule file saved with a rule that does not compile, while serve runs:
// the reload that puts it in service says so (file, line, and what the
// rule then does), before any call reaches it. It said "config reloaded …
// warnings=0" and "hook added", and nothing until the rule's first call.
func TestReloadNamesARuleThatDoesNotCompile(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, nil)
	f.writeConfig(`hooks:
  pre_tool_call:
    - matcher: terminal
      rule: 'args.command contains "rm -rf" &&'
      decision: block
      message: no rm -rf
    - matcher: terminal
      rule: 'args.command contains "mkfs" ||'
      decision: block
      fail_closed: true
      message: no mkfs
`)
	f.waitGeneration(2)
	f.waitLog("line=8 ") // after the generation is in service
	logs := f.logs.String()
	for _, want := range []string{
		`msg="rule does not compile" file=` + f.config + ` line=4 reason="unexpected token EOF" then="it decides nothing"`,
		`msg="rule does not compile" file=` + f.config + ` line=8 reason="unexpected token EOF" then="fail_closed: it refuses every call it selects"`,
	} {
		if !strings.Contains(logs, want) {
			t.Errorf("the reload's log lacks %s:\n%s", want, logs)
		}
	}
}

// A rule past its time bound is counted in /v1/stats' (and /metrics')
// timeouts, where doctor --live says "timed out": it was counted as an
// error, so an alert on hermes_hooks_hook_timeouts_total never saw a
// payload that made a rule outlast its bound. It is counted by the
// report's timeout field, as a command's timeout is: the dispatch's log
// line counted it as a failed hook (failed=1), as it read that field.
func TestStatsCountARuleTimeoutAsATimeout(t *testing.T) {
	src := `args.command matches "[a-z]+;[a-z]+;rm"`
	f := start(t, `hooks:
  pre_tool_call:
    - matcher: terminal
      rule: '`+src+`'
      timeout: 0.001
      decision: block
      message: no
`, nil, nil)
	// Megabytes to scan (the literal is at the end) for a bound of a
	// millisecond: a match that outlasts it on any machine.
	cmd := strings.Repeat("x;", 2<<20) + "rm"
	f.outcome("pre_tool_call", `{"tool_name":"terminal","args":{"command":"`+cmd+`"}}`)
	h := hookStatsOf(t, f.stats(), "rule: "+src)
	if h.Timeouts != 1 || h.Errors != 0 || !strings.Contains(h.LastError, "passed its time bound") {
		t.Errorf("a rule past its bound: timeouts %d, errors %d, last error %q; want 1, 0, its bound", h.Timeouts, h.Errors, h.LastError)
	}
	fams := f.scrape()
	labels := []string{"command", "rule: " + src, "event", "pre_tool_call"}
	if n, e := value(t, fams, serverstats.FamTimeouts.Name, serverstats.FamTimeouts.Name, labels...), value(t, fams, serverstats.FamErrors.Name, serverstats.FamErrors.Name, labels...); n != 1 || e != 0 {
		t.Errorf("/metrics: timeouts %g, errors %g; want 1, 0", n, e)
	}
	f.waitLog("event=pre_tool_call decision=none")
	if logs := f.logs.String(); !strings.Contains(logs, " timed_out=1 ") || strings.Contains(logs, " failed=") {
		t.Errorf("the dispatch's log line does not count the rule as timed out:\n%s", logs)
	}
}

// A repository's fail_closed rule that does not compile refuses the calls
// it selects only once approved: nobody's approval, it is skipped. The
// reload's log said it refuses every call it selects whether approved or
// not, which a user reading serve's log took as guarding.
func TestReloadSaysARepositoryRuleRefusesOnceApproved(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, nil)
	if err := os.Mkdir(filepath.Join(f.dir, ".hermes"), 0o700); err != nil {
		t.Fatal(err)
	}
	writeAtomic(t, filepath.Join(f.dir, ".hermes", "hooks.yaml"), `hooks:
  pre_tool_call:
    - matcher: terminal
      rule: 'args.command contains "mkfs" ||'
      decision: block
      fail_closed: true
      message: no mkfs
`, 0o644)
	f.waitGeneration(2)
	f.waitLog("rule does not compile")
	want := `then="fail_closed: once approved, it refuses every call it selects (until then it is skipped)"`
	if logs := f.logs.String(); !strings.Contains(logs, want) {
		t.Errorf("the reload's log lacks %s:\n%s", want, logs)
	}
}
