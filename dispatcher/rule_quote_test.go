package dispatcher

import (
	"strconv"
	"testing"
)

// The pinned text of a rule is what a repository's approval holds the
// digest of: appendQuote must write what strconv.Quote writes, byte for
// byte, or every approved rule would read as changed.
func TestAppendQuoteAsStrconv(t *testing.T) {
	for _, s := range quoteSeeds {
		if got, want := string(appendQuote(nil, s)), strconv.Quote(s); got != want {
			t.Errorf("appendQuote(%q) = %s, want %s", s, got, want)
		}
	}
}

var quoteSeeds = []string{"", "block", `args.command matches "(^|[;&|]\\s*)rm\\s+-[a-zA-Z]*r[a-zA-Z]*f"`,
	"tab\there", "new\nline", "é", "\x7f", "\x00", "\xff", "'single'", "back\\slash", "~ }{"}

func FuzzAppendQuote(f *testing.F) {
	for _, s := range quoteSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(appendQuote(nil, s)), strconv.Quote(s); got != want {
			t.Fatalf("appendQuote(%q) = %s, want %s", s, got, want)
		}
	})
}
