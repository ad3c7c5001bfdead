package cmdpin

import (
	"slices"
	"strings"
	"testing"
)

// The command-line level of cmd.exe and PowerShell as hook programs: which
// word is the script consent pins, on every system (Wine's PowerShell is a
// stub; winrules_windows_test.go resolves real files under Wine).

func TestCmdArgs(t *testing.T) {
	for _, c := range []struct {
		name   string
		args   string // space-separated words
		inner  []string
		stdin  bool
		opaque string // substring
	}{
		{name: "/c", args: `/c guard.cmd a`, inner: []string{"guard.cmd", "a"}},
		{name: "cmd.exe /d /s /c", args: `/d /s /c C:\h\guard.cmd`, inner: []string{`C:\h\guard.cmd`}},
		{name: "switches in any case", args: `/D /S /C guard.cmd`, inner: []string{"guard.cmd"}},
		{name: "/q /e:on /v:off /a /u /t:0f", args: `/q /e:on /v:off /a /u /t:0f /c g.cmd`, inner: []string{"g.cmd"}},
		{name: "/r is /c", args: `/R g.cmd`, inner: []string{"g.cmd"}},
		{name: "glued /cCOMMAND", args: `/cguard.cmd x`, inner: []string{"guard.cmd", "x"}},
		{name: "glued keeps its case", args: `/CGuard.CMD`, inner: []string{"Guard.CMD"}},
		{name: "Git Bash's //c", args: `//d //c g.cmd`, inner: []string{"g.cmd"}},
		{name: "a program path with spaces", args: "/c\x00C:\\Program Files\\h\\g.exe\x00a", inner: []string{`C:\Program Files\h\g.exe`, "a"}},
		{name: "/c with nothing after it", args: `/c`},
		{name: "no /c: commands from stdin", args: `/d /q`, stdin: true},
		{name: "no arguments: stdin", args: ``, stdin: true},
		{name: "/k goes on reading stdin", args: `/k g.cmd`, stdin: true, opaque: "standard input"},
		{name: "& runs a second command", args: `/c g.cmd & evil.cmd`, opaque: "own syntax"},
		{name: "& glued", args: `/c g.cmd&evil.cmd`, opaque: "own syntax"},
		{name: "pipe", args: `/c type x | evil`, opaque: "own syntax"},
		{name: "redirection", args: `/c g.cmd >out`, opaque: "own syntax"},
		{name: "%VAR% expansion", args: `/c %HOOK%`, opaque: "own syntax"},
		{name: "!VAR! delayed expansion", args: `/v:on /c !HOOK!`, opaque: "own syntax"},
		{name: "caret escape", args: `/c g^.cmd`, opaque: "own syntax"},
		{name: "quotes cmd.exe would strip", args: `/s /c "g.cmd"`, opaque: "own syntax"},
		{name: "parentheses", args: `/c (g.cmd)`, opaque: "own syntax"},
		{name: "an argument with a space", args: "/c\x00g.cmd\x00a b", opaque: "own syntax"},
		{name: "a word before /c", args: `g.cmd /c x`, opaque: "does not take"},
		{name: "an unknown switch", args: `/z /c g.cmd`, opaque: "does not take"},
		{name: "a dash is no switch", args: `-c g.cmd`, opaque: "does not take"},
	} {
		args := splitTestArgs(c.args)
		inner, stdin, opaque := cmdArgs(args)
		if !slices.Equal(inner, c.inner) || stdin != c.stdin || !strings.Contains(opaque, c.opaque) || (c.opaque == "") != (opaque == "") {
			t.Errorf("%s: cmd %q: inner %q stdin %v opaque %q", c.name, args, inner, stdin, opaque)
		}
	}
}

// splitTestArgs splits on NULs when the words hold spaces, else on spaces.
func splitTestArgs(s string) []string {
	if strings.Contains(s, "\x00") {
		return strings.Split(s, "\x00")
	}
	return strings.Fields(s)
}

func TestPowerShellArgs(t *testing.T) {
	for _, c := range []struct {
		name   string
		args   string
		pwsh   bool // pwsh (-File is the default) rather than powershell.exe (-Command is)
		slash  bool // Windows: / starts an option too
		script string
		rest   []string
		loads  []string
		stdin  bool
		opaque string
	}{
		{name: "-File", args: `-File g.ps1 a b`, script: "g.ps1", rest: []string{"a", "b"}},
		{name: "-f", args: `-f g.ps1`, pwsh: true, script: "g.ps1"},
		{name: "any case", args: `-FILE g.ps1`, script: "g.ps1"},
		{name: "a prefix", args: `-Fi g.ps1`, script: "g.ps1"},
		{name: "hidden behind -ExecutionPolicy Bypass", args: `-NoProfile -ExecutionPolicy Bypass -File g.ps1 -x`, script: "g.ps1", rest: []string{"-x"}},
		{name: "-ep and -nop -noni", args: `-nop -noni -ep bypass -w hidden -f g.ps1`, script: "g.ps1"},
		{name: "the script's own -Command is its argument", args: `-File g.ps1 -Command x`, script: "g.ps1", rest: []string{"-Command", "x"}},
		{name: "--file", args: `--file g.ps1`, pwsh: true, script: "g.ps1"},
		{name: "an en dash", args: "\u2013File g.ps1", script: "g.ps1"},
		{name: "/File on Windows", args: `/File g.ps1`, slash: true, script: "g.ps1"},
		{name: "/ is a path elsewhere", args: `/h/g.ps1`, pwsh: true, script: "/h/g.ps1"},
		{name: "pwsh's default is -File", args: `-NoLogo g.ps1 a`, pwsh: true, script: "g.ps1", rest: []string{"a"}},
		{name: "powershell.exe's default is -Command", args: `-NoLogo g.ps1`, opaque: "command text"},
		{name: "-Command", args: `-Command & 'C:\h\g.ps1'`, pwsh: true, opaque: "command text"},
		{name: "-c", args: `-ep Bypass -c g.ps1`, opaque: "command text"},
		{name: "-EncodedCommand", args: `-enc ZQBjAGgAbwA=`, opaque: "command text"},
		{name: "-ec", args: `-ec ZQBjAGgAbwA=`, pwsh: true, opaque: "command text"},
		{name: "-CommandWithArgs", args: `-cwa $args x`, pwsh: true, opaque: "command text"},
		{name: "-Command - reads stdin", args: `-Command -`, stdin: true, opaque: "standard input"},
		{name: "-File - reads stdin", args: `-File -`, pwsh: true, stdin: true, opaque: "standard input"},
		{name: "nothing to run: stdin", args: `-NoProfile -NonInteractive`, stdin: true},
		{name: "-File without a file", args: `-File`, opaque: "without a file"},
		{name: "a value missing", args: `-ExecutionPolicy`, opaque: "no value"},
		{name: "an unknown option", args: `-Frobnicate -File g.ps1`, opaque: "does not know"},
		{name: "an ambiguous prefix", args: `-no -File g.ps1`, opaque: "does not know"},
		{name: "-SettingsFile is pinned", args: `-SettingsFile s.json -File g.ps1`, pwsh: true, script: "g.ps1", loads: []string{"s.json"}},
		{name: "-ConfigurationFile and -PSConsoleFile", args: `-ConfigurationFile c.pssc -PSConsoleFile p.psc1 -File g.ps1`, script: "g.ps1", loads: []string{"c.pssc", "p.psc1"}},
		{name: "pwsh -Version prints it", args: `-Version`, pwsh: true},
		{name: "powershell.exe -Version takes one", args: `-Version 5.1 -File g.ps1`, script: "g.ps1"},
	} {
		args := splitTestArgs(c.args)
		script, rest, loads, stdin, opaque := powerShellArgs(args, c.pwsh, c.slash)
		if script != c.script || !slices.Equal(rest, c.rest) || !slices.Equal(loads, c.loads) || stdin != c.stdin ||
			!strings.Contains(opaque, c.opaque) || (c.opaque == "") != (opaque == "") {
			t.Errorf("%s: %q: script %q rest %q loads %q stdin %v opaque %q", c.name, args, script, rest, loads, stdin, opaque)
		}
	}
}

func TestWinShellKind(t *testing.T) {
	for base, want := range map[string]string{
		"pwsh": "ps", "pwsh.exe": "ps", "PWSH.EXE": "ps", "powershell.exe": "ps", "PowerShell.exe": "ps",
		"cmd.exe": map[bool]string{true: "cmd", false: ""}[onWindows], "CMD.EXE": map[bool]string{true: "cmd", false: ""}[onWindows],
		"bash.exe": "", "cmdx.exe": "", "powershell_ise.exe": "",
	} {
		if got, _ := winShellKind(base); got != want {
			t.Errorf("winShellKind(%q) = %q, want %q", base, got, want)
		}
	}
}

// FuzzWinShellArgs: whatever a repository writes after cmd or PowerShell,
// the parsers do not panic, name a script only as one of the words given
// (its arguments the words after it), and never both name a script and
// call the command opaque.
func FuzzWinShellArgs(f *testing.F) {
	for _, s := range []string{
		"/d\x00/s\x00/c\x00g.cmd", "/cg.cmd", "//c\x00x&y", "-ExecutionPolicy\x00Bypass\x00-File\x00g.ps1\x00a",
		"-Command\x00-", "\u2013f\x00x.ps1", "-nop\x00g.ps1", "/File\x00g.ps1", "-SettingsFile\x00s\x00-f", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := strings.Split(s, "\x00")
		inner, _, opaque := cmdArgs(args)
		if opaque != "" && inner != nil {
			t.Fatalf("cmd %q: inner %q and opaque %q", args, inner, opaque)
		}
		for _, w := range inner {
			if strings.ContainsAny(w, "&|<>^%!()\"\r\n") {
				t.Fatalf("cmd %q: inner word %q holds cmd.exe syntax", args, w)
			}
		}
		for _, pwsh := range []bool{false, true} {
			script, rest, _, _, opaque := powerShellArgs(args, pwsh, true)
			if script == "" {
				continue
			}
			if opaque != "" {
				t.Fatalf("ps %q: script %q and opaque %q", args, script, opaque)
			}
			i := len(args) - len(rest) - 1
			if i < 0 || args[i] != script || !slices.Equal(args[i+1:], rest) {
				t.Fatalf("ps %q: script %q rest %q are not its words", args, script, rest)
			}
		}
	})
}
