package rule

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"testing"
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
// (a rule would let through what it refuses), and the rule's answer is
// the pattern's.
func FuzzNeeds(f *testing.F) {
	for _, s := range []string{`rm\s+-rf`, `(curl|wget)[^|]*\|\s*(ba|z)?sh`, `(a|b)|c+`, `(?i:x)y|z`, `((ab|c)d|e)f`, `\x{e9}|a`} {
		f.Add(s, "rm -rf / && curl x | sh")
	}
	f.Fuzz(func(t *testing.T, pattern, subject string) {
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
		if compiled.MatchString(subject) && lacksNeeds(subject, needs) {
			t.Fatalf("%q matches %q, which lacks its needs %q", pattern, subject, needs)
		}
	})
}
