package consent

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// G67: the script-path resolution table of the Hermes reference, exactly.
func TestG67_ScriptPathResolution(t *testing.T) {
	for _, tc := range []struct{ command, want string }{
		{"/path/hook.sh", "/path/hook.sh"},
		{"/bin/echo hi", "/bin/echo"},
		{"~/hook.sh", "~/hook.sh"},
		{"hook.sh", "hook.sh"},
		{"python3 /path/hook.py", "/path/hook.py"},
		{"bash /path/hook.sh", "/path/hook.sh"},
		{"bash ~/hook.sh", "~/hook.sh"},
		{"python3 -u /path/hook.py", "/path/hook.py"},
		{"nice -n 10 /path/hook.sh", "/path/hook.sh"},
		{"/usr/bin/env python3 /path/hook.py", "/path/hook.py"},
		{"/usr/bin/env bash /path/hook.sh", "/path/hook.sh"},
		{"my-binary --verbose", "my-binary"},
		{"python3 -c 'print(1)'", "python3"},
		{"python3 'unterminated", "python3 'unterminated"},
		{"", ""},
	} {
		if runtime.GOOS == "windows" && strings.Contains(tc.command, "'") {
			continue // POSIX quoting: Windows splits by CommandLineToArgvW (script_windows_test.go)
		}
		if got := scriptPath(tc.command); got != tc.want {
			t.Errorf("scriptPath(%q) = %q, want %q", tc.command, got, tc.want)
		}
	}
}

// Beyond the pinned table: extensions match in any case, quoting is
// removed, and extensions beat paths.
func TestScriptPath_More(t *testing.T) {
	for _, tc := range []struct{ command, want string }{
		{"node /opt/x/HOOK.JS", "/opt/x/HOOK.JS"},
		{"deno run hooks/check.ts", "hooks/check.ts"},
		{"'/path with space/hook.sh' --x", "/path with space/hook.sh"},
		{`"/path with space/hook.sh" --x`, "/path with space/hook.sh"},
		{"/usr/bin/ruby tool.rb", "tool.rb"},
		{`"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh`, "$CLAUDE_PROJECT_DIR/.claude/hooks/check.sh"},
		{"   ", "   "},
	} {
		if runtime.GOOS == "windows" && strings.Contains(tc.command, "'") {
			continue // POSIX quoting: see script_windows_test.go
		}
		if got := scriptPath(tc.command); got != tc.want {
			t.Errorf("scriptPath(%q) = %q, want %q", tc.command, got, tc.want)
		}
	}
}

func TestScriptFile(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", rooted("/home/env"))
	vars := map[string]string{"CLAUDE_PROJECT_DIR": rooted("/proj"), "HOME": rooted("/home/vars")}
	for _, tc := range []struct {
		command string
		vars    map[string]string
		dir     string
		want    string
	}{
		{"~/hook.sh", nil, "", "/home/env/hook.sh"},
		{"~/hook.sh", vars, "", "/home/vars/hook.sh"},
		{"~", nil, "", "/home/env"},
		{"~other/hook.sh", nil, "/d", "/d/~other/hook.sh"},
		{`"$CLAUDE_PROJECT_DIR"/.claude/hooks/a.sh`, vars, "", "/proj/.claude/hooks/a.sh"},
		{"${CLAUDE_PROJECT_DIR}/.claude/hooks/a.sh", vars, "", "/proj/.claude/hooks/a.sh"},
		{"$CLAUDE_PROJECT_DIRX/a.sh", vars, "/d", "/d/$CLAUDE_PROJECT_DIRX/a.sh"},
		{"$OTHER/a.sh", vars, "/d", "/d/$OTHER/a.sh"},
		{"${OTHER}/a.sh", vars, "/d", "/d/${OTHER}/a.sh"},
		{"bash hooks/a.sh", nil, "/d", "/d/hooks/a.sh"},
		{"bash hooks/a.sh", nil, "", filepath.Join(wd, "hooks/a.sh")},
		{"", nil, "/d", ""},
	} {
		if strings.HasPrefix(tc.dir, "/") {
			tc.dir = rooted(tc.dir)
		}
		if strings.HasPrefix(tc.want, "/") {
			tc.want = rooted(tc.want)
		}
		// Compared as paths: on Windows "~/hook.sh" keeps its slash after
		// the home directory's backslashes.
		if got := scriptFile(tc.command, tc.vars, tc.dir); filepath.Clean(got) != filepath.Clean(tc.want) {
			t.Errorf("scriptFile(%q, %v, %q) = %q, want %q", tc.command, tc.vars, tc.dir, got, tc.want)
		}
	}
}

// G66: an interpreter-prefixed script only needs to be readable; a script
// run directly needs its execute bit.
func TestG66_ExecutableCheck(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "hook.py")
	writeFile(t, script, "print('{}')\n", 0o644)
	for _, tc := range []struct {
		command string
		want    bool
	}{
		{"python3 " + script, true},
		{"/usr/bin/env python3 " + script, true},
		{script, false},
	} {
		if got := executable(tc.command, nil, ""); got != tc.want {
			t.Errorf("executable(%q) = %v, want %v (mode 0644)", tc.command, got, tc.want)
		}
	}
	if runtime.GOOS == "windows" {
		// No execute bit: a file is a program by its extension
		// (PATHEXT), which hook.py's is not, whatever its mode.
		program := filepath.Join(dir, "hook.cmd")
		writeFile(t, program, "@echo {}\r\n", 0o644)
		if !executable(program, nil, "") {
			t.Errorf("executable(%q) = false", program)
		}
	} else {
		if err := os.Chmod(script, 0o755); err != nil {
			t.Fatal(err)
		}
		if !executable(script, nil, "") {
			t.Errorf("executable(%q) = false after chmod 755", script)
		}
	}

	// Missing files, directories and PATH-only commands are not executable.
	for _, command := range []string{
		filepath.Join(dir, "missing.sh"), "python3 " + filepath.Join(dir, "missing.py"), "bash " + dir + "/", "my-binary --verbose", "",
	} {
		if executable(command, nil, dir) {
			t.Errorf("executable(%q) = true", command)
		}
	}
	// A bare command is found relative to the directory, as in Hermes.
	binary := "my-binary"
	if runtime.GOOS == "windows" {
		binary += ".cmd" // PATHEXT's, not an execute bit
	}
	writeFile(t, filepath.Join(dir, binary), "#!/bin/sh\n", 0o755)
	if !executable(binary+" --verbose", nil, dir) {
		t.Error(binary + " in dir not executable")
	}
	// A leading ~ is expanded.
	if !executable("python3 ~/hook.py", map[string]string{"HOME": dir}, "") {
		t.Error("~/hook.py not found")
	}
}
