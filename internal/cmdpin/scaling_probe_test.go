package cmdpin

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

// commandShapes are the shapes of hostile input the probe grows, by name.
func commandShapes() map[string]func(n int) string {
	return map[string]func(n int) string{
		"longword":  func(n int) string { return "./" + strings.Repeat("x", n*10) + ".sh" },
		"manywords": func(n int) string { return "./x.sh" + strings.Repeat(" a", n) },
		"semis":     func(n int) string { return strings.Repeat("./x.sh; ", n) + "./y.sh" },
		"ands":      func(n int) string { return strings.Repeat("./x.sh && ", n) + "./y.sh" },
		"pipes":     func(n int) string { return strings.Repeat("./x.sh | ", n) + "./y.sh" },
		"cds":       func(n int) string { return strings.Repeat("cd d && ", n) + "./y.sh" },
		"envassign": func(n int) string {
			var b strings.Builder
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "V%d=x ", i)
			}
			return b.String() + "./y.sh"
		},
		"assignseq": func(n int) string {
			var b strings.Builder
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "V%d=x y; ", i)
			}
			return b.String() + "./y.sh"
		},
		"bashenv": func(n int) string {
			var b strings.Builder
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "BASH_ENV=./f%d ", i)
			}
			return b.String() + "./y.sh"
		},
		"preload": func(n int) string {
			var b strings.Builder
			b.WriteString("LD_PRELOAD=")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "./l%d.so:", i)
			}
			return b.String() + " ./y.sh"
		},
		"nodereq": func(n int) string {
			var b strings.Builder
			b.WriteString("node")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, " -r ./m%d.js", i)
			}
			return b.String() + " ./y.js"
		},
		"envsame":   func(n int) string { return strings.Repeat("PATH=/a:$PATH ", n) + "y" },
		"envcmd":    func(n int) string { return "env" + strings.Repeat(" A=1", n) + " ./y.sh" },
		"envwrap":   func(n int) string { return strings.Repeat("env ", n) + "./y.sh" },
		"nicewrap":  func(n int) string { return strings.Repeat("nice -n 1 timeout 5 ", n) + "./y.sh" },
		"loads":     func(n int) string { return "NODE_OPTIONS='" + strings.Repeat("-r ./a ", n) + "' node x.js" },
		"perlI":     func(n int) string { return "perl" + strings.Repeat(" -Ilib", n) + " x.pl" },
		"dollar":    func(n int) string { return "./" + strings.Repeat("$A", n) + ".sh" },
		"quotes":    func(n int) string { return "./x.sh " + strings.Repeat(`"a'b"'c"d' `, n) },
		"subst":     func(n int) string { return strings.Repeat("$(", n) + "x" + strings.Repeat(")", n) },
		"backticks": func(n int) string { return "./x.sh " + strings.Repeat("`a` ", n) },
		"escapes":   func(n int) string { return "./x.sh " + strings.Repeat(`\a\ `, n) },
		"tilde":     func(n int) string { return strings.Repeat("~/x ", n) },
		"paren":     func(n int) string { return strings.Repeat("(", n) + "./x.sh" + strings.Repeat(")", n) },
		"braces":    func(n int) string { return strings.Repeat("{ ", n) + "./x.sh" + strings.Repeat(" ;}", n) },
		"trap":      func(n int) string { return strings.Repeat("trap 'sh g' EXIT; ", n) + "./x.sh" },
		"nestsh": func(n int) string {
			s := "./y.sh"
			for i := 0; i < n; i++ {
				s = "sh -c " + shq(s)
			}
			return s
		},
		"nestshdq": func(n int) string {
			s := "./y.sh"
			for i := 0; i < n; i++ {
				s = "sh -c \"" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + "\""
			}
			return s
		},
		"nestevalsh": func(n int) string {
			s := "./y.sh"
			for i := 0; i < n; i++ {
				s = "bash -c " + shq("A=1 env "+s+"; ./z.sh")
			}
			return s
		},
	}
}

func TestScalingProbeResolve(t *testing.T) {
	if os.Getenv("HERMES_SCALING_PROBE") == "" {
		t.Skip("a probe that reports input size against time: HERMES_SCALING_PROBE=1 go test -run ScalingProbe -v ./internal/cmdpin")
	}
	dir := t.TempDir()
	shapes := commandShapes()
	for name, gen := range shapes {
		for _, shell := range []bool{true, false} {
			var prev time.Duration
			ns := []int{640, 2560, 10240, 40960}
			if strings.HasPrefix(name, "nest") {
				ns = []int{2, 4, 6, 8, 9, 10}
			}
			for _, n := range ns {
				cmd := gen(n)
				best := time.Hour
				var tg Target
				for i := 0; i < 3; i++ {
					s := time.Now()
					tg = Resolve(Command{Text: cmd, Shell: shell, Env: []string{"PATH=/nonexistent:/usr/bin:/bin", "HOME=/h", "A=aa"}, Dir: dir})
					if d := time.Since(s); d < best {
						best = d
					}
				}
				r := 0.0
				if prev > 0 {
					r = float64(best) / float64(prev)
				}
				prev = best
				e := tg.Err
				if len(e) > 40 {
					e = e[:40]
				}
				t.Logf("%-12s shell=%-5v n=%5d len=%8d %12v x%.1f files=%d err=%q", name, shell, n, len(cmd), best, r, len(tg.Files), e)
				if best > 5*time.Second {
					break
				}
			}
		}
	}
}

func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
