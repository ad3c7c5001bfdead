package rule

import (
	"strings"
	"testing"
)

// A misspelt operator is what a newcomer writes first ("matchs"); expr
// says only `unexpected token Identifier("matchs")`, which names neither
// the fix nor the rule language's word. Compile adds the operator meant.
func TestCompileSuggestsTheOperator(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`args.command matchs "curl"`, `1:14: unexpected token Identifier("matchs") — did you mean matches?`},
		{`args.command contain "curl"`, `did you mean contains?`},
		{`args.path startswith "/etc"`, `did you mean startsWith?`},
		{`args.path endWith ".env"`, `did you mean endsWith?`},
		// The parser's words for = and for a pattern's \s in "…" name no fix.
		{`args.command = "x"`, `unexpected token Operator("=") — compare with ==`},
		{`args.command matches "git\s+push"`, "invalid char escape — in a \"…\" string \\ starts an escape"},
	} {
		_, err := Compile(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Compile(%q) = %v, want it to hold %q", tc.src, err, tc.want)
		}
	}
	// Nothing is guessed for a word far from every operator.
	if _, err := Compile(`args.command zzz "curl"`); err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("Compile(zzz) = %v, want no suggestion", err)
	}
}
