package agents

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

func TestScalingProbeDecode(t *testing.T) {
	if os.Getenv("HERMES_SCALING_PROBE") == "" {
		t.Skip("a probe that reports input size against time: HERMES_SCALING_PROBE=1 go test -run ScalingProbe -v ./agents")
	}
	shapes := map[string]func(n int) string{
		"members": func(n int) string {
			var b strings.Builder
			b.WriteString(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"`)
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, `,"k%d":%d`, i, i)
			}
			return b.String() + "}}"
		},
		"deep": func(n int) string {
			return `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","x":` + strings.Repeat("[", n) + strings.Repeat("]", n) + "}}"
		},
		"deepobj": func(n int) string {
			return `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","x":` + strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) + "}}"
		},
		"longcmd": func(n int) string {
			return `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + strings.Repeat("ls; ", n*10) + `"}}`
		},
		"strinput": func(n int) string {
			return `{"hook_event_name":"preToolUse","tool_name":"Shell","tool_input":"{` + strings.Repeat(`\"a\":[1],`, n) + `\"command\":\"ls\"}"}`
		},
		"dupkeys": func(n int) string {
			return `{"hook_event_name":"PreToolUse","tool_name":"Bash"` + strings.Repeat(`,"tool_input":{"command":"ls"}`, n) + "}"
		},
		"edits": func(n int) string {
			return `{"hook_event_name":"afterFileEdit","file_path":"a","edits":[` + strings.Repeat(`{"old_string":"a","new_string":"b"},`, n) + `{}]}`
		},
		"mcpargs": func(n int) string {
			return `{"agent_action_name":"post_mcp_tool_use","tool_info":{"mcp_tool_arguments":"{` + strings.Repeat(`\"a\":1,`, n) + `\"b\":1}","mcp_result":[1]}}`
		},
	}
	for name, gen := range shapes {
		for _, ag := range []string{"claude", "cursor", "gemini", "copilot", "windsurf", "kiro", "cline", "codex"} {
			a, ok := Lookup(ag)
			if !ok {
				continue
			}
			var prev time.Duration
			for _, n := range []int{2500, 10000, 40000} {
				data := []byte(gen(n))
				best := time.Hour
				for i := 0; i < 2; i++ {
					s := time.Now()
					a.Decode(data, "")
					if d := time.Since(s); d < best {
						best = d
					}
				}
				r := 0.0
				if prev > 0 {
					r = float64(best) / float64(prev)
				}
				prev = best
				t.Logf("%-9s %-9s n=%6d bytes=%8d %12v x%.1f", name, ag, n, len(data), best, r)
			}
		}
	}
}
