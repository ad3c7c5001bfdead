//go:build !windows

// The POSIX rules (shlex words, execute bits, #! lines, /bin/sh); the
// Windows rules are tested in winrules_windows_test.go.

package cmdpin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// StartProblem gives one verdict, with the reason a user can act on, for
// every way a hook's script cannot start.
func TestStartProblem(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name   string
		target Target
		want   string // "" for none; else a substring
	}{
		{"runs", Target{Path: write("ok.sh", "#!/bin/sh\necho hi\n", 0o755), Files: []string{filepath.Join(dir, "ok.sh")}, Direct: true}, ""},
		{"missing", Target{Path: filepath.Join(dir, "gone.sh"), Files: []string{filepath.Join(dir, "gone.sh")}, Direct: true}, "gone.sh: no such file"},
		{"not executable", Target{Path: write("noexec.sh", "#!/bin/sh\n", 0o644), Files: []string{filepath.Join(dir, "noexec.sh")}, Direct: true}, "not executable (chmod +x "},
		{"crlf", Target{Path: write("crlf.sh", "#!/bin/sh\r\necho hi\r\n", 0o755), Files: []string{filepath.Join(dir, "crlf.sh")}, Direct: true}, "CRLF line endings: the kernel looks for the interpreter `/bin/sh\\r`"},
		{"crlf env", Target{Path: write("crlf.py", "#!/usr/bin/env python3\r\n", 0o755), Files: []string{filepath.Join(dir, "crlf.py")}, Direct: true}, "/usr/bin/env is handed `python3\\r`"},
		{"bad interpreter", Target{Path: write("bad.sh", "#!/no/such/shell\n", 0o755), Files: []string{filepath.Join(dir, "bad.sh")}, Direct: true}, "bad interpreter: /no/such/shell: no such file"},
		{"handed to an interpreter, not executable", Target{Path: "/bin/sh", Files: []string{write("plain.sh", "echo hi\n", 0o644)}, ScriptArg: 1}, ""},
		{"command not found", Target{Err: "command not found"}, "command not found"},
		{"a bare command", Target{Path: "/bin/sh"}, ""},
	} {
		got := c.target.StartProblem()
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: StartProblem() = %q, want %q", c.name, got, c.want)
		}
	}
}

// NoLauncher: a file the kernel starts with neither a #! line nor a
// program's magic fails with exec format error; a program, a script, one
// handed to an interpreter, one the shell runs are fine.
func TestNoLauncher(t *testing.T) {
	if onWindows {
		t.Skip("Windows reads no #! line")
	}
	dir := t.TempDir()
	direct := func(name, content string) Target {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
		return Target{Path: p, Files: []string{p}, Direct: true}
	}
	elf, err := os.ReadFile("/bin/sh")
	if err != nil {
		t.Skip(err)
	}
	shell := direct("shell.sh", "echo hi\n")
	shell.Shell = true
	for _, c := range []struct {
		name   string
		target Target
		want   bool
	}{
		{"no #! line", direct("plain.sh", "echo hi\n"), true},
		{"empty", direct("empty.sh", ""), true},
		{"a BOM before #!", direct("bom.sh", "\xef\xbb\xbf#!/bin/sh\necho hi\n"), true},
		{"a #! line", direct("ok.sh", "#!/bin/sh\necho hi\n"), false},
		{"a program", direct("prog", string(elf[:64])), false},
		{"handed to an interpreter", Target{Path: "/bin/sh", Files: []string{filepath.Join(dir, "plain.sh")}, ScriptArg: 1}, false},
		{"run by the shell", shell, false},
		{"missing (StartProblem's)", Target{Path: filepath.Join(dir, "gone"), Files: []string{filepath.Join(dir, "gone")}, Direct: true}, false},
	} {
		got := c.target.NoLauncher()
		if (got != "") != c.want || c.want && !strings.Contains(got, "#! line") {
			t.Errorf("%s: NoLauncher() = %q", c.name, got)
		}
	}
}
