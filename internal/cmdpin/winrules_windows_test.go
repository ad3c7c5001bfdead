//go:build windows

package cmdpin

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/windows"
)

// The Windows rules, on Windows (make test-windows runs them under Wine).

// TestSplitWindowsArgsAgreesWithTheSystem: splitWindowsArgs reads a line
// as the system's CommandLineToArgvW does.
func TestSplitWindowsArgsAgreesWithTheSystem(t *testing.T) {
	for _, line := range []string{
		`C:\hooks\guard.exe --x`, `"C:\Program Files\h\guard.exe" a`, `C:\dir\ a`,
		`p a\b c\\d`, `p "a b" c`, `p a\"b`, `p a\\"b c"`, `p a\\\"b`, `p "" x`,
		`p "C:\dir\\"`, "p\ta\t\tb", `p 'a b'`,
	} {
		want, err := windows.DecomposeCommandLine(line)
		if err != nil {
			t.Fatal(err)
		}
		if got := splitWindowsArgs(line); !slices.Equal(got, want) {
			t.Errorf("splitWindowsArgs(%q) = %q, CommandLineToArgvW says %q", line, got, want)
		}
	}
}

func writeWinFile(t *testing.T, p, content string) string {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestResolveWindows(t *testing.T) {
	bin := t.TempDir()
	exe := writeWinFile(t, filepath.Join(bin, "tool.exe"), "MZ")
	guard := writeWinFile(t, filepath.Join(bin, "guard.cmd"), "@echo off\r\necho guard %1\r\n")
	writeWinFile(t, filepath.Join(bin, "notes.txt"), "text")
	home := t.TempDir()
	homeHook := writeWinFile(t, filepath.Join(home, "h.cmd"), "@echo off\r\n")
	comspec := os.Getenv("COMSPEC")
	// The environment's case is Windows': Path, not PATH.
	env := []string{"Path=" + bin, "PathExt=.EXE;.CMD", "UserProfile=" + home, "ComSpec=" + comspec}

	t.Run("PATH lookup appends PATHEXT's extensions", func(t *testing.T) {
		got := Resolve(Command{Text: `tool --x C:\dir\file`, Env: env, Dir: home})
		if got.Err != "" || !strings.EqualFold(got.Path, exe) || !slices.Equal(got.Argv, []string{"tool", "--x", `C:\dir\file`}) ||
			got.CmdLine != "" || got.StartProblem() != "" {
			t.Fatalf("%+v", got)
		}
	})
	t.Run("a path with backslashes and a drive letter is taken as written", func(t *testing.T) {
		got := Resolve(Command{Text: `"` + exe + `" a`, Env: env, Dir: home})
		if got.Path != exe || got.Primary() != exe || !got.Direct || got.StartProblem() != "" {
			t.Fatalf("%+v", got)
		}
	})
	t.Run("a file whose extension is not in PATHEXT is no program", func(t *testing.T) {
		if got := Resolve(Command{Text: "notes", Env: env, Dir: home}); got.Err != "command not found" {
			t.Fatalf("%+v", got)
		}
		p := filepath.Join(bin, "notes.txt")
		got := Resolve(Command{Text: p, Env: env, Dir: home})
		if prob := got.StartProblem(); !strings.Contains(prob, "not a program Windows starts") {
			t.Fatalf("%q %+v", prob, got)
		}
	})
	t.Run("a batch file runs through cmd.exe /d /s /c, pinned as the script", func(t *testing.T) {
		got := Resolve(Command{Text: `guard "a b" x&y`, Env: env, Dir: home})
		want := `"` + comspec + `" /d /s /c ""` + guard + `" "a b" "x&y""`
		if got.Err != "" || got.Path != comspec || got.CmdLine != want || got.Primary() != guard || got.Direct {
			t.Fatalf("%+v\nwant CmdLine %s", got, want)
		}
		if got.StartProblem() != "" {
			t.Fatal(got.StartProblem())
		}
	})
	t.Run("~ is USERPROFILE", func(t *testing.T) {
		got := Resolve(Command{Text: `~\h.cmd`, Env: env, Dir: bin})
		if got.Primary() != homeHook || got.Err != "" {
			t.Fatalf("%+v", got)
		}
	})
	t.Run("a .ps1 file runs through pwsh -File", func(t *testing.T) {
		pwsh := writeWinFile(t, filepath.Join(bin, "pwsh.exe"), "MZ")
		defer os.Remove(pwsh)
		script := writeWinFile(t, filepath.Join(home, "guard.ps1"), "exit 0\r\n")
		got := Resolve(Command{Text: script + " a", Env: env, Dir: home})
		if got.Err != "" || !strings.EqualFold(got.Path, pwsh) || got.Primary() != script || got.Direct ||
			!slices.Equal(got.Argv[len(got.Argv)-3:], []string{"-File", script, "a"}) || got.StartProblem() != "" {
			t.Fatalf("%+v", got)
		}
	})
	t.Run("Claude-dialect shell commands run through Git Bash", func(t *testing.T) {
		got := Resolve(Command{Text: "echo hi", Shell: true, Env: env, Dir: home})
		if !strings.Contains(got.Err, "Git Bash not found") || !strings.Contains(got.Err, gitBashVar) {
			t.Fatalf("without Git Bash: %+v", got)
		}
		bash := writeWinFile(t, filepath.Join(home, "bash.exe"), "MZ")
		got = Resolve(Command{Text: "echo hi", Shell: true, Env: append(env, gitBashVar+"="+bash), Dir: home})
		if got.Err != "" || !got.Shell || got.ShellPath != bash {
			t.Fatalf("with %s: %+v", gitBashVar, got)
		}
	})
	t.Run("a batch argument cmd.exe would read as syntax is refused", func(t *testing.T) {
		for _, text := range []string{`guard %PATH%`, `guard "x\" & echo pwned"`, `guard !x!`} {
			got := Resolve(Command{Text: text, Env: env, Dir: home})
			if !strings.Contains(got.Err, "cannot be passed to a batch file safely") {
				t.Errorf("%s: %+v", text, got)
			}
		}
	})
}

// TestBatchArgumentsStayArguments is the attack regression: a hostile
// payload in a batch file's arguments, run by the real cmd.exe, arrives as
// one argument and runs nothing.
func TestBatchArgumentsStayArguments(t *testing.T) {
	dir := t.TempDir()
	guard := writeWinFile(t, filepath.Join(dir, "guard.cmd"), "@echo off\r\necho [%1]\r\n")
	pwned := filepath.Join(dir, "pwned.txt")
	env := []string{"Path=" + os.Getenv("PATH"), "ComSpec=" + os.Getenv("COMSPEC")}
	for _, payload := range []string{
		`a&echo x>` + pwned, `a|echo x>` + pwned, `(echo x)>` + pwned, `a^&echo x>` + pwned,
	} {
		got := Resolve(Command{Argv: []string{guard, payload}, Env: env, Dir: dir})
		if got.Err != "" {
			t.Fatalf("%q: %+v", payload, got)
		}
		cmd := exec.Command(got.Path)
		cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: got.CmdLine}
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%q: %v %s", payload, err, out)
		}
		if strings.TrimSpace(string(out)) != `["`+payload+`"]` {
			t.Errorf("%q: the batch file saw %q", payload, out)
		}
		if _, err := os.Stat(pwned); err == nil {
			t.Fatalf("%q ran a command", payload)
		}
	}
	for _, payload := range []string{`"&echo x>` + pwned + `&"`, `%COMSPEC%`, "a\r\necho x>" + pwned} {
		if got := Resolve(Command{Argv: []string{guard, payload}, Env: env, Dir: dir}); !strings.Contains(got.Err, "batch file safely") {
			t.Errorf("%q: %+v", payload, got)
		}
	}
}
