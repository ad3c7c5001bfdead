package cli

import (
	"context"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/repoenv"
)

// Files not read by the deadline: a finding (refused), not "nothing set"
// and not a call held past the agent's limit. The check here never ends;
// the test's own timeout is the hang guard.
func TestCheckByDeadline(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	block := make(chan struct{})
	defer close(block)
	found := checkBy(ctx, func() []repoenv.Finding { <-block; return nil }, []string{repoenv.Home})
	if len(found) != 1 || found[0].Err == nil || found[0].Vars[0] != repoenv.Home {
		t.Fatalf("found %v, want one unreadable finding for HERMES_HOME", found)
	}
	if got := checkBy(context.Background(), func() []repoenv.Finding { return nil }, nil); got != nil {
		t.Errorf("a check that ends: %v", got)
	}
}

// movedHome: a HOME equal to the account's only once its ".." are taken by
// their text is moved (the system takes a ".." after a link, which may be
// the repository's: proj/l/../.. is proj when l -> a/b).
func TestMovedHomeDotDot(t *testing.T) {
	if repoenv.HomeVar != "HOME" {
		t.Skip("HOME is USERPROFILE here")
	}
	claude, _ := agents.Lookup("claude")
	t.Setenv(repoenv.Home, t.TempDir())
	for v, want := range map[string]bool{"/home/u": false, "/home/u/": false, "/elsewhere": true, "/home/u/proj/l/../..": true} {
		t.Setenv("HOME", v)
		if got := movedHome(claude, func() string { return "/home/u" }); got != want {
			t.Errorf("HOME=%q: movedHome = %v, want %v", v, got, want)
		}
	}
}
