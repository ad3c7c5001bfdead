package protocol

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

func TestScalingProbeReply(t *testing.T) {
	if os.Getenv("HERMES_SCALING_PROBE") == "" {
		t.Skip("a probe that reports input size against time: HERMES_SCALING_PROBE=1 go test -run ScalingProbe -v ./protocol")
	}
	shapes := map[string]func(n int) string{
		"deepobj": func(n int) string {
			return `{"decision":"block","x":` + strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) + "}"
		},
		"deeparr": func(n int) string {
			return `{"decision":"block","x":` + strings.Repeat(`[`, n) + "1" + strings.Repeat("]", n) + "}"
		},
		"deepdupobj": func(n int) string {
			return `{"x":` + strings.Repeat(`{"a":1,"a":`, n) + "1" + strings.Repeat("}", n) + "}"
		},
		"deepdupobj2": func(n int) string {
			return `{"x":` + strings.Repeat(`{"b":1,"a":`, n) + "{\"c\":1,\"c\":2}" + strings.Repeat("}", n) + "}"
		},
		"members": func(n int) string {
			var b strings.Builder
			b.WriteString(`{"decision":"block"`)
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, `,"k%d":%d`, i, i)
			}
			return b.String() + "}"
		},
		"hsomembers": func(n int) string {
			var b strings.Builder
			b.WriteString(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"`)
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, `,"k%d":%d`, i, i)
			}
			return b.String() + "}}"
		},
		// Another dialect's refusal after many members and in a large
		// hookSpecificOutput, nothing of the dialect's own refusing: every
		// key is compared with every word (foreignRefusal).
		"foreignmembers": func(n int) string {
			var b strings.Builder
			b.WriteString(`{"a":1`)
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, `,"k%d":%d`, i, i)
			}
			return b.String() + `,"PERMISSION":"deny"}`
		},
		"foreignhso": func(n int) string {
			var b strings.Builder
			b.WriteString(`{"HookSpecificOutput":{"a":1`)
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, `,"k%d":%d`, i, i)
			}
			return b.String() + `,"PermissionDecision":"deny"}}`
		},
		"dupmembers": func(n int) string {
			return `{"decision":"block"` + strings.Repeat(`,"k":1`, n) + "}"
		},
		"dupmembersnested": func(n int) string {
			var b strings.Builder
			b.WriteString(`{"x":[`)
			for i := 0; i < n; i++ {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `{"a%d":1}`, i)
			}
			return b.String() + `],"x":1}`
		},
		"longstring": func(n int) string {
			return `{"decision":"block","reason":"` + strings.Repeat("é\\n\\u00e9", n*10) + `"}`
		},
		"longcontext": func(n int) string {
			return `{"context":"` + strings.Repeat("x\\n", n*10) + `","hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"` + strings.Repeat("y\\n", n*10) + `"}}`
		},
		"manyarr": func(n int) string {
			return `{"decision":"block","x":[` + strings.Repeat(`1,`, n) + "1]}"
		},
		"notjson": func(n int) string { return "{" + strings.Repeat(`"a":`, n) },
		"brokenlate": func(n int) string {
			return `{"decision":"block","x":[` + strings.Repeat(`{"a":1},`, n) + "}"
		},
	}
	events := []struct {
		d  Dialect
		ev string
	}{{Hermes, "pre_tool_call"}, {Claude, "PreToolUse"}, {Claude, "Stop"}, {Hermes, "transform_terminal_output"}, {Claude, "UserPromptSubmit"}}
	for name, gen := range shapes {
		for _, e := range events {
			ev, ok := Lookup(e.ev)
			if !ok {
				t.Fatal(e.ev)
			}
			var prev time.Duration
			for _, n := range []int{4000, 16000, 64000} {
				out := []byte(gen(n))
				stderr := []byte(strings.Repeat("line\n", n))
				best := time.Hour
				var note string
				for i := 0; i < 3; i++ {
					s := time.Now()
					_, note = ParseReply(Reply{Dialect: e.d, Event: ev, Stdout: out, Stderr: stderr, ExitCode: 0})
					ParseReply(Reply{Dialect: e.d, Event: ev, Stdout: out, Stderr: stderr, ExitCode: 2})
					if d := time.Since(s); d < best {
						best = d
					}
				}
				r := 0.0
				if prev > 0 {
					r = float64(best) / float64(prev)
				}
				prev = best
				if len(note) > 50 {
					note = note[:50]
				}
				t.Logf("%-16s %-26s n=%6d bytes=%8d %12v x%.1f note=%q", name, e.ev, n, len(out), best, r, note)
			}
		}
	}
}
