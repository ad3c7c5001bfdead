package pattern

// Scaling probes (issue: "never hangs" against hostile input): each
// shape of hostile input at growing sizes, the time each size takes, for
// a person to read (no timing is asserted; the tests that hold the fixed
// paths assert work or hang bounds). Skipped unless HERMES_SCALING_PROBE
// is set.

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestScalingProbeMatch(t *testing.T) {
	if os.Getenv("HERMES_SCALING_PROBE") == "" {
		t.Skip("a probe that reports input size against time: HERMES_SCALING_PROBE=1 go test -run ScalingProbe -v ./internal/pattern")
	}
	type shape struct {
		name string
		js   bool
		pat  func(n int) string
		in   func(n int) string
	}
	shapes := []shape{
		{"nestedplus-py", false, func(n int) string { return "(a+)+$" }, func(n int) string { return strings.Repeat("a", n) + "!" }},
		{"nestedplus-py-la", false, func(n int) string { return "(?=a)(a+)+$" }, func(n int) string { return strings.Repeat("a", n) + "!" }},
		{"nestedplus-js", true, func(n int) string { return "(a+)+$" }, func(n int) string { return strings.Repeat("a", n) + "!" }},
		{"nestedplus-js-bref", true, func(n int) string { return "(a+)+\\1$" }, func(n int) string { return strings.Repeat("a", n) + "!" }},
		{"longpat-py", false, func(n int) string { return strings.Repeat("(a|b)", n) }, func(n int) string { return "terminal" }},
		{"longpat-py-slow", false, func(n int) string { return "(?=t)" + strings.Repeat("(a|b)", n) }, func(n int) string { return "terminal" }},
		{"longpat-js", true, func(n int) string { return "(?<=x)" + strings.Repeat("(a|b)", n) }, func(n int) string { return "terminal" }},
		{"deepgroups-py", false, func(n int) string { return "(?=t)" + strings.Repeat("(", n) + "a" + strings.Repeat(")", n) }, func(n int) string { return "terminal" }},
		{"deepgroups-js", true, func(n int) string { return "(?<=t)" + strings.Repeat("(", n) + "a" + strings.Repeat(")", n) }, func(n int) string { return "terminal" }},
		{"count-py", false, func(n int) string { return "(?=t)(?:a{" + strconv.Itoa(n) + "}){" + strconv.Itoa(n) + "}" }, func(n int) string { return "terminal" }},
		{"count-js", true, func(n int) string { return "(?<=t)(?:a{" + strconv.Itoa(n) + "}){" + strconv.Itoa(n) + "}" }, func(n int) string { return "terminal" }},
		{"class-py", false, func(n int) string { return "(?=t)[" + strings.Repeat("a-b", n) + "]" }, func(n int) string { return "terminal" }},
		{"class-js", true, func(n int) string { return "(?<=t)[" + strings.Repeat("\\u0061-b", n) + "]" }, func(n int) string { return "terminal" }},
		{"escapes-py", false, func(n int) string { return "(?=t)" + strings.Repeat("\\x41", n) }, func(n int) string { return "terminal" }},
		{"names-py", false, func(n int) string {
			var b strings.Builder
			b.WriteString("(?=t)")
			for i := 0; i < n; i++ {
				b.WriteString("(?P<g" + strconv.Itoa(i) + ">a)(?P=g" + strconv.Itoa(i) + ")")
			}
			return b.String()
		}, func(n int) string { return "terminal" }},
		{"names-js", true, func(n int) string {
			var b strings.Builder
			b.WriteString("(?<=t)")
			for i := 0; i < n; i++ {
				b.WriteString("(?<g" + strconv.Itoa(i) + ">a)\\k<g" + strconv.Itoa(i) + ">")
			}
			return b.String()
		}, func(n int) string { return "terminal" }},
		{"longinput-py", false, func(n int) string { return "(?=t).*x.*y" }, func(n int) string { return "t" + strings.Repeat("é", n*100) }},
		{"longinput-js", true, func(n int) string { return "(?<=t).*x.*y" }, func(n int) string { return "t" + strings.Repeat("é", n*100) }},
	}
	for _, s := range shapes {
		var prev time.Duration
		for _, n := range []int{250, 1000, 4000} {
			p, in := s.pat(n), s.in(n)
			var rx *Regex
			var err error
			start := time.Now()
			if s.js {
				rx, err = CompileJS(p)
			} else {
				rx, err = CompilePython(p)
			}
			dc := time.Since(start)
			var dm time.Duration
			var ok, done bool
			if err == nil {
				start = time.Now()
				ok, done = rx.Match(in, nil)
				dm = time.Since(start)
			}
			r := 0.0
			if prev > 0 {
				r = float64(dc+dm) / float64(prev)
			}
			prev = dc + dm
			t.Logf("%-20s n=%5d pat=%7d compile=%12v match=%12v x%.1f ok=%v done=%v err=%v", s.name, n, len(p), dc, dm, r, ok, done, err)
		}
	}
}

func TestScalingProbeCompile(t *testing.T) {
	if os.Getenv("HERMES_SCALING_PROBE") == "" {
		t.Skip("a probe that reports input size against time: HERMES_SCALING_PROBE=1 go test -run ScalingProbe -v ./internal/pattern")
	}
	for _, s := range []struct {
		name string
		js   bool
		pat  func(n int) string
	}{
		{"longpat-py", false, func(n int) string { return strings.Repeat("(a|b)", n) }},
		{"longpat-py-slow", false, func(n int) string { return "(?=t)" + strings.Repeat("(a|b)", n) }},
		{"longpat-js", true, func(n int) string { return strings.Repeat("(a|b)", n) }},
		{"longpat-js-slow", true, func(n int) string { return "(?<=x)" + strings.Repeat("(a|b)", n) }},
		{"deepgroups-py", false, func(n int) string { return "(?=t)" + strings.Repeat("(", n) + "a" + strings.Repeat(")", n) }},
		{"deepgroups-js", true, func(n int) string { return "(?<=t)" + strings.Repeat("(", n) + "a" + strings.Repeat(")", n) }},
		{"deepnc-py", false, func(n int) string { return "(?=t)" + strings.Repeat("(?:", n) + "a" + strings.Repeat(")", n) }},
		{"escapes-py", false, func(n int) string { return "(?=t)" + strings.Repeat("\\x41", n) }},
		{"escapes-js", true, func(n int) string { return "(?<=t)" + strings.Repeat("\\x41", n) }},
		{"alts-py", false, func(n int) string { return "(?=t)" + strings.Repeat("a|", n) + "b" }},
		{"alts-js", true, func(n int) string { return strings.Repeat("ab|", n) + "b" }},
		{"literal-js", true, func(n int) string { return strings.Repeat("ab.", n) }},
		{"quant-py", false, func(n int) string { return "(?=t)" + strings.Repeat("a*?", n) }},
		{"quant-js", true, func(n int) string { return strings.Repeat("a*?", n) }},
	} {
		var prev time.Duration
		for _, n := range []int{1000, 4000, 16000, 64000} {
			p := s.pat(n)
			start := time.Now()
			var err error
			var rx *Regex
			if s.js {
				rx, err = CompileJS(p)
			} else {
				rx, err = CompilePython(p)
			}
			d := time.Since(start)
			var dm time.Duration
			if err == nil {
				start = time.Now()
				rx.Match("terminal-terminal-terminal", nil)
				dm = time.Since(start)
			}
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
			t.Logf("%-16s n=%6d pat=%7d compile=%12v x%.1f match=%v err=%s", s.name, n, len(p), d, r, dm, e)
			if d > 3*time.Second {
				break
			}
		}
	}
}
