package cli

import (
	"context"
	"testing"

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
