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

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
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
		out, err := proctest.OutputRetrying(t, func() *exec.Cmd {
			cmd := exec.Command(got.Path)
			cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: got.CmdLine}
			cmd.Dir = dir
			return cmd
		})
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

// TestResolveWindowsShells: a script named to cmd.exe, PowerShell, the
// Python launcher or bash is what consent pins, however the shell's options
// are written (issue 33, item 2).
func TestResolveWindowsShells(t *testing.T) {
	bin := t.TempDir()
	for _, name := range []string{"cmd.exe", "pwsh.exe", "powershell.exe", "py.exe", "python.exe", "bash.exe", "onpath.cmd"} {
		writeWinFile(t, filepath.Join(bin, name), "MZ")
	}
	proj := t.TempDir()
	guard := writeWinFile(t, filepath.Join(proj, "guard.cmd"), "@echo off\r\n")
	ps1 := writeWinFile(t, filepath.Join(proj, "guard.ps1"), "exit 0\r\n")
	py := writeWinFile(t, filepath.Join(proj, "guard.py"), "print(1)\r\n")
	sh := writeWinFile(t, filepath.Join(proj, "guard.sh"), "exit 0\n")
	settings := filepath.Join(proj, "s.json")
	env := []string{"Path=" + bin, "PathExt=.EXE;.CMD", "ComSpec=" + filepath.Join(bin, "cmd.exe")}
	for _, c := range []struct {
		cmd      string
		files    []string
		optional []string
		opaque   string
	}{
		{cmd: `cmd /c guard.cmd a`, files: []string{guard}},
		{cmd: `cmd.exe /d /s /c ` + guard, files: []string{guard}},
		{cmd: `CMD /D /C .\guard.cmd`, files: []string{guard}},
		{cmd: `cmd /c guard`, files: []string{guard}},
		{cmd: `cmd /c call guard.cmd`, files: []string{guard}},
		// cmd.exe looks in the current directory first: a file
		// appearing there later would run instead, so it is pinned as
		// missing.
		{cmd: `cmd /c onpath`, files: []string{filepath.Join(bin, "onpath.cmd"), filepath.Join(proj, "onpath.exe"), filepath.Join(proj, "onpath.cmd")},
			optional: []string{filepath.Join(proj, "onpath.exe"), filepath.Join(proj, "onpath.cmd")}},
		{cmd: `cmd /c powershell -File guard.ps1`, files: []string{ps1, filepath.Join(proj, "powershell.exe"), filepath.Join(proj, "powershell.cmd")},
			optional: []string{filepath.Join(proj, "powershell.exe"), filepath.Join(proj, "powershell.cmd")}},
		{cmd: `cmd /c nothere`, opaque: "not a file here or on PATH"},
		{cmd: `cmd /c echo hi`},
		{cmd: `cmd /c start guard.cmd`, opaque: "built-in start"},
		{cmd: `cmd /c "guard.cmd & evil.cmd"`, opaque: "own syntax"},
		{cmd: `powershell -ExecutionPolicy Bypass -File guard.ps1`, files: []string{ps1}},
		{cmd: `POWERSHELL.EXE -NOP -FILE guard.ps1 -x`, files: []string{ps1}},
		{cmd: `pwsh -f guard.ps1`, files: []string{ps1}},
		{cmd: `pwsh guard.ps1`, files: []string{ps1}},
		{cmd: `pwsh /SettingsFile s.json /File guard.ps1`, files: []string{ps1, settings}},
		{cmd: `powershell -ExecutionPolicy Bypass -Command "& .\guard.ps1"`, opaque: "-Command"},
		{cmd: `powershell guard.ps1`, opaque: "-Command"},
		{cmd: `py guard.py`, files: []string{py}},
		{cmd: `py -3 guard.py`, files: []string{py}},
		{cmd: `py -3.12 -u guard.py`, files: []string{py}},
		{cmd: `python.exe guard.py`, files: []string{py}},
		{cmd: `Python guard.py`, files: []string{py}},
		{cmd: `py -m guard`, opaque: "python -m"},
		{cmd: `bash guard.sh`, files: []string{sh}},
		{cmd: `bash.exe -e guard.sh`, files: []string{sh}},
	} {
		got := Resolve(Command{Text: c.cmd, Env: env, Dir: proj})
		if got.Err != "" || !slices.Equal(got.Files, c.files) || !slices.Equal(got.Optional, c.optional) ||
			!strings.Contains(got.Opaque, c.opaque) || (c.opaque == "") != (got.Opaque == "") {
			t.Errorf("%s:\n files %q optional %q opaque %q err %q\n want %q %q %q", c.cmd, got.Files, got.Optional, got.Opaque, got.Err, c.files, c.optional, c.opaque)
		}
	}
}

// TestPinnedScriptSwappedBehindAShell: a script named to cmd.exe or
// PowerShell, replaced (by a rename, keeping size and time) between the
// consent check and the start, fails Verify: the replacement never runs.
// Where the system refuses the rename while the script is pinned open,
// there is no swap to catch.
func TestPinnedScriptSwappedBehindAShell(t *testing.T) {
	bin := t.TempDir()
	writeWinFile(t, filepath.Join(bin, "cmd.exe"), "MZ")
	writeWinFile(t, filepath.Join(bin, "powershell.exe"), "MZ")
	proj := t.TempDir()
	env := []string{"Path=" + bin, "PathExt=.EXE;.CMD"}
	for _, c := range []struct{ cmd, file, evil string }{
		{`cmd /d /s /c guard.cmd`, "guard.cmd", "@echo evil\r\n"},
		{`powershell -ExecutionPolicy Bypass -File guard.ps1`, "guard.ps1", "iex evil\r\n"},
	} {
		p := writeWinFile(t, filepath.Join(proj, c.file), "@echo good\r\n"[:len(c.evil)])
		tgt := Resolve(Command{Text: c.cmd, Env: env, Dir: proj})
		if tgt.Primary() != p {
			t.Fatalf("%s: %+v", c.cmd, tgt)
		}
		pins := Pin(&tgt, nil)
		t.Cleanup(pins.Close)
		if err := pins.Verify(); err != nil {
			t.Fatalf("%s: unchanged: %v", c.cmd, err)
		}
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		evil := writeWinFile(t, filepath.Join(proj, "evil.tmp"), c.evil)
		if err := os.Chtimes(evil, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(evil, p); err != nil {
			// Without POSIX-semantics renames (Wine, FAT) the system
			// refuses to replace a file that is open: no swap while
			// pinned.
			t.Logf("%s: the system refuses the swap while the script is pinned: %v", c.cmd, err)
			if err := pins.Verify(); err != nil {
				t.Errorf("%s: %v", c.cmd, err)
			}
			continue
		}
		if err := pins.Verify(); err == nil {
			t.Errorf("%s: the swapped script passes Verify", c.cmd)
		}
	}
}
