package hookconfig

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

func probeTime(f func()) time.Duration {
	best := time.Hour
	for i := 0; i < 3; i++ {
		s := time.Now()
		f()
		if d := time.Since(s); d < best {
			best = d
		}
	}
	return best
}

// configShapes are the shapes of hostile input the probe grows, by name.
func configShapes() map[string]func(n int) string {
	return map[string]func(n int) string{
		"entries": func(n int) string {
			var b strings.Builder
			b.WriteString("hooks:\n  pre_tool_call:\n")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "    - command: ./h%d.sh\n      matcher: 't%d'\n", i, i)
			}
			return b.String()
		},
		"sameentries": func(n int) string {
			return "hooks:\n  pre_tool_call:\n" + strings.Repeat("    - command: ./h.sh\n      matcher: 'a(b|c)+'\n", n)
		},
		"longline": func(n int) string {
			return "hooks:\n  pre_tool_call:\n    - command: ./" + strings.Repeat("x", n*20) + "\n"
		},
		"longmatcher": func(n int) string {
			return "hooks:\n  pre_tool_call:\n    - command: x\n      matcher: '" + strings.Repeat("(a|b)", n) + "'\n"
		},
		"longmatcherclaude": func(n int) string {
			return "hooks:\n  PreToolUse:\n    - matcher: '" + strings.Repeat("(a|b)", n) + "'\n      hooks:\n        - type: command\n          command: x\n"
		},
		// n aliases of one anchored text of 100 KB spelling parts of a
		// fail_closed key (textAsks): as unknown events, and as the items
		// of a gating event. Each alias must not scan the text anew.
		"aliastextevents": func(n int) string {
			var b strings.Builder
			b.WriteString("x: &s \"" + strings.Repeat("fail_clos failClose ", 5_000) + "\"\nhooks: {")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "e%d: *s, ", i)
			}
			return b.String() + "}\n"
		},
		"aliastextitems": func(n int) string {
			return "x: &s \"" + strings.Repeat("fail_clos failClose ", 5_000) + "\"\nhooks: {pre_tool_call: [" + strings.Repeat("*s, ", n) + "]}\n"
		},
		"nestflow": func(n int) string {
			return "hooks:\n  pre_tool_call:\n    - command: x\n      examples: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n"
		},
		"nestblock": func(n int) string {
			var b strings.Builder
			b.WriteString("x:\n")
			for i := 0; i < n; i++ {
				b.WriteString(strings.Repeat(" ", i+1) + "- \n")
			}
			return b.String()
		},
		"unknownkeys": func(n int) string {
			var b strings.Builder
			b.WriteString("hooks:\n")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "  pre_tool_cal%d:\n    - command: x\n", i)
			}
			return b.String()
		},
		"entrykeys": func(n int) string {
			var b strings.Builder
			b.WriteString("hooks:\n  pre_tool_call:\n    - command: x\n")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "      k%d: 1\n", i)
			}
			return b.String()
		},
		"aliases": func(n int) string {
			var b strings.Builder
			b.WriteString("a: &a {command: x, matcher: terminal}\nhooks:\n  pre_tool_call:\n")
			for i := 0; i < n; i++ {
				b.WriteString("    - *a\n")
			}
			return b.String()
		},
		"aliaschain": func(n int) string {
			var b strings.Builder
			b.WriteString("a0: &a0 [x, x]\n")
			for i := 1; i < n; i++ {
				fmt.Fprintf(&b, "a%d: &a%d [*a%d, *a%d]\n", i, i, i-1, i-1)
			}
			fmt.Fprintf(&b, "hooks:\n  pre_tool_call:\n    - command: x\n      examples: [*a%d]\n", n-1)
			return b.String()
		},
		"aliaschainmap": func(n int) string {
			var b strings.Builder
			b.WriteString("a0: &a0 {command: x}\n")
			for i := 1; i < n; i++ {
				fmt.Fprintf(&b, "a%d: &a%d {a: *a%d, b: *a%d}\n", i, i, i-1, i-1)
			}
			fmt.Fprintf(&b, "hooks:\n  pre_tool_call:\n    - *a%d\n", n-1)
			return b.String()
		},
		"toolaliases": func(n int) string {
			var b strings.Builder
			b.WriteString("tool_aliases:\n")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "  t%d: T%d\n", i, i)
			}
			return b.String()
		},
		"agentfiles": func(n int) string {
			var b strings.Builder
			b.WriteString("claude_settings:\n")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "  - s%d.json\n", i)
			}
			return b.String()
		},
		"rules": func(n int) string {
			var b strings.Builder
			b.WriteString("hooks:\n  pre_tool_call:\n")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "    - rule: 'args.command contains \"x%d\"'\n      id: r%d\n      decision: block\n      message: m\n", i, i)
			}
			return b.String()
		},
		"ifrules": func(n int) string {
			var b strings.Builder
			b.WriteString("hooks:\n  PreToolUse:\n")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "    - matcher: Bash\n      hooks:\n        - type: command\n          command: x%d\n          if: 'Bash(git %d:*)'\n", i, i)
			}
			return b.String()
		},
	}
}

func TestScalingProbeConfig(t *testing.T) {
	if os.Getenv("HERMES_SCALING_PROBE") == "" {
		t.Skip("a probe that reports input size against time: HERMES_SCALING_PROBE=1 go test -run ScalingProbe -v ./hookconfig")
	}
	shapes := configShapes()
	for name, gen := range shapes {
		var prev time.Duration
		for _, n := range []int{250, 1000, 4000} {
			data := []byte(gen(n))
			var cfg *Config
			var err error
			d := probeTime(func() {
				cfg, err = parseConfig(data, "p.yaml", 0)
			})
			ne, nw := 0, 0
			if cfg != nil {
				ne, nw = len(cfg.Entries), len(cfg.Warnings)
			}
			r := 0.0
			if prev > 0 {
				r = float64(d) / float64(prev)
			}
			t.Logf("%-18s n=%5d bytes=%8d %12v x%.1f entries=%d warnings=%d err=%v", name, n, len(data), d, r, ne, nw, err != nil)
			prev = d
			if d > 5*time.Second {
				break
			}
		}
	}
}

func TestScalingProbeClaudeSettings(t *testing.T) {
	if os.Getenv("HERMES_SCALING_PROBE") == "" {
		t.Skip("a probe that reports input size against time: HERMES_SCALING_PROBE=1 go test -run ScalingProbe -v ./hookconfig")
	}
	shapes := map[string]func(n int) string{
		"groups": func(n int) string {
			var b strings.Builder
			b.WriteString(`{"hooks":{"PreToolUse":[`)
			for i := 0; i < n; i++ {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `{"matcher":"T%d|U%d","hooks":[{"type":"command","command":"./h%d.sh"}]}`, i, i, i)
			}
			return b.String() + "]}}"
		},
		"hooksingroup": func(n int) string {
			var b strings.Builder
			b.WriteString(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[`)
			for i := 0; i < n; i++ {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `{"type":"command","command":"./h%d.sh","if":"Bash(git %d:*)"}`, i, i)
			}
			return b.String() + "]}]}}"
		},
		"events": func(n int) string {
			var b strings.Builder
			b.WriteString(`{"hooks":{`)
			for i := 0; i < n; i++ {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `"PreToolUs%d":[]`, i)
			}
			return b.String() + "}}"
		},
		"deep": func(n int) string { return `{"x":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `,"hooks":{}}` },
		"longmatcher": func(n int) string {
			return `{"hooks":{"PreToolUse":[{"matcher":"` + strings.Repeat("(a|b)", n) + `","hooks":[{"type":"command","command":"x"}]}]}}`
		},
		"namelist": func(n int) string {
			return `{"hooks":{"PreToolUse":[{"matcher":"` + strings.Repeat("Bash|", n) + `Read","hooks":[{"type":"command","command":"x"}]}]}}`
		},
		"permissions": func(n int) string {
			var b strings.Builder
			b.WriteString(`{"permissions":{"allow":[`)
			for i := 0; i < n; i++ {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `"Bash(git %d:*)"`, i)
			}
			return b.String() + `]},"hooks":{}}`
		},
	}
	for name, gen := range shapes {
		var prev time.Duration
		for _, n := range []int{1000, 4000, 16000} {
			data := []byte(gen(n))
			best := time.Hour
			var ne, nw int
			var err error
			for i := 0; i < 3; i++ {
				s := time.Now()
				var es []*Entry
				var ws []Warning
				es, ws, err = parseClaudeSettings(data, "s.json")
				if d := time.Since(s); d < best {
					best = d
				}
				ne, nw = len(es), len(ws)
			}
			r := 0.0
			if prev > 0 {
				r = float64(best) / float64(prev)
			}
			prev = best
			t.Logf("%-14s n=%6d bytes=%8d %12v x%.1f entries=%d warnings=%d err=%v", name, n, len(data), best, r, ne, nw, err != nil)
		}
	}
}

func TestScalingProbeBrokenYAML(t *testing.T) {
	if os.Getenv("HERMES_SCALING_PROBE") == "" {
		t.Skip("a probe that reports input size against time: HERMES_SCALING_PROBE=1 go test -run ScalingProbe -v ./hookconfig")
	}
	shapes := map[string]func(n int) string{
		"tabs":      func(n int) string { return "hooks:\n" + strings.Repeat("  pre_tool_call:\n\t- command: x\n", n) },
		"unclosed":  func(n int) string { return "hooks:\n" + strings.Repeat("  - command: 'x\n", n) },
		"badindent": func(n int) string { return strings.Repeat("a:\n b: 1\n  c: 2\n", n) },
		"colons": func(n int) string {
			return "hooks:\n  pre_tool_call:\n" + strings.Repeat("    - command: a: b: c\n", n)
		},
		"flowbroken": func(n int) string { return "x: " + strings.Repeat("[", n) + "\n" + strings.Repeat("y: 1\n", n) },
		"dupkeys":    func(n int) string { return strings.Repeat("hooks: 1\n", n) },
		"longline":   func(n int) string { return "x: " + strings.Repeat("a: ", n*10) + "\n" },
		"quotes":     func(n int) string { return strings.Repeat("x: \"a\" b\n", n) },
	}
	for name, gen := range shapes {
		var prev time.Duration
		for _, n := range []int{1000, 4000, 16000, 64000} {
			data := []byte(gen(n))
			s := time.Now()
			_, err := ParseConfig(data, "p.yaml")
			d := time.Since(s)
			r := 0.0
			if prev > 0 {
				r = float64(d) / float64(prev)
			}
			prev = d
			e := ""
			if err != nil {
				e = err.Error()
				if len(e) > 60 {
					e = e[:60]
				}
			}
			t.Logf("%-10s n=%6d bytes=%8d %12v x%.1f %q", name, n, len(data), d, r, e)
		}
	}
}
