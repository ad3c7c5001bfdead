package pattern

import (
	"regexp"
	"testing"
	"time"

	"github.com/dlclark/regexp2"
)

// FuzzRegex compiles any pattern in both dialects and matches it (never
// panics), and checks the claims the RE2 fast path rests on: where a plan
// says RE2 means the same as the dialect, RE2 and the backtracking engine
// (given the translated pattern) agree — on plain input, and on every
// input when the plan says exact.
//
//	go test -run='^$' -fuzz='^FuzzRegex$' -fuzztime=60s ./internal/pattern/
func FuzzRegex(f *testing.F) {
	for _, s := range []string{
		`(?!web_).*`, `(terminal)\1`, `(?i)TERMINAL`, `(?P<t>a)(?P=t)`, `[\w-]+`, `a{,3}`, `(?x) a # b`,
		`Ba(?=sh)`, `(?i)bash`, `^Tool\d$`, `[^]`, `\p{L}`, `mcp__.*__write.*`, `^[\d-z]+$`, `a*+b`, `[]a]`, `\s+`,
		`a.c`, `^a|b$`, `[^a-c]x`, `\bfoo\b`, `a{2,3}?`, `(?s:.)`, `[.]`, `\.\*`, `(?:ab)+`, `0{00}`, `\B`,
	} {
		f.Add(s, "terminal")
		f.Add(s, "a\nb\r\u00e9")
	}
	f.Fuzz(func(t *testing.T, pattern, input string) {
		if len(pattern) > 200 {
			return
		}
		for _, python := range []bool{true, false} {
			compile, plan, opts, re2Expr, anchor := CompilePython, planPython, regexp2.None, `^(?:`+pattern+`)$`, func(s string) string { return `\A(?:` + s + `)\z` }
			if !python {
				compile, plan, opts, re2Expr, anchor = CompileJS, planJS, regexp2.ECMAScript, pattern, func(s string) string { return s }
			}
			if r, err := compile(pattern); err == nil {
				r.Match(input, &Budget{})
			}
			p, err := plan(pattern)
			if err != nil || !p.fast || p.onlyFast {
				continue
			}
			if p.fastExpr != "" {
				re2Expr = p.fastExpr
			}
			re, err1 := regexp.Compile(re2Expr)
			slow, err2 := regexp2.Compile(anchor(p.slowExpr), opts)
			if err1 != nil || err2 != nil {
				continue
			}
			slow.MatchTimeout = 50 * time.Millisecond
			if !p.exact && !isPlain(input) {
				continue
			}
			got, err := matchRunes(slow, input)
			if err == nil && got != re.MatchString(input) {
				t.Fatalf("python %v %q on %q: RE2 %v, backtracking %v (exact %v, slow expr %q)", python, pattern, input, !got, got, p.exact, p.slowExpr)
			}
		}
	})
}
