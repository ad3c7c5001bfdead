package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// scriptsFor makes MakeScripts write for the system goos until the test
// ends.
func scriptsFor(t *testing.T, goos string) {
	old := scriptsOS
	scriptsOS = goos
	t.Cleanup(func() { scriptsOS = old })
}

func applyScripts(t *testing.T, a *agents.Agent, dir, root string, command func(string) string, uninstall bool) *ScriptsPlan {
	t.Helper()
	p, err := MakeScripts(a, dir, command, uninstall)
	if err != nil {
		t.Fatal(err)
	}
	p.Root = root
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestScriptsInstallUninstall: install writes one executable per Cline
// event calling `hook cline EVENT`; again changes nothing; a moved binary
// is updated in place; uninstall removes exactly those files (a user's own
// hook stays, so does its folder), and the folders install created that
// are left empty (none without its record of them).
func TestScriptsInstallUninstall(t *testing.T) {
	// The scripts Linux and macOS run, on every system: uninstall removes
	// them on Windows too (TestScriptsNotWrittenOnWindows).
	scriptsFor(t, "linux")
	cline, _ := agents.Lookup("cline")
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, ".clinerules", "hooks")
	p := applyScripts(t, cline, dir, root, command("cline"), false)
	if !p.Changed || !strings.Contains(p.Diff(), "--- /dev/null") {
		t.Fatalf("install changed nothing, or its diff is wrong:\n%s", p.Diff())
	}
	created := p.CreatedDirs
	if want := []string{filepath.Join(root, ".clinerules"), dir}; strings.Join(created, ",") != strings.Join(want, ",") {
		t.Fatalf("created %v, want %v", created, want)
	}
	for _, ev := range cline.HookFile.Events {
		path := filepath.Join(dir, ev)
		checkPerm(t, ev, path, 0o755)
		want := "#!/bin/sh\n# Written by `hermes-hooks install`; `hermes-hooks uninstall` removes it.\nexec '" + bin + "' hook cline " + ev + "\n"
		if got := readFile(t, path); got != want {
			t.Errorf("%s:\n%s\nwant:\n%s", ev, got, want)
		}
	}
	if p, err := MakeScripts(cline, dir, command("cline"), false); err != nil || p.Changed {
		t.Fatalf("second install: changed=%v err=%v", p != nil && p.Changed, err)
	}
	moved := func(ev string) string { return "'/new/hermes-hooks' hook cline " + ev }
	applyScripts(t, cline, dir, root, moved, false)
	if got := readFile(t, filepath.Join(dir, "PreToolUse")); !strings.Contains(got, "exec '/new/hermes-hooks' hook cline PreToolUse\n") {
		t.Errorf("moved binary: %s", got)
	}
	// The user replaced one with their own: not ours though it runs
	// hermes-hooks (no marker line).
	theirs := "#!/bin/sh\nexec '/new/hermes-hooks' hook cline PreCompact\n"
	writeFile(t, filepath.Join(dir, "PreCompact"), theirs)
	p = applyScripts(t, cline, dir, root, moved, true)
	if len(p.RemovedDirs) != 0 {
		t.Errorf("removed %v, which still holds a user's hook", p.RemovedDirs)
	}
	left, _ := os.ReadDir(dir)
	if len(left) != 1 || left[0].Name() != "PreCompact" || readFile(t, filepath.Join(dir, "PreCompact")) != theirs {
		t.Fatalf("uninstall left %v", left)
	}
	os.Remove(filepath.Join(dir, "PreCompact"))
	applyScripts(t, cline, dir, root, command("cline"), false)
	if p = applyScripts(t, cline, dir, root, command("cline"), true); len(p.RemovedDirs) != 0 {
		t.Fatalf("removed %v with no record of what install created", p.RemovedDirs)
	}
	applyScripts(t, cline, dir, root, command("cline"), false)
	p, err = MakeScripts(cline, dir, command("cline"), true)
	if err != nil {
		t.Fatal(err)
	}
	p.Root, p.OwnDirs = root, created
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".clinerules")); !os.IsNotExist(err) || len(p.RemovedDirs) != 2 {
		t.Errorf("uninstall left its folders: %v %v", p.RemovedDirs, err)
	}
}

// TestScriptsInstallRefusesAUsersHook: a file of an event's name that is
// not ours is the user's hook, which Cline runs: install writes nothing,
// and uninstall leaves it, byte for byte.
func TestScriptsInstallRefusesAUsersHook(t *testing.T) {
	scriptsFor(t, "linux")
	cline, _ := agents.Lookup("cline")
	dir := t.TempDir()
	mine := "#!/bin/sh\necho '{\"cancel\":false}'\n"
	for _, body := range []string{mine, string(agents.Script("'/x/hermes-hooks' hook cline PreToolUse")) + "echo extra\n"} {
		writeFile(t, filepath.Join(dir, "PreToolUse"), body)
		if _, err := MakeScripts(cline, dir, command("cline"), false); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "PreToolUse")) {
			t.Errorf("install over a user's hook: err = %v", err)
		}
		p := applyScripts(t, cline, dir, "", command("cline"), true)
		if p.Changed || readFile(t, filepath.Join(dir, "PreToolUse")) != body {
			t.Errorf("uninstall touched a user's hook")
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("install wrote %d files beside a user's hook", len(entries)-1)
	}
}

// TestScriptsNotWrittenOnWindows: install writes no script for Windows,
// where nothing runs one (every call would pass unguarded), and says so;
// uninstall there removes ours, an earlier install's or a folder's
// committed on Linux, and leaves a user's hook.
func TestScriptsNotWrittenOnWindows(t *testing.T) {
	scriptsFor(t, "windows")
	cline, _ := agents.Lookup("cline")
	root := t.TempDir()
	dir := filepath.Join(root, ".clinerules", "hooks")
	if _, err := MakeScripts(cline, dir, command("cline"), false); err == nil || !strings.Contains(err.Error(), "nothing runs on Windows") {
		t.Fatalf("install for Windows: err = %v; want a refusal", err)
	}
	if _, err := os.Lstat(filepath.Join(root, ".clinerules")); !os.IsNotExist(err) {
		t.Fatalf("the refused install made its folder: %v", err)
	}
	mkdir(t, dir)
	theirs := "#!/bin/sh\necho '{}'\n"
	writeFile(t, filepath.Join(dir, "PreCompact"), theirs)
	for _, ev := range []string{"PreToolUse", "TaskStart"} {
		writeFile(t, filepath.Join(dir, ev), string(agents.Script(command("cline")(ev))))
	}
	p := applyScripts(t, cline, dir, root, command("cline"), true)
	if !p.Changed {
		t.Fatal("uninstall on Windows removes nothing")
	}
	left, _ := os.ReadDir(dir)
	if len(left) != 1 || left[0].Name() != "PreCompact" || readFile(t, filepath.Join(dir, "PreCompact")) != theirs {
		t.Errorf("uninstall on Windows left %v", left)
	}
}

// TestMakeRefusesAScriptsLayout: the JSON editor is not for a folder.
func TestMakeRefusesAScriptsLayout(t *testing.T) {
	cline, _ := agents.Lookup("cline")
	if _, err := Make(cline, t.TempDir(), "", command("cline"), false); err == nil {
		t.Error("Make edited a Cline hooks folder as a JSON file")
	}
}
