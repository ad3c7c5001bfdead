//go:build windows

package consent

import "testing"

// On Windows a command is split as a Windows program splits its line:
// double quotes only, and a backslash is a path's.
func TestScriptPath_Windows(t *testing.T) {
	for _, tc := range []struct{ command, want string }{
		{`C:\hooks\guard.exe --x`, `C:\hooks\guard.exe`},
		{`"C:\Program Files\h\hook.ps1" a`, `C:\Program Files\h\hook.ps1`},
		{`cmd /c C:\h\g.cmd`, `C:\h\g.cmd`},
		{`py -3 hooks\g.py`, `hooks\g.py`},
		{`python3 'unterminated`, `python3`},
		{`tool ~\h.cmd`, `~\h.cmd`},
	} {
		if got := scriptPath(tc.command); got != tc.want {
			t.Errorf("scriptPath(%q) = %q, want %q", tc.command, got, tc.want)
		}
	}
}
