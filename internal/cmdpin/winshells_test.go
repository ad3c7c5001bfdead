package cmdpin

import (
	"slices"
	"testing"
)

// Command-line level tests of the Windows shells (Wine has no Git Bash and
// only a stub PowerShell): the file system is a set of paths.

func files(paths ...string) func(string) bool {
	return func(p string) bool { return slices.Contains(paths, p) }
}

func onPath(progs map[string]string) func(string) (string, bool) {
	return func(name string) (string, bool) { p, ok := progs[name]; return p, ok }
}

func TestGitBashPath(t *testing.T) {
	const pf = `C:\Program Files\Git\bin\bash.exe`
	for _, c := range []struct {
		name    string
		env     []string
		files   []string
		path    map[string]string
		want    string
		wantErr bool
	}{
		{"the variable wins", []string{gitBashVar + `=D:\tools\bash.exe`}, []string{`D:\tools\bash.exe`, pf}, nil, `D:\tools\bash.exe`, false},
		{"a variable naming nothing is an error", []string{gitBashVar + `=D:\nope.exe`}, []string{pf}, nil, "", true},
		{"ProgramFiles", []string{"ProgramFiles=E:\\Apps"}, []string{`E:\Apps\Git\bin\bash.exe`}, nil, `E:\Apps\Git\bin\bash.exe`, false},
		{"next to git on PATH", nil, []string{`D:\Git\bin\bash.exe`, pf}, map[string]string{"git": `D:\Git\cmd\git.exe`}, `D:\Git\bin\bash.exe`, false},
		{"git in mingw64\\bin", nil, []string{`D:\Git\bin\bash.exe`}, map[string]string{"git": `D:\Git\mingw64\bin\git.exe`}, `D:\Git\bin\bash.exe`, false},
		{"the usual install directory", nil, []string{pf}, nil, pf, false},
		{"per-user install", []string{`LOCALAPPDATA=C:\Users\me\AppData\Local`}, []string{`C:\Users\me\AppData\Local\Programs\Git\bin\bash.exe`}, nil, `C:\Users\me\AppData\Local\Programs\Git\bin\bash.exe`, false},
		{"none: an error that says what to do", nil, nil, nil, "", true},
	} {
		got, err := GitBashPath(func(k string) (string, bool) { return Getenv(c.env, k) }, files(c.files...), onPath(c.path))
		if got != c.want || (err != "") != c.wantErr {
			t.Errorf("%s: %q, %q", c.name, got, err)
		}
	}
}

func TestPowerShellCommandLines(t *testing.T) {
	if p, _ := powerShell(onPath(map[string]string{"pwsh": `C:\PS7\pwsh.exe`, "powershell": `C:\W\powershell.exe`})); p != `C:\PS7\pwsh.exe` {
		t.Errorf("pwsh first: %q", p)
	}
	if p, _ := powerShell(onPath(map[string]string{"powershell": `C:\W\powershell.exe`})); p != `C:\W\powershell.exe` {
		t.Errorf("else powershell.exe: %q", p)
	}
	if _, err := powerShell(onPath(nil)); err == "" {
		t.Error("no PowerShell: no error")
	}
	got := powerShellFileArgv(`C:\PS7\pwsh.exe`, `C:\h\guard.ps1`, []string{"a b"})
	want := []string{`C:\PS7\pwsh.exe`, "-NoLogo", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File", `C:\h\guard.ps1`, "a b"}
	if !slices.Equal(got, want) {
		t.Errorf("-File: %q", got)
	}
	got = powerShellCommandArgv("pwsh", `& 'C:\h\g.ps1'`)
	if !slices.Equal(got, []string{"pwsh", "-NoLogo", "-NoProfile", "-NonInteractive", "-Command", `& 'C:\h\g.ps1'`}) {
		t.Errorf("-Command: %q", got)
	}
	for name, want := range map[string]bool{`x.ps1`: true, `X.PS1`: true, `x.ps1.txt`: false, `x.cmd`: false} {
		if isPowerShellScript(name) != want {
			t.Errorf("isPowerShellScript(%q)", name)
		}
	}
}

func TestWinDir(t *testing.T) {
	for in, want := range map[string]string{`C:\a\b.exe`: `C:\a`, `C:\a`: `C:\`, `C:\`: `C:\`, `a`: ``, `D:/x/y`: `D:/x`} {
		if got := winDir(in); got != want {
			t.Errorf("winDir(%q) = %q, want %q", in, got, want)
		}
	}
}
