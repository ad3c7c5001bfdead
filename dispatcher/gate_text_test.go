package dispatcher

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// gateCase is one refusal of the consent gate, set up from scratch.
type gateCase struct {
	name string
	// own and repo are the user's config and the repository's
	// .hermes/hooks.yaml; GUARD in them is the guard script's path.
	own, repo string
	// approve approves every entry before the dispatch; edit then
	// changes the guard script; corrupt breaks the allowlist.
	approve, edit, corrupt bool
	want                   []string // in the block message
	wantNot                []string // not in it
	once                   []string // in it exactly once
}

// TestGateRefusalText: the refusals the consent gate writes reach the
// agent and the model. Each is addressed to the person (their own
// terminal), says that an agent must not approve the hook itself, and
// offers an approve line that works when run: approve --project 'DIR' for
// a repository's guard, the guard's text only when it can be pasted.
func TestGateRefusalText(t *testing.T) {
	const agentNot = "an agent must not approve hooks for them"
	guardYAML := "hooks:\n  pre_tool_call:\n    - command: %s\n      fail_closed: true\n"
	entry := func(cmd string) string { return strings.Replace(guardYAML, "%s", cmd, 1) }
	// A command whose files cannot be told: a make target; on Windows,
	// where a command is not read by a shell, cmd.exe's own syntax.
	opaque := "make -s guard"
	if runtime.GOOS == "windows" {
		opaque = `cmd /c "guard.cmd & other.cmd"`
	}
	cases := []gateCase{
		{name: "own guard not approved", own: entry("GUARD"),
			want:    []string{"is not approved, so what it guards is refused until the user reviews it and approves it at their own terminal (hermes-hooks approve 'GUARD' --event pre_tool_call); " + agentNot},
			wantNot: []string{"then run"}},
		{name: "own guard not approved, escape in its text", own: entry(`"GUARD \e[2J"`),
			want:    []string{`GUARD \x1b[2J is not approved`, "(hermes-hooks list (to review it), then hermes-hooks approve --all (it approves your own hooks not yet approved, never a repository's)); " + agentNot},
			wantNot: []string{"\x1b", "approve 'GUARD"}},
		{name: "own guard changed", own: entry("GUARD"), approve: true, edit: true,
			want: []string{"guard GUARD refused: script changed since approval (sha256 ", "; it blocks until the user reviews it and re-approves it at their own terminal (hermes-hooks approve 'GUARD' --event pre_tool_call); " + agentNot},
			once: []string{"changed since approval", "hermes-hooks approve", "re-approve"}},
		{name: "repository guard changed", repo: entry("GUARD"), approve: true, edit: true,
			want:    []string{"guard GUARD refused: script changed since approval (sha256 ", "; it blocks until the user reviews it and re-approves it at their own terminal (hermes-hooks approve --project 'REPO'); " + agentNot},
			wantNot: []string{"approve 'GUARD"},
			once:    []string{"changed since approval", "hermes-hooks approve", "re-approve"}},
		{name: "repository guard, allowlist unreadable", repo: entry("GUARD"), corrupt: true,
			want:    []string{"cannot be confirmed approved", "until the user fixes the allowlist or re-approves the guard at their own terminal (hermes-hooks approve --project 'REPO'); " + agentNot},
			wantNot: []string{"approve 'GUARD"}},
		{name: "own guard by text only", own: entry("'" + opaque + "'"), approve: true,
			want: []string{"is approved by its text only", "until the user reviews it and approves it knowingly at their own terminal (hermes-hooks approve --text-only " + shquote.Quote(opaque) + " --event pre_tool_call); " + agentNot}},
		{name: "repository guard by text only", repo: entry("'" + opaque + "'"), approve: true,
			want:    []string{"is approved by its text only", "(hermes-hooks approve --project 'REPO' --text-only); " + agentNot},
			wantNot: []string{"approve --text-only '" + strings.Fields(opaque)[0]}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg, guard, repo := gateRefusal(t, tc)
			expand := strings.NewReplacer("GUARD", guard, "REPO", repo)
			for _, w := range tc.want {
				if w = expand.Replace(w); !strings.Contains(msg, w) {
					t.Errorf("block message lacks %q:\n%s", w, msg)
				}
			}
			for _, w := range tc.once {
				if n := strings.Count(msg, w); n != 1 {
					t.Errorf("block message says %q %d times, want once:\n%s", w, n, msg)
				}
			}
			for _, w := range tc.wantNot {
				if w = expand.Replace(w); strings.Contains(msg, w) {
					t.Errorf("block message holds %q:\n%s", w, msg)
				}
			}
		})
	}
}

// gateRefusal sets tc up, dispatches pre_tool_call and returns the block
// message with the guard's and the repository's paths.
func gateRefusal(t *testing.T, tc gateCase) (msg, guard, repo string) {
	t.Helper()
	root := t.TempDir()
	repo = filepath.Join(root, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	guard = script(t, root, "guard.sh", `echo '{}'`)
	if err := os.MkdirAll(filepath.Join(repo, ".hermes"), 0o755); err != nil {
		t.Fatal(err)
	}
	global := filepath.Join(root, "global.yaml")
	writeFile(t, global, strings.ReplaceAll(tc.own, "GUARD", guard))
	if tc.repo != "" {
		writeFile(t, filepath.Join(repo, ".hermes", "hooks.yaml"), strings.ReplaceAll(tc.repo, "GUARD", guard))
	}
	cfg, err := hookconfig.Load(global, hookconfig.LoadOptions{ProjectDir: repo})
	if err != nil {
		t.Fatal(err)
	}
	store := consent.NewStore(filepath.Join(root, "home"))
	if tc.approve {
		for _, e := range cfg.Entries {
			if _, err := store.ApproveHook(ConsentRequest(e, repo, nil)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if tc.edit {
		if err := os.WriteFile(guard, []byte("#!/bin/sh\necho '{}'\n# edited\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if tc.corrupt {
		writeFile(t, store.Path(), `{"approvals": [`)
	}
	d, err := New(cfg, Options{Gate: ConsentGate(&consent.Policy{Store: store}), Cwd: repo})
	if err != nil {
		t.Fatal(err)
	}
	o := dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"}, "cwd": repo})
	if o.Decision != protocol.DecisionBlock {
		t.Fatalf("decision %q, want block: %+v", o.Decision, o)
	}
	return o.Message, guard, repo
}
