package permrule

// Scaling probes (issue: "never hangs" against hostile input): each
// shape of hostile input at growing sizes, the time each size takes, for
// a person to read (no timing is asserted; the tests that hold the fixed
// paths assert work or hang bounds). Skipped unless HERMES_SCALING_PROBE
// is set.

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

func TestScalingProbeShellRule(t *testing.T) {
	if os.Getenv("HERMES_SCALING_PROBE") == "" {
		t.Skip("a probe that reports input size against time: HERMES_SCALING_PROBE=1 go test -run ScalingProbe -v ./protocol/permrule")
	}
	shq := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	shapes := map[string]func(n int) string{
		"semis": func(n int) string { return strings.Repeat("ls; ", n) + "git push" },
		"pipes": func(n int) string { return strings.Repeat("ls | ", n) + "git push" },
		"assign": func(n int) string {
			var b strings.Builder
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "V%d=x ", i)
			}
			return b.String() + "git push"
		},
		"words": func(n int) string { return "git push" + strings.Repeat(" a", n) },
		"wrap":  func(n int) string { return strings.Repeat("nice -n 1 timeout 5 env A=1 ", n) + "git push" },
		"subst": func(n int) string { return "echo " + strings.Repeat("$(", n) + "git push" + strings.Repeat(")", n) },
		"shc":   func(n int) string { return strings.Repeat("sh -c 'ls; ", n) + "git push" + strings.Repeat("'", n) },
		"shcq": func(n int) string {
			s := "git push"
			for i := 0; i < n && len(s) < 60000; i++ {
				s = "sh -c " + shq(s+"; ls")
			}
			return s
		},
		"find": func(n int) string { return "find . " + strings.Repeat("-exec ls {} ; ", n) },
		"trap": func(n int) string { return strings.Repeat("trap 'ls' EXIT; ", n) + "git push" },
	}
	for _, rule := range []string{"Bash(git push:*)", "Bash(git * --force*)"} {
		r, err := ParseIfRule(rule)
		if err != nil {
			t.Fatal(err)
		}
		for name, gen := range shapes {
			var prev time.Duration
			for _, n := range []int{1600, 6400, 21000} {
				cmd := gen(n)
				if len(cmd) > maxShellCommand {
					break
				}
				s := time.Now()
				ok, why := r.Match("Bash", map[string]any{"command": cmd}, RuleContext{Cwd: "/p"})
				d := time.Since(s)
				rt := 0.0
				if prev > 0 {
					rt = float64(d) / float64(prev)
				}
				prev = d
				if len(why) > 50 {
					why = why[:50]
				}
				t.Logf("%-22s %-6s n=%5d len=%6d %12v x%.1f ok=%v %q", rule, name, n, len(cmd), d, rt, ok, why)
			}
		}
	}
}
