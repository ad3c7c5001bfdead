package dispatcher

import (
	"strconv"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
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

// A rule's id is part of what its approval pins (the name the journal and
// export report it by); a rule without one keeps the text approvals were
// given for before ids existed.
func TestRuleSpecPinsTheID(t *testing.T) {
	r := &hookconfig.RuleSpec{Source: `tool == "terminal"`, Decision: "block", Message: "no"}
	if got, want := ruleSpec(r, false), "rule\nexpr \"tool == \\\"terminal\\\"\"\ndecision \"block\"\nmessage \"no\""; got != want {
		t.Fatalf("without an id: %q, want the text before ids: %q", got, want)
	}
	named := *r
	named.ID = "team/no-terminal"
	renamed := named
	renamed.ID = "corp/other"
	if ruleSpec(&named, false) == ruleSpec(r, false) || ruleSpec(&named, false) == ruleSpec(&renamed, false) {
		t.Fatal("an id, or another id, leaves the pinned text as it was")
	}
}

// Consent lets a repository's rule approval travel to the repository's
// other checkouts because a rule's Spec is all it does, and tells a rule by
// the "rule\n" its Spec begins with: no other kind's Spec may begin so
// (an http or opa hook's Spec pins what it sends, not the answer).
func TestSpecKindsDistinct(t *testing.T) {
	const rulePrefix = "rule\n"
	if s := ruleSpec(&hookconfig.RuleSpec{Source: "true", Decision: "block", Message: "m"}, false); s[:len(rulePrefix)] != rulePrefix {
		t.Fatalf("ruleSpec = %q: consent no longer knows it for a rule", s)
	}
	for _, s := range []string{
		httpSpec(&hookconfig.HTTPSpec{URL: "rule\n"}),
		opaSpec(&hookconfig.OPASpec{URL: "rule\n"}),
		cmdpin.PowerShellSpec,
		envSpec(map[string]string{"rule": "x"}),
		textutil.JoinNonEmpty("\n", cmdpin.PowerShellSpec, envSpec(map[string]string{"A": "1"})),
	} {
		if len(s) >= len(rulePrefix) && s[:len(rulePrefix)] == rulePrefix {
			t.Errorf("a Spec of another kind reads as a rule's: %q", s)
		}
	}
	// consent words an opa entry's drift by the "opa\n" its Spec begins
	// with (allowed_env_vars, not an http hook's allowedEnvVars).
	const opaPrefix = "opa\n"
	if s := opaSpec(&hookconfig.OPASpec{URL: "http://o/v1/data/p"}); !strings.HasPrefix(s, opaPrefix) {
		t.Fatalf("opaSpec = %q: consent no longer knows it for an opa entry", s)
	}
	for _, s := range []string{httpSpec(&hookconfig.HTTPSpec{URL: "opa\n"}), cmdpin.PowerShellSpec, envSpec(map[string]string{"opa": "x"})} {
		if strings.HasPrefix(s, opaPrefix) {
			t.Errorf("a Spec of another kind reads as an opa entry's: %q", s)
		}
	}
}
