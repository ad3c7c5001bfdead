package dispatcher

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
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
// for the input (plain ASCII); an entry whose matcher it cannot decide for
// a firing is selected and fails as a hook that cannot start, before
// anything runs: a fail_closed guard blocks, never a guard skipped, never
// one run on a guess.
func TestNoBacktrackingEngineFailsWhatItCannotDecide(t *testing.T) {
	withoutEngines(t)
	dir := t.TempDir()
	ran := filepath.Join(dir, "ran")
	guard := script(t, dir, "guard.sh", "echo x >> "+ran+"; echo '{\"action\":\"block\",\"message\":\"no\"}'")
	dispatcherOf := func(matcher string) (*Config, *Dispatcher) {
		t.Helper()
		yml := "hooks:\n  pre_tool_call:\n    - command: " + guard + "\n      fail_closed: true\n      matcher: '" + matcher + "'\n"
		cfg, err := parseConfig([]byte(yml), "c.yaml", yamltree.Parse, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(cfg.Warnings) != 0 {
			t.Errorf("warnings %v: the pattern is not known to be invalid without the engine", cfg.Warnings)
		}
		cfg.finish()
		d, err := New(cfg, Options{Gate: AllowAll})
		if err != nil {
			t.Fatal(err)
		}
		return cfg, d
	}
	ev, _ := protocol.Lookup("pre_tool_call")
	ctx := context.Background()
	plain, unicode := toolFields("terminal"), toolFields("t\u00e9rminal")
	refused := func(what string, d *Dispatcher, fields map[string]any) {
		t.Helper()
		_ = os.Remove(ran)
		out, err := d.Dispatch(ctx, "pre_tool_call", fields)
		if err != nil || out.Decision != protocol.DecisionBlock || len(out.Hooks) != 1 || out.Hooks[0].Ran ||
			!strings.Contains(out.Hooks[0].Error, "only the backtracking regex engine can tell") {
			t.Errorf("%s: %v, %+v; want the fail_closed guard failing to start, and a block", what, err, out)
		}
		if _, err := os.Stat(ran); err == nil {
			t.Errorf("%s: the hook ran", what)
		}
	}

	cfg, d := dispatcherOf(`term\w+`)
	if cfg.Undecided(ev, plain, "") {
		t.Error("term\\w+ on plain ASCII is undecided; RE2 is exact there")
	}
	out, err := d.Dispatch(ctx, "pre_tool_call", plain)
	if err != nil || out.Decision != protocol.DecisionBlock || !out.Hooks[0].Ran {
		t.Fatalf("plain input: %v, %+v; want the guard run, and its block", err, out)
	}
	if !cfg.Undecided(ev, unicode, "") {
		t.Error("term\\w+ on non-ASCII input is decided without the engine")
	}
	refused("term\\w+ on non-ASCII input", d, unicode)

	// A look-behind RE2 cannot run at all: every firing.
	cfg, d = dispatcherOf(`(?<!x)terminal`)
	if !cfg.Undecided(ev, plain, "") {
		t.Error("a look-behind is decided without the engine")
	}
	refused("a look-behind", d, plain)
	// Another event's firing is not concerned.
	if out, err := d.Dispatch(ctx, "post_tool_call", plain); err != nil || len(out.Hooks) != 0 {
		t.Fatalf("post_tool_call: %v, %+v", err, out)
	}
}
