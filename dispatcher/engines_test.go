package dispatcher

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/dispatcher/cfgtree"
	"github.com/hermes-hooks/hermes-hooks/dispatcher/cfgtree/yamltree"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// withoutEngines runs the rest of the test as a program that installed no
// engine does (the one-shot front, a host that forgot dispatcher/engines).
func withoutEngines(t *testing.T) {
	saved := InstalledEngines()
	UseEngines(Engines{})
	t.Cleanup(func() { UseEngines(saved) })
}

// Without a YAML engine, a config is an error that names the cause, never
// an empty config.
func TestNoYAMLEngineIsAnError(t *testing.T) {
	withoutEngines(t)
	_, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - command: /bin/guard\n"), "c.yaml")
	var ce *ConfigError
	if !errors.As(err, &ce) || !errors.Is(err, ErrNoEngine) || ce.Path != "c.yaml" {
		t.Fatalf("ParseConfig = %v, want a *ConfigError for c.yaml wrapping ErrNoEngine", err)
	}
	// A project's hooks file fails the Load the same way: skipping it
	// would let a repository's new file drop its guards unseen.
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "repo", ".git", "HEAD"), "")
	writeFile(t, filepath.Join(dir, "repo", ".hermes", "hooks.yaml"), "hooks:\n  pre_tool_call:\n    - command: ./guard\n")
	cached := func(text []byte) (root *cfgtree.Node, err error) {
		if string(text) == "hooks: {}\n" {
			return yamltree.Parse(text)
		}
		return nil, ErrNoEngine
	}
	writeFile(t, filepath.Join(dir, "config.yaml"), "hooks: {}\n")
	_, err = Load(filepath.Join(dir, "config.yaml"), LoadOptions{ProjectDir: filepath.Join(dir, "repo"), YAML: cached})
	if !errors.Is(err, ErrNoEngine) {
		t.Fatalf("Load with an unparsable project file = %v, want ErrNoEngine", err)
	}
}

// Without the backtracking engine, a matcher is decided where RE2 is exact
// for the input (plain ASCII), and a firing it cannot decide is refused
// whole, before any hook runs: never a guard skipped, never one run on a
// guess.
func TestNoBacktrackingEngineRefusesWhatItCannotDecide(t *testing.T) {
	withoutEngines(t)
	dir := t.TempDir()
	ran := filepath.Join(dir, "ran")
	guard := script(t, dir, "guard.sh", "echo x >> "+ran+"; echo '{\"action\":\"block\",\"message\":\"no\"}'")
	yml := "hooks:\n  pre_tool_call:\n    - command: " + guard + "\n      matcher: 'term\\w+'\n"
	cfg, err := parseConfig([]byte(yml), "c.yaml", yamltree.Parse)
	if err != nil {
		t.Fatal(err)
	}
	cfg.finish()
	d, err := New(cfg, Options{Gate: AllowAll})
	if err != nil {
		t.Fatal(err)
	}
	ev, _ := protocol.Lookup("pre_tool_call")
	ctx := context.Background()

	plain := toolFields("terminal")
	if cfg.Undecided(ev, plain, "") {
		t.Error("term\\w+ on plain ASCII is undecided; RE2 is exact there")
	}
	out, err := d.Dispatch(ctx, "pre_tool_call", plain)
	if err != nil || out.Decision != protocol.DecisionBlock {
		t.Fatalf("plain input: %v, %+v; want the guard's block", err, out)
	}

	unicode := toolFields("t\u00e9rminal")
	if !cfg.Undecided(ev, unicode, "") {
		t.Error("term\\w+ on non-ASCII input is decided without the engine")
	}
	_ = os.Remove(ran)
	if _, err := d.Dispatch(ctx, "pre_tool_call", unicode); !errors.Is(err, ErrNoEngine) {
		t.Fatalf("non-ASCII input: err = %v, want ErrNoEngine", err)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("a hook ran for a firing the dispatcher refused")
	}

	// A look-behind RE2 cannot run at all: every firing is refused.
	yml = "hooks:\n  pre_tool_call:\n    - command: " + guard + "\n      matcher: '(?<!x)terminal'\n"
	cfg, err = parseConfig([]byte(yml), "c.yaml", yamltree.Parse)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Warnings) != 0 {
		t.Errorf("warnings %v: the pattern is not known to be invalid without the engine", cfg.Warnings)
	}
	cfg.finish()
	if d, err = New(cfg, Options{Gate: AllowAll}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Dispatch(ctx, "pre_tool_call", plain); !errors.Is(err, ErrNoEngine) {
		t.Fatalf("look-behind: err = %v, want ErrNoEngine", err)
	}
	// Another event's firing is not concerned.
	if _, err := d.Dispatch(ctx, "post_tool_call", plain); err != nil {
		t.Fatalf("post_tool_call: %v", err)
	}
}
