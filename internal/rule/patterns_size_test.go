package rule

import (
	"regexp/syntax"
	"testing"
)

var sizeSeeds = []string{
	`a`, `(?i)abc`, `a{2,5}`, `(a|bc){3,}`, `x{0}`, `(?:)`, `[a-z]{0,3}`, `\b(a|b)*c+d?$`,
	`((a{2}){3}){4}`, `(?:a|)+`, `.{1000}`, `\pL{1000}\pL{10}`,
	`(^|[;&|(` + "`" + `]\s*|\bsudo\s+|\bxargs\s+)rm\s+(-[a-zA-Z]*([rR][a-zA-Z]*f|f[a-zA-Z]*[rR])|--recursive)`,
}

// progSize never counts fewer instructions than the pattern compiles to
// (its body: Compile adds a fail and a match).
func FuzzProgSize(f *testing.F) {
	for _, s := range sizeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		re, err := syntax.Parse(p, syntax.Perl)
		if err != nil {
			return
		}
		est := progSize(re, 1<<30)
		if est > 200_000 {
			return // not compiled here: what the bound is for
		}
		prog, err := syntax.Compile(re.Simplify())
		if err != nil {
			return
		}
		if got := len(prog.Inst) - 2; got > est {
			t.Fatalf("%q compiles to %d instructions; progSize says %d", p, got, est)
		}
	})
}
