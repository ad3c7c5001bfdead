package rule

import (
	"errors"
	"testing"
)

// rmRecursiveForce is the ready-made rule's check as a rule of
// commands(): rm with recursive and force options, in any order or form.
const rmRecursiveForce = `any(commands(args.command), # matches "^rm\\s(.*\\s)?(-[a-zA-Z]*[rR][a-zA-Z]*|--r[a-z]*)(\\s|$)" && # matches "^rm\\s(.*\\s)?(-[a-zA-Z]*f[a-zA-Z]*|--f[a-z]*)(\\s|$)")`

// TestCommandsRule: a rule of commands() sees an rm however the line
// spells, quotes, continues or wraps it, and not one that is only text;
// what it cannot read is an error (fail_closed then refuses).
func TestCommandsRule(t *testing.T) {
	cmd := func(c any) *Input { return &Input{Args: map[string]any{"command": c}} }
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"rm -rf /", true},
		{`r\m -r"f" /`, true},
		{"rm -r \\\n -f /", true},
		{"case x in x) rm -fr /;; esac", true},
		{"find . -exec rm -r -f {} +", true},
		{"sudo -u root /bin/rm --recursive --force /", true},
		{"echo $(rm -Rf ~)", true},
		{"git commit -m 'rm -rf /'", false},
		{"echo rm -rf /", false},
		{"rm -r build; echo -f", false},
		{"ls -la", false},
	} {
		got, err := eval(t, rmRecursiveForce, cmd(tc.line))
		if err != nil || got != tc.want {
			t.Errorf("%q: %v, %v; want %v", tc.line, got, err, tc.want)
		}
	}
	for _, c := range []any{"rm -rf / (", "sh -c 'rm -rf / ('", nil, 3} {
		_, err := eval(t, rmRecursiveForce, cmd(c))
		var re *Error
		if !errors.As(err, &re) {
			t.Errorf("%#v: err = %v, want a rule.Error", c, err)
		}
	}
}

// TestCommandsIsABuilder: commands() builds a list that can hold more
// text than its input, so a rule calls it once, outside a loop, and not
// on what the rule built.
func TestCommandsIsABuilder(t *testing.T) {
	for _, src := range []string{
		`any(split(args.command, ";"), len(commands(#)) > 0)`,
		`len(commands(toJSON(payload))) > 0`,
	} {
		if _, err := Compile(src); err == nil {
			t.Errorf("Compile(%q) accepted", src)
		}
	}
	if _, err := Compile(`len(commands(args.command)) > 0 && ` + rmRecursiveForce); err != nil {
		t.Errorf("two calls outside loops: %v", err)
	}
}
