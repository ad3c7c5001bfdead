package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
)

// TestForeignLines: the lines of ours in a repository's hook file that
// run another program than this hermes-hooks, by doctor's verdict
// (programOf): an existing program, or a path that names nothing. This
// binary by its absolute path (install --absolute), the PATH form, a
// Windows path read elsewhere and a user's own file are not.
func TestForeignLines(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX paths")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	claude, _ := agents.Lookup("claude")
	gemini, _ := agents.Lookup("gemini")
	winLine, err := gemini.HookCommandOn("windows", `C:/Users/x/hermes-hooks.exe`, "BeforeTool")
	if err != nil {
		t.Fatal(err)
	}
	lines := []string{
		claude.HookCommand("", "PreToolUse"),
		claude.HookCommand(self, "PreToolUse"),
		claude.HookCommand("/bin/sh", "PreToolUse"),
		"'/nonexistent-hermes-hooks-test/hermes-hooks' hook claude Stop",
		"'C:/Users/x/hermes-hooks.exe' hook claude Stop",
	}
	var handlers []any
	for _, l := range lines {
		handlers = append(handlers, map[string]any{"type": "command", "command": l})
	}
	doc, _ := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{"hooks": handlers}}}})
	gdoc, _ := json.Marshal(map[string]any{"hooks": map[string]any{"BeforeTool": []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": winLine}}}}}})
	dir := t.TempDir()
	for p, data := range map[string][]byte{
		"repo/.git/HEAD": []byte("ref: refs/heads/main\n"), "repo/.claude/settings.json": doc,
		"repo/.gemini/settings.json": gdoc, "home/.claude/settings.json": doc,
	} {
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", filepath.Join(dir, "home"))
	cfg, err := hookconfig.Load(filepath.Join(dir, "home", "config.yaml"), hookconfig.LoadOptions{AgentFiles: hookconfig.AgentFiles{
		"claude": {filepath.Join(dir, "repo/.claude/settings.json"), filepath.Join(dir, "home/.claude/settings.json")},
		"gemini": {filepath.Join(dir, "repo/.gemini/settings.json")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.OwnLines) != 11 {
		t.Fatalf("%d own lines, want 11", len(cfg.OwnLines))
	}
	got := ForeignLines(cfg)
	want := map[string]string{"/bin/sh": FireForeign, "/nonexistent-hermes-hooks-test/hermes-hooks": ProgramMissing}
	if len(got) != len(want) {
		t.Fatalf("foreign lines: %+v", got)
	}
	for _, f := range got {
		if want[f.Program] != f.Status || f.RunBy != "claude" || f.Source != filepath.Join(dir, "repo/.claude/settings.json") || f.Event != "PreToolUse" {
			t.Errorf("foreign line %+v", f)
		}
	}
}

// TestInstallLike: a hook line that calls hermes-hooks' hook verb in a
// form install does not write (a relative path, the bare name without
// install's prologue, a path in another shape) is read as an install-like
// line, with the program it runs and why it may not work elsewhere; a line
// that does not call the hook verb of a hermes-hooks is not.
func TestInstallLike(t *testing.T) {
	for _, tc := range []struct{ line, program, kind string }{
		{"./bin/hermes-hooks hook claude PreToolUse", "./bin/hermes-hooks", likeRelative},
		{"bin/hermes-hooks hook claude PreToolUse", "bin/hermes-hooks", likeRelative},
		{`"./tools/hermes-hooks" hook claude PreToolUse --agent-timeout 600`, "./tools/hermes-hooks", likeRelative},
		{"cd sub && ../hermes-hooks.exe hook claude Stop", "../hermes-hooks.exe", likeRelative},
		{"hermes-hooks hook claude PreToolUse", "hermes-hooks", likeBare},
		{"exec hermes-hooks hook codex PreToolUse", "hermes-hooks", likeBare},
		{"/usr/local/bin/hermes-hooks hook claude PreToolUse", "/usr/local/bin/hermes-hooks", likeOther},
		{"~/bin/hermes-hooks hook claude PreToolUse", "~/bin/hermes-hooks", likeOther},
		{"$HOME/bin/hermes-hooks hook claude PreToolUse", "$HOME/bin/hermes-hooks", likeOther},
		{`"$HOME"/bin/hermes-hooks hook claude PreToolUse`, `"$HOME"/bin/hermes-hooks`, likeOther},
		{"X=1 './bin/hermes-hooks' 'hook' claude PreToolUse", "./bin/hermes-hooks", likeRelative},
		{"if true; then ./bin/hermes-hooks hook claude Stop; fi", "./bin/hermes-hooks", likeRelative},
		{"./guard.sh", "", ""},
		{"echo 'hermes-hooks hook claude'", "", ""},
		{"./bin/hermes-hooks hook claude 'unclosed", "", ""},
		{"hermes-hooks dispatch pre_tool_call", "", ""},
		{"./bin/hermes-hooks-old hook claude PreToolUse", "", ""},
		{"echo hermes-hooks hook", "", ""},
		{"hermes-hooks", "", ""},
	} {
		program, kind := installLike(tc.line)
		if program != tc.program || kind != tc.kind {
			t.Errorf("installLike(%q) = %q, %q; want %q, %q", tc.line, program, kind, tc.program, tc.kind)
		}
	}
}
