//go:build unix

package server

import (
	"strings"
	"testing"
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
