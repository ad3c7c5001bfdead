package install

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

const bin = "/opt/hermes hooks/bin/hermes-hooks"

func command(agent string) func(string) string {
	return func(ev string) string { return "'" + bin + "' hook " + agent + " " + ev }
}

// A settings file as people have them: keys in their own order, keys we do
// not know, a hook of the user's own, non-ASCII text.
const claudeSettings = `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": {
    "allow": [
      "Bash(npm run test:*)"
    ],
    "deny": []
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "~/.claude/hooks/guard.sh",
            "timeout": 30
          }
        ]
      }
    ]
  },
  "zLast": {
    "émoji": "✓",
    "n": 1.50
  }
}
`

const cursorHooks = `{
    "version": 1,
    "hooks": {
        "afterFileEdit": [
            {
                "command": "./format.sh"
            }
        ]
    },
    "x-team": true
}
`

// A Gemini CLI settings.json as its users keep it: tab-indented, settings
// hermes-hooks knows nothing of (auth, model, MCP servers, hooksConfig)
// around and after "hooks", a BeforeTool hook of the user's own with a
// timeout in milliseconds, a comment-free trailing key.
const geminiSettings = "{\n" +
	"\t\"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}},\n" +
	"\t\"model\": {\n\t\t\"name\": \"gemini-2.5-flash\"\n\t},\n" +
	"\t\"hooksConfig\": {\"enabled\": true, \"disabled\": [\"old-linter\"]},\n" +
	"\t\"hooks\": {\n" +
	"\t\t\"BeforeTool\": [\n" +
	"\t\t\t{\n" +
	"\t\t\t\t\"matcher\": \"run_shell_command\",\n" +
	"\t\t\t\t\"hooks\": [{\"type\": \"command\", \"name\": \"team-guard\", \"command\": \"$GEMINI_PROJECT_DIR/.gemini/hooks/guard.sh\", \"timeout\": 5000}]\n" +
	"\t\t\t}\n" +
	"\t\t]\n" +
	"\t},\n" +
	"\t\"mcpServers\": {\"github\": {\"command\": \"gh-mcp\", \"args\": [\"--ro\"]}},\n" +
	"\t\"ui\": {\"theme\": \"Ayu Dark — ✓\"}\n" +
	"}\n"

// A Windsurf hooks.json with tabs, a key Windsurf does not know and a hook
// of the user's own.
const windsurfHooks = "{\n\t\"hooks\": {\n\t\t\"pre_run_command\": [\n\t\t\t{\"command\": \"./guard.sh\", \"show_output\": false, \"working_directory\": \"tools\"}\n\t\t]\n\t},\n\t\"x-team\": [1, 2.50, \"ü\"]\n}\n"

// qwenSettings is a Qwen Code settings file in tabs, with its own keys
// (hooks.enabled is a setting among the events) and a hook of the user's.
const qwenSettings = "{\n\t\"general\": {\"vimMode\": true},\n\t\"hooks\": {\n\t\t\"enabled\": true,\n" +
	"\t\t\"TodoCreated\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./todo.sh\", \"timeout\": 5000}]}]\n\t},\n" +
	"\t\"privacy\": {\"usageStatisticsEnabled\": false}\n}\n"

// factorySettings is a Factory Droid settings file in three-space indent,
// with Droid's own keys and a hook of the user's on one of its tools.
const factorySettings = `{
   "model": "claude-opus-4-5",
   "autonomyLevel": "auto-medium",
   "hooks": {
      "PreToolUse": [
         {"matcher": "Execute", "commandRegex": "^git push", "hooks": [{"type": "command", "command": "\"$FACTORY_PROJECT_DIR\"/push-guard.sh"}]}
      ]
   },
   "enableCustomDroids": true
}`

// A Kiro CLI agent file as its users keep it: three-space indentation,
// keys hermes-hooks knows nothing of (mcpServers, allowedTools,
// toolsSettings) around "hooks", a preToolUse hook of the user's own with
// a matcher, a compact list on one line.
const kiroAgent = "{\n" +
	"   \"name\": \"default\",\n" +
	"   \"tools\": [\"*\"],\n" +
	"   \"allowedTools\": [\"fs_read\", \"@git/status\"],\n" +
	"   \"hooks\": {\n" +
	"      \"preToolUse\": [\n" +
	"         {\"command\": \"./scripts/no-secrets.sh\", \"matcher\": \"fs_*\", \"timeout_ms\": 5000}\n" +
	"      ]\n" +
	"   },\n" +
	"   \"toolsSettings\": {\"execute_bash\": {\"allowedCommands\": [\"git status\"]}},\n" +
	"   \"welcomeMessage\": \"Prêt — ✓\"\n" +
	"}\n"

func TestInstallRoundTrip(t *testing.T) {
	claude, _ := agents.Lookup("claude")
	cursor, _ := agents.Lookup("cursor")
	gemini, _ := agents.Lookup("gemini")
	windsurf, _ := agents.Lookup("windsurf")
	qwen, _ := agents.Lookup("qwen")
	factory, _ := agents.Lookup("factory")
	kiro, _ := agents.Lookup("kiro")
	for _, tc := range []struct {
		name     string
		agent    *agents.Agent
		original string
	}{
		{"kiro agent in three-space indent with unknown keys and a user hook", kiro, kiroAgent},
		{"kiro agent without hooks or tools, tabs", kiro, "{\n\t\"name\": \"dev\",\n\t\"model\": \"claude-sonnet-4\"\n}\n"},
		{"claude settings with a user hook", claude, claudeSettings},
		{"cursor hooks in four-space indent", cursor, cursorHooks},
		{"claude settings without hooks, no final newline", claude, `{"model": "opus"}`},
		{"empty cursor file", cursor, ""},
		{"gemini settings in tabs with unknown keys and a user hook", gemini, geminiSettings},
		{"gemini settings without hooks, two-space indent", gemini, "{\n  \"general\": {\n    \"vimMode\": true\n  }\n}\n"},
		{"windsurf hooks in tabs with unknown keys", windsurf, windsurfHooks},
		{"qwen settings in tabs with its own keys", qwen, qwenSettings},
		{"factory settings in three-space indent, no final newline", factory, factorySettings},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "hooks.json")
			writeFile(t, path, tc.original)
			installed := run(t, tc.agent, path, false)
			for _, ev := range tc.agent.HookFile.Events {
				if !strings.Contains(installed, `"'`+bin+`' hook `+tc.agent.Name+` `+ev+`"`) {
					t.Errorf("no entry for %s:\n%s", ev, installed)
				}
			}
			if backup := readFile(t, path+BackupSuffix); backup != tc.original {
				t.Errorf("backup = %q, want the original", backup)
			}
			// A second install changes nothing.
			p, err := Make(tc.agent, path, "", command(tc.agent.Name), false)
			if err != nil || p.Changed {
				t.Fatalf("second install: changed=%v err=%v", p != nil && p.Changed, err)
			}
			// A new binary path updates our entries in place.
			moved := func(ev string) string { return "'/new/hermes-hooks' hook " + tc.agent.Name + " " + ev }
			p, err = Make(tc.agent, path, "", moved, false)
			if err != nil || !p.Changed || strings.Contains(string(p.New), bin) || strings.Count(string(p.New), "/new/hermes-hooks") != len(tc.agent.HookFile.Events) {
				t.Fatalf("moved binary: err=%v\n%s", err, p.New)
			}
			// Uninstall gives the original back, byte for byte.
			run(t, tc.agent, path, true)
			got, err := os.ReadFile(path)
			if tc.original == "" {
				if !os.IsNotExist(err) {
					t.Fatalf("uninstall left %q where there was an empty file", got)
				}
				return
			}
			if string(got) != tc.original {
				t.Fatalf("after uninstall:\n%s\nwant the original:\n%s", got, tc.original)
			}
		})
	}
}

// TestInstallCreatesAndUninstallRemoves: for every agent, install into no
// file makes one in the agent's shape (with the agent's extra keys: the
// timeouts that keep a slow dispatch from failing open), and uninstall
// takes the whole file away again.
func TestInstallCreatesAndUninstallRemoves(t *testing.T) {
	for _, name := range agents.Names() {
		a, _ := agents.Lookup(name)
		if a.HookFile.Layout == agents.Scripts {
			continue // TestScripts*
		}
		path := filepath.Join(t.TempDir(), a.HookFile.Project)
		out := run(t, a, path, false)
		first := `"command": "'` + bin + `' hook ` + name + ` ` + a.HookFile.Events[0] + `"`
		if !strings.Contains(out, first) {
			t.Errorf("%s: new file lacks %s:\n%s", name, first, out)
		}
		for _, m := range a.HookFile.Extra {
			if !strings.Contains(out, `"`+m.Key+`": `) {
				t.Errorf("%s: new file lacks %s:\n%s", name, m.Key, out)
			}
		}
		if a.HookFile.Layout == agents.Flat && !a.HookFile.NoVersion && !strings.HasPrefix(out, "{\n  \"version\": 1,\n  \"hooks\": {\n") {
			t.Errorf("%s: flat file without version first:\n%s", name, out)
		}
		for _, m := range a.HookFile.Init {
			if !strings.HasPrefix(out, "{\n  \""+a.HookFile.Init[0].Key+"\": ") || !strings.Contains(out, `"`+m.Key+`": `) {
				t.Errorf("%s: new file lacks %s first:\n%s", name, m.Key, out)
			}
		}
		run(t, a, path, true)
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s: uninstall left the file install made: %v", name, err)
		}
	}
}

func TestBrokenFileIsNeverWritten(t *testing.T) {
	claude, _ := agents.Lookup("claude")
	for _, tc := range []struct{ content, want string }{
		{"{\n  \"a\": 1,\n  \"b\": \n}\n", ":4:1: not valid JSON"},
		{"{\n  \"a\": [1,\n", "unexpected end"},
		{"[1, 2]\n", ":1:1: the file is not a JSON object"},
		{`{"hooks": ["x"]}`, `"hooks" is not an object`},
		{`{"hooks": {"Stop": {"x": 1}}}`, `"hooks"."Stop" is not a list`},
	} {
		path := filepath.Join(t.TempDir(), "settings.json")
		writeFile(t, path, tc.content)
		_, err := Make(claude, path, "", command("claude"), false)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want the path and %q", tc.content, err, tc.want)
		}
		if got := readFile(t, path); got != tc.content {
			t.Errorf("broken file changed to %q", got)
		}
	}
}

// TestDiffApplies: the dry-run diff is a real unified diff: git apply
// turns the old file into the new one with it.
func TestDiffApplies(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	claude, _ := agents.Lookup("claude")
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	writeFile(t, path, claudeSettings)
	p, err := Make(claude, path, "", command("claude"), false)
	if err != nil {
		t.Fatal(err)
	}
	diff := p.Diff()
	if !strings.HasPrefix(diff, "--- "+path+"\n+++ "+path+"\n@@ ") {
		t.Fatalf("diff header:\n%s", diff)
	}
	patch := filepath.Join(dir, "p.diff")
	writeFile(t, patch, strings.ReplaceAll(diff, path, "a/settings.json"))
	cmd := exec.Command("git", "apply", "-p1", "--unidiff-zero", "--directory=.", patch)
	cmd.Dir = dir
	// git apply wants a/ and b/ prefixes.
	writeFile(t, patch, strings.Replace(strings.Replace(diff, "--- "+path, "--- a/settings.json", 1), "+++ "+path, "+++ b/settings.json", 1))
	cmd = exec.Command("git", "apply", patch)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v\n%s\n%s", err, out, diff)
	}
	if got := readFile(t, path); got != string(p.New) {
		t.Fatalf("patched file differs from the plan:\n%s", got)
	}
}

func run(t *testing.T, a *agents.Agent, path string, uninstall bool) string {
	t.Helper()
	p, err := Make(a, path, "", command(a.Name), uninstall)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Changed {
		t.Fatalf("nothing to change (uninstall=%v)", uninstall)
	}
	if _, err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	return string(b)
}

func writeFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCodexSessionEndTimeout: Codex clamps a SessionEnd hook to 3 s and
// reports a larger timeout on every run, so that one entry says 3.
func TestCodexSessionEndTimeout(t *testing.T) {
	codex, _ := agents.Lookup("codex")
	path := filepath.Join(t.TempDir(), "hooks.json")
	out := run(t, codex, path, false)
	end := strings.Index(out, `hook codex SessionEnd"`)
	if end < 0 || !strings.HasPrefix(out[end:], "hook codex SessionEnd\",\n            \"timeout\": 3\n") {
		t.Fatalf("SessionEnd entry:\n%s", out)
	}
	if strings.Count(out, `"timeout": 600`) != len(codex.HookFile.Events)-1 {
		t.Fatalf("other entries:\n%s", out)
	}
}

// FuzzInstall: on any JSON object install either refuses (a hooks key of
// the wrong shape) or adds its entries; a second install changes nothing,
// and uninstall leaves none of ours.
func FuzzInstall(f *testing.F) {
	for _, s := range []string{claudeSettings, cursorHooks, `{}`, `{"hooks":{"Stop":[]}}`, `{"hooks":{"Stop":[{"hooks":"x"}]}}`, `{"version":2}`,
		"\xef\xbb\xbf" + claudeSettings, "\xef\xbb\xbf", "\xef\xbb\xbf\xef\xbb\xbf{}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		for _, name := range agents.Names() {
			a, _ := agents.Lookup(name)
			path := filepath.Join(t.TempDir(), "f.json")
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			p, err := Make(a, path, "", command(name), false)
			if err != nil {
				continue
			}
			// A byte order mark first stays first (TestInstallKeepsBOM).
			if strings.HasPrefix(content, "\xef\xbb\xbf") != strings.HasPrefix(string(p.New), "\xef\xbb\xbf") {
				t.Fatalf("%s: the mark of %q not kept as it was: %q", name, content, p.New)
			}
			if _, err := p.Apply(); err != nil {
				t.Fatal(err)
			}
			if p2, err := Make(a, path, "", command(name), false); err != nil || p2.Changed {
				t.Fatalf("%s: second install changed=%v err=%v on %q", name, p2 != nil && p2.Changed, err, content)
			}
			u, err := Make(a, path, "", command(name), true)
			if err != nil {
				t.Fatalf("%s: uninstall: %v", name, err)
			}
			if u.Remove {
				continue
			}
			if strings.Contains(string(u.New), "hook "+name+" ") {
				t.Fatalf("%s: uninstall left an entry of ours:\n%s", name, u.New)
			}
		}
	})
}

// TestUninstallCleansUp: an uninstall that gives the file back as it was,
// or removes it, leaves no backup; one that removes it also removes the
// directories install created that are left empty between it and the
// project, never the project, a directory that still holds something, nor
// one install did not create (or of which it has no record).
func TestUninstallCleansUp(t *testing.T) {
	copilot, _ := agents.Lookup("copilot")
	claude, _ := agents.Lookup("claude")
	project, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(project, copilot.HookFile.Project) // .github/hooks/hermes-hooks.json
	// The folders install created, as the registry records them.
	var created []string
	plan := func(a *agents.Agent, path string, uninstall bool) *Plan {
		t.Helper()
		p, err := Make(a, path, "", command(a.Name), uninstall)
		if err != nil || !p.Changed {
			t.Fatalf("changed=%v err=%v", p != nil && p.Changed, err)
		}
		p.Root, p.OwnDirs = project, created
		if _, err := p.Apply(); err != nil {
			t.Fatal(err)
		}
		created = append(created, p.CreatedDirs...)
		return p
	}
	plan(copilot, file, false)
	if want := []string{filepath.Join(project, ".github"), filepath.Dir(file)}; strings.Join(created, ",") != strings.Join(want, ",") {
		t.Fatalf("created %v, want %v", created, want)
	}
	if err := os.WriteFile(filepath.Join(project, ".github", "CODEOWNERS"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p := plan(copilot, file, true)
	if want := []string{filepath.Dir(file)}; !p.Remove || strings.Join(p.RemovedDirs, ",") != strings.Join(want, ",") {
		t.Fatalf("removed %v (file removed: %v), want %v", p.RemovedDirs, p.Remove, want)
	}
	if _, err := os.Stat(filepath.Join(project, ".github", "CODEOWNERS")); err != nil {
		t.Fatalf("a directory that holds something went: %v", err)
	}
	if _, err := os.Stat(file + BackupSuffix); !os.IsNotExist(err) {
		t.Fatalf("backup left: %v", err)
	}

	// A file the user had: restored byte for byte, its backup gone, its
	// directory kept.
	settings := filepath.Join(project, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, settings, "{}")
	plan(claude, settings, false)
	if p := plan(claude, settings, true); !p.Restored || p.Remove || len(p.RemovedDirs) != 0 {
		t.Fatalf("restored=%v removed=%v dirs=%v", p.Restored, p.Remove, p.RemovedDirs)
	}
	if got := readFile(t, settings); got != "{}" {
		t.Fatalf("restored %q", got)
	}
	if _, err := os.Stat(settings + BackupSuffix); !os.IsNotExist(err) {
		t.Fatalf("backup left: %v", err)
	}

	// The root itself is never removed, even empty.
	if err := os.RemoveAll(filepath.Join(project, ".claude")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(project, ".github")); err != nil {
		t.Fatal(err)
	}
	plan(claude, settings, false)
	p = plan(claude, settings, true)
	if strings.Join(p.RemovedDirs, ",") != filepath.Dir(settings) {
		t.Fatalf("removed %v", p.RemovedDirs)
	}
	if _, err := os.Stat(project); err != nil {
		t.Fatalf("the project went: %v", err)
	}

	// A directory that was there before install stays, empty or not; so
	// does every one when install's record of them is lost.
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	created = nil
	plan(claude, settings, false)
	if p := plan(claude, settings, true); !p.Remove || len(p.RemovedDirs) != 0 {
		t.Fatalf("removed %v (file removed: %v): install did not create it", p.RemovedDirs, p.Remove)
	}
	if err := os.Remove(filepath.Dir(settings)); err != nil {
		t.Fatal(err)
	}
	plan(claude, settings, false)
	created = nil
	if p := plan(claude, settings, true); !p.Remove || len(p.RemovedDirs) != 0 {
		t.Fatalf("removed %v with no record of what install created", p.RemovedDirs)
	}
	if _, err := os.Stat(filepath.Dir(settings)); err != nil {
		t.Fatalf("a directory went with no record: %v", err)
	}
}

// TestBackupInStateDir: with a backups folder, install keeps the previous
// file there (mode 0600), never beside it (in a repository's work tree
// git status showed it, and teams committed it); uninstall restores from
// it, byte for byte, and removes it. Two files of one name in two
// projects get a backup each.
func TestBackupInStateDir(t *testing.T) {
	claude, _ := agents.Lookup("claude")
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	backups := BackupsDir(filepath.Join(root, "state"))
	var kept []string
	for _, proj := range []string{"a", "b"} {
		settings := filepath.Join(root, proj, ".claude", "settings.json")
		if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, settings, `{"model": "`+proj+`"}`)
		p, err := Make(claude, settings, backups, command("claude"), false)
		if err != nil {
			t.Fatal(err)
		}
		backup, err := p.Apply()
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Dir(backup) != backups || readFile(t, backup) != `{"model": "`+proj+`"}` {
			t.Fatalf("backup %s holds %q", backup, readFile(t, backup))
		}
		checkPerm(t, "backup", backup, 0o600)
		if _, err := os.Stat(settings + BackupSuffix); !os.IsNotExist(err) {
			t.Fatalf("a backup beside the file: %v", err)
		}
		kept = append(kept, backup)
	}
	if kept[0] == kept[1] {
		t.Fatalf("two projects' settings.json share the backup %s", kept[0])
	}
	settings := filepath.Join(root, "a", ".claude", "settings.json")
	u, err := Make(claude, settings, backups, command("claude"), true)
	if err != nil || !u.Restored {
		t.Fatalf("restored=%v err=%v", u != nil && u.Restored, err)
	}
	if _, err := u.Apply(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, settings); got != `{"model": "a"}` {
		t.Fatalf("restored %q", got)
	}
	if _, err := os.Stat(kept[0]); !os.IsNotExist(err) {
		t.Fatalf("backup left: %v", err)
	}
}

// TestProjectDir: the nearest directory with .git (a worktree's .git is a
// file), the directory itself outside a repository, and never a
// repository at or above the home directory.
func TestProjectDir(t *testing.T) {
	root := t.TempDir()
	mk := func(p string) string {
		t.Helper()
		p = filepath.Join(root, p)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	repo, sub := mk("src/app/.git"), mk("src/app/web/ui")
	repo = filepath.Dir(repo)
	wt := mk("src/wt/pkg")
	writeFile(t, filepath.Join(root, "src/wt/.git"), "gitdir: ../app/.git/worktrees/wt\n")
	plain := mk("tmp/x")
	home := mk("home/me")
	mk("home/me/.git")
	inHome := mk("home/me/notes")
	for _, tc := range []struct {
		dir, want string
		inRepo    bool
	}{
		{sub, repo, true},
		{repo, repo, true},
		{wt, filepath.Join(root, "src/wt"), true},
		{plain, plain, false},
		{inHome, inHome, false},
		{home, home, false},
	} {
		got, in := ProjectDir(tc.dir, home)
		if got != tc.want || in != tc.inRepo {
			t.Errorf("ProjectDir(%s) = %s, %v; want %s, %v", tc.dir, got, in, tc.want, tc.inRepo)
		}
	}
}
