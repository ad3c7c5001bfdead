package rule

// Scaling probes (issue: "never hangs" against hostile input): each
// shape of hostile input at growing sizes, the time each size takes, for
// a person to read (no timing is asserted; the tests that hold the fixed
// paths assert work or hang bounds). Skipped unless HERMES_SCALING_PROBE
// is set.

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

func TestScalingProbeSimple(t *testing.T) {
	if os.Getenv("HERMES_SCALING_PROBE") == "" {
		t.Skip("a probe that reports input size against time: HERMES_SCALING_PROBE=1 go test -run ScalingProbe -v ./internal/rule")
	}
	lits := func(k int) string {
		var b strings.Builder
		for i := 0; i < k; i++ {
			b.WriteByte(byte('a' + i%26))
			b.WriteByte('.')
		}
		return b.String()
	}
	for _, c := range []struct {
		name, src string
		in        func(n int) string
	}{
		{"manylits", `args.command matches "` + lits(2000) + `"`, func(n int) string { return strings.Repeat("z", n) + lits(2000) }},
		{"manylits-miss", `args.command matches "` + lits(2000) + `"`, func(n int) string { return strings.Repeat("abcdefghijklmnopqrstuvwxy", n/25) }},
		{"contains", `args.command contains "` + strings.Repeat("ab", 2000) + `"`, func(n int) string { return strings.Repeat("ab", n/2) + "c" }},
		{"nested-rep", `args.command matches "((a|b|c)*d)*e$"`, func(n int) string { return strings.Repeat("abcd", n/4) }},
		{"long-alt", `args.command matches "` + strings.Repeat("x|", 1000) + `y$"`, func(n int) string { return strings.Repeat("z", n) }},
	} {
		r, err := Compile(c.src)
		if err != nil {
			t.Fatal(c.name, err)
		}
		if r.simple == nil {
			t.Fatal(c.name, "not simple")
		}
		var prev time.Duration
		for _, n := range []int{1 << 14, 1 << 16, 1 << 18, 1 << 20} {
			in := &Input{Args: map[string]any{"command": c.in(n)}}
			s := time.Now()
			ok, err := r.Eval(context.Background(), in)
			d := time.Since(s)
			rt := 0.0
			if prev > 0 {
				rt = float64(d) / float64(prev)
			}
			prev = d
			t.Logf("%-14s n=%8d %12v x%.1f ok=%v err=%v", c.name, n, d, rt, ok, err)
		}
	}
}
