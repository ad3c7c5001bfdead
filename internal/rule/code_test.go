package rule

import "testing"

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
