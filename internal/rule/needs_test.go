package rule

import (
	"fmt"
	"math/rand"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode"
)

// The needs of a pattern: a literal of a concatenation, one literal of
// each branch of an alternation whose branches all need one, and nothing
// from what may match without it (?, *, {0,n}, a case-folded or
// non-ASCII literal).
func TestLiteralNeeds(t *testing.T) {
	for pattern, want := range map[string]string{
		`rm\s+-rf`:                        "[[rm] [-rf]]",
		`(^|;)\s*(curl|wget)\s.*\|\s*sh`:  "[[curl wget] [|] [sh]]",
		`(curl|wget|x?)\|sh`:              "[[|sh]]",
		`\b(base64\s+-d|xxd\s+-r)`:        "[[base64 xxd]]",
		`(ab|cd)|ef`:                      "[[ab cd ef]]",
		`((ab|cd)|ef)`:                    "[[ab cd ef]]",
		`(?i)drop table`:                  "[]",
		`caf\x{e9}`:                       "[]",
		`(ssh ){2,}x`:                     "[[ssh ] [x]]",
		`(ssh ){0,2}x`:                    "[[x]]",
		`[ab]c+`:                          "[[c]]",
		`(?s)^(rm|(chmod|chown) -R)\s+/$`: "[[rm  -R] [/]]",
		`(x(ab|cd)|ef)`:                   "[[x ef]]",
		`((ab|cd)y?|ef)`:                  "[[ab cd ef]]",
	} {
		re, err := syntax.Parse(pattern, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(literalNeeds(re, nil)); got != want {
			t.Errorf("%s: needs %s, want %s", pattern, got, want)
		}
	}
}

// A rule that expr compiles (no simple shape) compiles a constant pattern
// only for a subject that holds its needs, and answers as the pattern.
func TestMatchesConstCompilesOnlyWhenNeeded(t *testing.T) {
	// A pattern no other test spells: patterns are shared in a process.
	r, err := Compile(`lower(args.command) matches "(zqneedsa|zqneedsb)\\s+-x"`)
	if err != nil {
		t.Fatal(err)
	}
	pat := patternFor(`(zqneedsa|zqneedsb)\s+-x`)
	for _, c := range []struct {
		command  string
		want     bool
		compiled bool
	}{
		{"git status", false, false},
		{"ZQNEEDSB -y", false, false},
		{"ZQNEEDSB-X", false, true},
		{"zqneedsa  -X", true, true},
	} {
		got, err := r.Eval(t.Context(), &Input{Args: map[string]any{"command": c.command}})
		if err != nil || got != c.want {
			t.Errorf("%q: %v, %v; want %v", c.command, got, err, c.want)
		}
		if compiled := pat.re != nil; compiled != c.compiled {
			t.Fatalf("%q: compiled %v, want %v", c.command, compiled, c.compiled)
		}
	}
}

// FuzzNeeds: no subject that a pattern matches lacks the pattern's needs
// (a rule would let through what it refuses). The subjects are built to
// match from the parsed pattern (a branch, a count, a class member, a
// case picked at random from seed), with text before and after, and
// checked against the compiled pattern: random text rarely matches.
func FuzzNeeds(f *testing.F) {
	for _, s := range []string{`rm\s+-rf`, `(curl|wget)[^|]*\|\s*(ba|z)?sh`, `(a|b)|c+`, `(?i:x)y|z`, `((ab|c)d|e)f`,
		`\x{e9}|a`, `ab{1,}c`, `(?U)a+?b`, `\Qa.b\E|c`, `a|`, `(?i)a|b`, `[a]bc|d[e]`, `(abc|abd)x`, `(?:ab|ac)+`, `x(?:)y`} {
		f.Add(s, int64(1), "rm -rf / && ", " | sh")
	}
	f.Fuzz(func(t *testing.T, pattern string, seed int64, before, after string) {
		if len(pattern) > 256 {
			return
		}
		re, err := syntax.Parse(pattern, syntax.Perl)
		if err != nil || patternTooLarge(re) != nil {
			return
		}
		compiled, err := regexp.Compile(pattern)
		if err != nil {
			return
		}
		needs := literalNeeds(re, nil)
		r := rand.New(rand.NewSource(seed))
		for range 20 {
			var b strings.Builder
			if r.Intn(2) == 0 {
				b.WriteString(before)
			}
			matching(re, r, &b, 0)
			if r.Intn(2) == 0 {
				b.WriteString(after)
			}
			if s := b.String(); compiled.MatchString(s) && lacksNeeds(s, needs) {
				t.Fatalf("%q matches %q, which lacks its needs %q", pattern, s, needs)
			}
		}
		if compiled.MatchString(before) && lacksNeeds(before, needs) {
			t.Fatalf("%q matches %q, which lacks its needs %q", pattern, before, needs)
		}
	})
}

// matching writes to b a text that re matches, mostly (an assertion
// may not hold where it lands: the caller checks).
func matching(re *syntax.Regexp, r *rand.Rand, b *strings.Builder, depth int) {
	if depth > 30 {
		return
	}
	switch re.Op {
	case syntax.OpLiteral:
		for _, c := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 {
				for k := r.Intn(4); k > 0; k-- {
					c = unicode.SimpleFold(c)
				}
			}
			b.WriteRune(c)
		}
	case syntax.OpCharClass:
		if len(re.Rune) > 0 {
			i := r.Intn(len(re.Rune)/2) * 2
			b.WriteRune(re.Rune[i] + rune(r.Int63n(int64(re.Rune[i+1]-re.Rune[i])+1)))
		}
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteRune([]rune{'a', ' ', '-', 'x', 0xe9, 0xfffd, '\t', '|'}[r.Intn(8)])
	case syntax.OpCapture:
		matching(re.Sub[0], r, b, depth+1)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, 3
		switch re.Op {
		case syntax.OpPlus:
			lo = 1
		case syntax.OpQuest:
			hi = 1
		case syntax.OpRepeat:
			lo, hi = re.Min, re.Max
			if hi < 0 {
				hi = lo + 2
			}
		}
		for range min(lo+r.Intn(hi-lo+1), 20) {
			matching(re.Sub[0], r, b, depth+1)
		}
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			matching(sub, r, b, depth+1)
		}
	case syntax.OpAlternate:
		matching(re.Sub[r.Intn(len(re.Sub))], r, b, depth+1)
	case syntax.OpBeginLine, syntax.OpEndLine:
		if r.Intn(2) == 0 {
			b.WriteByte('\n')
		}
	}
}
