package dispatcher_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
	"github.com/hermes-hooks/hermes-hooks/sessions"
)

// readmeHost holds the Go snippet of docs/agents.md (host integration)
// between the markers, so that it is compiled and run (TestReadmeGoSnippet),
// and the page must quote it verbatim: the snippet people copy cannot rot.
func readmeHost(ctx context.Context, configPath, cwd, hermesHome, cmd, sid string) (protocol.Outcome, error) {
	// README:begin
	cfg, err := hookconfig.Load(configPath, hookconfig.LoadOptions{ProjectDir: cwd})
	if err != nil {
		return protocol.Outcome{}, err // names the file, line and reason
	}
	// Reads HERMES_SAFE_MODE / HERMES_ACCEPT_HOOKS once; project hooks are never auto-accepted.
	policy := consent.NewPolicy(consent.NewStore(hermesHome), consent.PolicyOptions{ConfigAutoAccept: cfg.AutoAccept})
	d, err := dispatcher.New(cfg, dispatcher.Options{
		Gate:     dispatcher.ConsentGate(policy),
		Cwd:      cwd, // the one working directory: hooks run and are resolved here
		Sessions: sessions.NewMemory(),
	})
	if err != nil {
		return protocol.Outcome{}, err
	}
	outcome, err := d.Dispatch(ctx, "pre_tool_call", map[string]any{
		"tool_name": "terminal", "args": map[string]any{"command": cmd}, "session_id": sid,
	})
	if outcome.Blocked() {
		return outcome, err // return outcome.Message to the model as the tool's result
	}
	// README:end
	return outcome, err
}

func TestReadmeGoSnippet(t *testing.T) {
	src, err := os.ReadFile("readme_example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	body := string(src)
	body = body[strings.Index(body, "// README:begin\n")+len("// README:begin\n") : strings.Index(body, "\t// README:end")]
	var snippet strings.Builder
	for _, l := range strings.SplitAfter(body, "\n") {
		snippet.WriteString(strings.TrimPrefix(l, "\t"))
	}
	// The snippet is in docs/agents.md's host integration (the README
	// links there).
	readme, err := os.ReadFile(filepath.Join("..", "docs", "agents.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```go\n"+snippet.String()+"```\n") {
		t.Fatalf("docs/agents.md does not quote the Go snippet verbatim:\n%s", snippet.String())
	}
	home := exampleHome()
	defer os.RemoveAll(home)
	for cmd, want := range map[string]protocol.Decision{"ls -la": protocol.DecisionNone, "rm -rf /": protocol.DecisionBlock} {
		o, err := readmeHost(context.Background(), filepath.Join(home, "config.yaml"), home, home, cmd, "s1")
		if err != nil || o.Decision != want {
			t.Errorf("%s: %s %v, want %s", cmd, o.Decision, err, want)
		}
	}
}
