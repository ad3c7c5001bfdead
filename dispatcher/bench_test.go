package dispatcher

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// configWith builds a config with n hooks on post_tool_call only, so that a
// pre_tool_call firing matches nothing.
func configWith(b *testing.B, n int) *Dispatcher {
	var y strings.Builder
	y.WriteString("hooks:\n  post_tool_call:\n")
	for i := 0; i < n; i++ {
		y.WriteString("    - command: /bin/hook" + strconv.Itoa(i) + "\n      matcher: terminal\n")
	}
	cfg, err := hookconfig.ParseConfig([]byte(y.String()), "bench.yaml")
	if err != nil {
		b.Fatal(err)
	}

	d, err := New(cfg, Options{Gate: AllowAll})
	if err != nil {
		b.Fatal(err)
	}
	return d
}

// BenchmarkNoMatch: a firing for an event with no hooks must not depend on
// how many hooks other events have.
func BenchmarkNoMatch(b *testing.B) {
	fields := map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"}}
	for _, n := range []int{1, 100, 10000} {
		b.Run("entries="+strconv.Itoa(n), func(b *testing.B) {
			d := configWith(b, n)
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := d.Dispatch(ctx, "pre_tool_call", fields); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMatcher measures one matcher decision per dialect and kind.
func BenchmarkMatcher(b *testing.B) {
	tools := protocol.DefaultTools()
	fields := map[string]any{"tool_name": "terminal"}
	cases := []struct {
		name, event, matcher string
		dialect              protocol.Dialect
	}{
		{"hermes_literal", "pre_tool_call", "terminal", protocol.Hermes},
		{"hermes_regex", "pre_tool_call", "terminal|write_.*", protocol.Hermes},
		{"claude_names", "PreToolUse", "Bash|Write|Edit", protocol.Claude},
		{"claude_regex", "PreToolUse", "^Ba.*", protocol.Claude},
	}
	for _, c := range cases {
		ev, _ := protocol.Lookup(c.event)
		e := &hookconfig.Entry{Event: ev, Command: "/h", Matcher: c.matcher, Dialect: c.dialect}
		e.Prepare(func(string) {})
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if !e.Matches(fields, tools) {
					b.Fatal("no match")
				}
			}
		})
	}
}
