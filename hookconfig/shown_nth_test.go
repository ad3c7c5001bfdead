package hookconfig

import (
	"testing"

	"github.com/hermes-hooks/hermes-hooks/consent"
)

// Entries whose URLs show alike are told apart by their order among the
// distinct URLs of their scope; the same URL again (another event, a
// duplicate) keeps its number, and another scope's entries never renumber
// the user's.
func TestNumberShown(t *testing.T) {
	cfg, err := ParseConfig([]byte(`hooks:
  pre_tool_call:
    - opa: http://o/v1/data/p?policy=a
    - opa: http://o/v1/data/p?policy=b
    - opa: http://o/v1/data/p?policy=a
    - opa: http://o/v1/data/p?policy=c
    - opa: http://o/v1/data/q?policy=c
  post_tool_call:
    - opa: http://o/v1/data/p?policy=b
`), "config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const p = "opa: http://o/v1/data/p?policy=xxxxx"
	want := []string{p, p + " [2]", p, p + " [3]", "opa: http://o/v1/data/q?policy=xxxxx", p + " [2]"}
	if len(cfg.Listed) != len(want) {
		t.Fatalf("%d entries listed", len(cfg.Listed))
	}
	for i, e := range cfg.Listed {
		if got := e.Text(); got != want[i] {
			t.Errorf("entry %d: %q, want %q", i, got, want[i])
		}
	}
	// A repository's entry that shows as the user's, listed first, does
	// not take the user's text from it: it is of another scope.
	repo := &Entry{Spec: &OPASpec{URL: "http://o/v1/data/p?policy=z"}, Scope: consent.Scope{Project: "/r", Source: "/r/.hermes/hooks.yaml"}}
	user := &Entry{Spec: &OPASpec{URL: "http://o/v1/data/p?policy=a"}}
	numberShown([]*Entry{repo, user})
	if repo.Text() != p || user.Text() != p {
		t.Errorf("repo %q, user %q: want both %q", repo.Text(), user.Text(), p)
	}
}
