package main

import "testing"

// TestPerEventCommandsAsInTheFullTree: a start for a per-event verb builds
// that command alone (perEvent). What the agent's call meets there — the
// command's help, its flags and the root's it inherits — must be what the
// whole tree has at that place.
func TestPerEventCommandsAsInTheFullTree(t *testing.T) {
	full := newRootCmd(&app{}, nil)
	for verb := range perEvent {
		t.Run(verb, func(t *testing.T) {
			lazy := newRootCmd(&app{}, []string{verb, "claude"})
			if n := len(lazy.Commands()); n != 1 {
				t.Errorf("a start for %s built %d commands, want it alone", verb, n)
			}
			want, _, err := full.Find([]string{verb})
			if err != nil || want == full {
				t.Fatalf("the whole tree has no %s: %v", verb, err)
			}
			got, _, err := lazy.Find([]string{verb})
			if err != nil || got == lazy || got.Name() != verb {
				t.Fatalf("a start for %s built no %s command (found %q): %v", verb, verb, got.Name(), err)
			}
			if got.Short != want.Short || got.Long != want.Long || got.Example != want.Example {
				t.Errorf("%s's help differs from the whole tree's", verb)
			}
			if g, w := got.UsageString(), want.UsageString(); g != w {
				t.Errorf("%s's usage (flags, inherited flags) differs from the whole tree's:\n--- alone\n%s\n--- in the tree\n%s", verb, g, w)
			}
		})
	}
}
