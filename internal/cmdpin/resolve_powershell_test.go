package cmdpin

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// Claude's shell: "powershell": the text runs through pwsh, else
// powershell.exe, found on the hook's PATH; none there is a clear error,
// not a silent fall back to another shell; the text is approved as is,
// with a Spec that tells it from the same text run by sh or bash.
func TestResolvePowerShell(t *testing.T) {
	prog := func(dir, name string) string {
		if runtime.GOOS == "windows" {
			name += ".cmd" // PATHEXT makes it a program there
		}
		p := filepath.Join(dir, name)
		writeFile(t, p, "#!/bin/sh\n", 0o755)
		return p
	}
	both, onlyWin, none := t.TempDir(), t.TempDir(), t.TempDir()
	pwsh := prog(both, "pwsh")
	prog(both, "powershell")
	winPS := prog(onlyWin, "powershell")
	const text = `Write-Output "hi"; exit 2`
	for _, tc := range []struct {
		name, path, want, err string
	}{
		{"pwsh first", both, pwsh, ""},
		{"else powershell", onlyWin, winPS, ""},
		{"neither", none, "", "PowerShell not found"},
	} {
		got := Resolve(Command{Text: text, Shell: true, ShellPath: PowerShellShell, Env: []string{"PATH=" + tc.path}, Dir: t.TempDir()})
		if tc.err != "" {
			if !strings.Contains(got.Err, tc.err) || got.Shell || got.Spec != PowerShellSpec {
				t.Errorf("%s: %+v, want the error %q", tc.name, got, tc.err)
			}
			if runtime.GOOS != "windows" && !strings.Contains(got.Err, `shell: "powershell" runs pwsh, which is not on PATH`) {
				t.Errorf("%s: error %q does not say what is missing", tc.name, got.Err)
			}
			continue
		}
		if got.Err != "" || !got.Shell || !got.PowerShell || got.ShellPath != tc.want || got.Opaque == "" || got.Spec != PowerShellSpec || len(got.Files) != 0 {
			t.Errorf("%s: %+v", tc.name, got)
		}
		want := []string{tc.want, "-NoLogo", "-NoProfile", "-NonInteractive", "-Command", text}
		if argv := ShellArgv(got, text); !slices.Equal(argv, want) {
			t.Errorf("%s: argv %q, want %q", tc.name, argv, want)
		}
	}
	if got := Resolve(Command{Text: "  ", Shell: true, ShellPath: PowerShellShell, Env: []string{"PATH=" + both}}); got.Err != "empty command" {
		t.Errorf("empty: %+v", got)
	}
	// The POSIX shell's argv is unchanged.
	if argv := ShellArgv(Target{Shell: true, ShellPath: "/bin/sh"}, "echo hi"); !slices.Equal(argv, []string{"/bin/sh", "-c", "echo hi"}) {
		t.Errorf("sh argv %q", argv)
	}
}
