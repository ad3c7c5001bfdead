package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestEveryCommandLineErrorExits2: for every command of the tree, cobra's
// own ones (completion) included, an unknown flag and a pile of extra
// arguments are usage errors: exit 2, a hint, and nothing run. Added
// commands are covered as they come: an Args validator that returns a
// plain error (cobra.NoArgs, cobra.ExactArgs) is made a usage error by
// usageArgs, and a command that accepts any arguments fails here.
func TestEveryCommandLineErrorExits2(t *testing.T) {
	t.Setenv("HERMES_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		for _, sub := range c.Commands() {
			if sub.Hidden || sub.Name() == "help" {
				continue
			}
			p := append(append([]string{}, path...), sub.Name())
			if sub.Runnable() {
				paths = append(paths, p)
			}
			walk(sub, p)
		}
	}
	walk(newRootCmd(&app{}, nil), nil)
	if len(paths) < 20 {
		t.Fatalf("only %d commands found: %v", len(paths), paths)
	}
	extra := []string{"x1", "x2", "x3", "x4", "x5"}
	for _, p := range paths {
		for _, args := range [][]string{
			append(append([]string{}, p...), "--no-such-flag"),
			append(append([]string{}, p...), extra...),
		} {
			var out, errb bytes.Buffer
			code := run(args, strings.NewReader(""), &out, &errb)
			if code != 2 || !strings.Contains(errb.String(), "hermes-hooks: hint: ") {
				t.Errorf("hermes-hooks %s: exit %d, want 2 with a hint; stderr:\n%s", strings.Join(args, " "), code, errb.String())
			}
			if out.Len() != 0 {
				t.Errorf("hermes-hooks %s printed on stdout (nothing should have run):\n%s", strings.Join(args, " "), out.String())
			}
		}
	}
}
