package hookconfig

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// withGOOS reads hooks folders by goos's rules for the test.
func withGOOS(t *testing.T, g string) {
	t.Helper()
	old := goos
	goos = g
	t.Cleanup(func() { goos = old })
}

// TestClineHooksFolderWindows: on Windows a Cline hooks folder is read as
// Cline reads it there (cline/cline#9552): <Event>.ps1 is the event's hook
// (its name without case), run as powershell.exe -NoProfile
// -NonInteractive -ExecutionPolicy Bypass -File PATH without a shell,
// whatever its mode; <Event> beside it, and <Event>.cmd, .bat or .exe,
// are files Cline never runs there: skipped, saying what it runs. Read
// with Windows' rule on every system.
func TestClineHooksFolderWindows(t *testing.T) {
	withGOOS(t, "windows")
	dir := t.TempDir()
	hooks := filepath.Join(dir, "proj", ".clinerules", "hooks")
	files := map[string]string{
		"PreToolUse.ps1":  "'{}'\n",
		"PreToolUse":      "#!/bin/sh\necho '{}'\n", // Cline's Unix name: not seen on Windows
		"PostToolUse.cmd": "@echo {}\n",
		"TaskStart.exe":   "MZ",
		"README.md":       "notes",
	}
	// Windows finds the file whatever the case of its name.
	resume := "taskresume.PS1"
	files[resume] = "exit 0\n"
	for name, body := range files {
		if err := os.MkdirAll(hooks, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(hooks, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := loadClineHooks(t, dir, "proj/.clinerules/hooks")
	if len(cfg.Entries) != 2 {
		t.Fatalf("%d entries, want PreToolUse.ps1 and %s: %+v", len(cfg.Entries), resume, cfg.Entries)
	}
	for i, want := range []struct{ event, file string }{{"PreToolUse", "PreToolUse.ps1"}, {"TaskResume", resume}} {
		e := cfg.Entries[i]
		path := filepath.Join(hooks, want.file)
		argv := []string{"powershell.exe", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File", path}
		if e.DeclaredAs != want.event || !slices.Equal(e.Exec().Args, argv) || e.Codec == nil || e.Codec.Dialect() != "cline" ||
			e.Scope.Project != filepath.Join(dir, "proj") || e.FileOf != "cline" {
			t.Errorf("entry %d: event %q, args %q, dialect %q, scope %+v, file of %q; want %s run as %q",
				i, e.DeclaredAs, e.Exec().Args, e.Dialect, e.Scope, e.FileOf, want.event, argv)
		}
	}
	if e := cfg.Entries[1]; !e.Matches(map[string]any{"source": "resume"}, nil) || e.Matches(map[string]any{"source": "startup"}, nil) {
		t.Error("the TaskResume hook does not tell a resumed session from a new one")
	}
	var warns []string
	for _, w := range cfg.Warnings {
		warns = append(warns, w.String())
	}
	all := strings.Join(warns, "\n")
	for name, event := range map[string]string{"PreToolUse": "PreToolUse", "PostToolUse.cmd": "PostToolUse", "TaskStart.exe": "TaskStart"} {
		want := filepath.Join(hooks, name) + ": Cline on Windows runs only " + event + ".ps1, through PowerShell; skipped"
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "README") || strings.Contains(all, "not an executable") {
		t.Errorf("warnings:\n%s", all)
	}

	// One file named on its own is read by the same rule.
	entries, warnings, err := parserOf("cline")([]byte("@echo {}\n"), filepath.Join(hooks, "PostToolUse.cmd"), 0)
	if err != nil || len(entries) != 0 || len(warnings) != 1 || !strings.Contains(warnings[0].Message, "runs only PostToolUse.ps1") {
		t.Errorf("PostToolUse.cmd named alone: %d entries, warnings %v, %v", len(entries), warnings, err)
	}
}

// TestClineHooksFolderElsewhere: on Linux and macOS the Windows rule does
// not apply: a .ps1 file is none of Cline's, the execute bit decides.
func TestClineHooksFolderElsewhere(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the execute bit: Unix only")
	}
	withGOOS(t, "linux")
	dir := t.TempDir()
	hooks := filepath.Join(dir, ".clinerules", "hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, mode := range map[string]os.FileMode{"PreToolUse.ps1": 0o755, "PreToolUse": 0o755} {
		if err := os.WriteFile(filepath.Join(hooks, name), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	cfg := loadClineHooks(t, dir, ".clinerules/hooks")
	if len(cfg.Entries) != 1 || cfg.Entries[0].Exec().Args != nil || cfg.Entries[0].Command != "'"+filepath.Join(hooks, "PreToolUse")+"'" {
		t.Fatalf("entries %+v: want PreToolUse, run as it is", cfg.Entries)
	}
	if len(cfg.Warnings) != 0 {
		t.Errorf("warnings %v", cfg.Warnings)
	}
}

// TestClineHooksFolderWindowsTwoSpellings: a case-sensitive folder read
// by Windows' rule can hold one event's hook under two spellings; Cline
// opens <Event>.ps1 by that name, so that one is kept, in the folder's
// name order, and the other is skipped saying so.
func TestClineHooksFolderWindowsTwoSpellings(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		t.Skip("the folder must tell names that differ in case apart")
	}
	withGOOS(t, "windows")
	dir := t.TempDir()
	hooks := filepath.Join(dir, "proj", ".clinerules", "hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	// Listed in this order: PRETOOLUSE.ps1, PostToolUse.ps1, PreToolUse.ps1.
	for _, name := range []string{"PRETOOLUSE.ps1", "PostToolUse.ps1", "PreToolUse.ps1"} {
		if err := os.WriteFile(filepath.Join(hooks, name), []byte("exit 0\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := loadClineHooks(t, dir, "proj/.clinerules/hooks")
	var got []string
	for _, e := range cfg.Entries {
		args := e.Exec().Args
		got = append(got, e.DeclaredAs+" "+filepath.Base(args[len(args)-1]))
	}
	if want := []string{"PostToolUse PostToolUse.ps1", "PreToolUse PreToolUse.ps1"}; !slices.Equal(got, want) {
		t.Errorf("entries %q, want %q", got, want)
	}
	var skipped int
	for _, w := range cfg.Warnings {
		if strings.Contains(w.Message, "PRETOOLUSE.ps1") && strings.Contains(w.Message, "by that name; skipped") {
			skipped++
		}
	}
	if skipped != 1 {
		t.Errorf("want one warning skipping PRETOOLUSE.ps1, got %+v", cfg.Warnings)
	}
}

// loadClineHooks loads a config in dir that names the Cline hooks folder
// folder (relative to dir).
func loadClineHooks(t *testing.T, dir, folder string) *Config {
	t.Helper()
	cfgPath := filepath.Join(dir, "config.yaml")
	writeFile(t, cfgPath, "cline_hooks: ["+folder+"]\n")
	cfg, err := Load(cfgPath, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
