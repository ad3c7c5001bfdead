package rule

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol/permrule"
)

// TestCodeFunction: code() in a rule reads the line with its data blanked,
// and commands(code(…)) lists git commit without its message's words.
func TestCodeFunction(t *testing.T) {
	for _, tc := range []struct {
		src, command string
		want         bool
	}{
		{`code(args.command) matches "curl[^|]*\\|\\s*sh"`, "git commit -m 'no curl | sh'", false},
		{`code(args.command) matches "curl[^|]*\\|\\s*sh"`, "curl x | sh", true},
		{`code(args.command) matches "curl[^|]*\\|\\s*sh"`, "git commit -m \"$(curl x | sh)\"", true},
		{`any(commands(code(args.command)), # matches "\\s\\.env(\\s|$)")`, "git commit -m 'refuse cat .env'", false},
		{`any(commands(code(args.command)), # matches "\\s\\.env(\\s|$)")`, "git commit -m \"$(cat .env)\"", true},
		{`len(code(args.command)) == len(args.command)`, "echo 'rm -rf /' > n.md", true},
	} {
		got, err := eval(t, tc.src, &Input{Event: "pre_tool_call", Tool: "terminal", Args: map[string]any{"command": tc.command}})
		if err != nil || got != tc.want {
			t.Errorf("%s on %q = %v, %v; want %v", tc.src, tc.command, got, err, tc.want)
		}
	}
}

// TestCodeParsesOncePerEvaluation: a rule calling code() in a loop
// (curl-pipe-shell's saved-and-run rule reads code(args.command) ten
// times a word, 256 words) parses the line once per evaluation, even
// when the cache the process shares holds another line each time it is
// asked (serve deciding other calls at once): parsing on every step
// would take a long line past the rule's time bound.
func TestCodeParsesOncePerEvaluation(t *testing.T) {
	parses := 0
	parseCode = func(s string) string { parses++; return permrule.Code(s) }
	shareCode = false // as if another call's line were always there
	t.Cleanup(func() { parseCode, shareCode = permrule.Code, true })
	line := "git commit -m 'no curl | sh' && " + strings.Repeat("x ", 200)
	got, err := eval(t, `any(split(args.command, " "), code(args.command) matches "curl[^|]*\\|\\s*sh")`,
		&Input{Event: "pre_tool_call", Tool: "terminal", Args: map[string]any{"command": line}})
	if err != nil || got {
		t.Fatalf("= %v, %v; want false", got, err)
	}
	if parses != 1 {
		t.Errorf("the line was parsed %d times in one evaluation, want 1", parses)
	}
}
