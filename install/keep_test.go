package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// TestKeepFileHoldsAcrossRemake: a plan told to keep its file (KeepFile)
// keeps it also when Apply computes the plan again because the file
// changed in between: the file another program rewrote to hold only our
// entries is still not removed.
func TestKeepFileHoldsAcrossRemake(t *testing.T) {
	a, _ := agents.Lookup("claude")
	path := filepath.Join(t.TempDir(), ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, `{"theme": "dark"}`)
	run(t, a, path, false)
	p, err := Make(a, path, "", command(a.Name), true)
	if err != nil {
		t.Fatal(err)
	}
	p.KeepFile(KeptTracked)
	if p.Remove || p.Kept != "" {
		t.Fatalf("a plan that removes nothing changed by KeepFile: remove=%v kept=%q", p.Remove, p.Kept)
	}
	// Meanwhile the file loses everything but our entries.
	cur, _ := os.ReadFile(path)
	writeFile(t, path, strings.Replace(string(cur), `"theme": "dark",`, "", 1))
	if _, err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the file was removed after the remake: %v", err)
	}
	if strings.Contains(string(data), "hook claude") || p.Kept != KeptTracked {
		t.Errorf("kept=%q, file:\n%s", p.Kept, data)
	}
}

// TestKeepFileOfCreated: a file install created and holding only our
// entries is removed by default; told to keep it, uninstall leaves {}.
func TestKeepFileOfCreated(t *testing.T) {
	a, _ := agents.Lookup("codex")
	path := filepath.Join(t.TempDir(), "hooks.json")
	run(t, a, path, false)
	p, err := Make(a, path, "", command(a.Name), true)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Remove {
		t.Fatal("the plan does not remove the file install made")
	}
	p.KeepFile(KeptNotCreated)
	if p.Remove || !p.Changed || p.Kept != KeptNotCreated {
		t.Fatalf("remove=%v changed=%v kept=%q", p.Remove, p.Changed, p.Kept)
	}
	if _, err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(path); err != nil || strings.TrimSpace(string(data)) != "{}" {
		t.Errorf("kept file: %q, %v", data, err)
	}
}

// TestRegistryCreatedSticks: a later install into a file install created
// (a refresh: the file exists then) keeps the record's created.
func TestRegistryCreatedSticks(t *testing.T) {
	g := NewRegistry(t.TempDir())
	g.Now = func() time.Time { return time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC) }
	r := Record{Agent: "claude", Scope: ScopeProject, Root: abs("/p"), Path: abs("/p/.claude/settings.json"), Kind: KindEntries, Created: true}
	if _, err := g.Remember(r); err != nil {
		t.Fatal(err)
	}
	r.Created, r.Wrote = false, []string{"Stop: y"}
	if _, err := g.Remember(r); err != nil {
		t.Fatal(err)
	}
	got, ok := g.Lookup("claude", r.Path)
	if !ok || !got.Created {
		t.Errorf("Lookup = %+v, %v; want created", got, ok)
	}
	if _, ok := g.Lookup("gemini", r.Path); ok {
		t.Error("Lookup found another agent's record")
	}
}
