package consent

import (
	"encoding/json"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// What the tests need to say the same thing on every system: the Unix
// spellings where they are what a user writes, the Windows ones there
// (make test-windows runs this package under Wine).

// viaInterpreter is a command that hands script to an interpreter found on
// the system's own PATH: bash on Unix, cmd.exe on Windows (which has no
// bash; consent pins the script behind cmd /c as behind bash).
func viaInterpreter(script string) string {
	if runtime.GOOS == "windows" {
		return "cmd /c " + script
	}
	return "bash " + script
}

// rooted makes a Unix absolute path ("/nonexistent/hook.sh") absolute on
// this system too (C:\nonexistent\hook.sh on Windows).
func rooted(p string) string {
	if runtime.GOOS == "windows" {
		return `C:` + filepath.FromSlash(p)
	}
	return p
}

// setHome makes dir the home directory a hook's ~ names: $HOME, and on
// Windows %USERPROFILE%, which is what ~ is there.
func setHome(t *testing.T, dir string) {
	t.Setenv("HOME", dir)
	if runtime.GOOS == "windows" {
		t.Setenv("USERPROFILE", dir)
	}
}

// closeVerdict releases the files a verdict pinned when the test ends:
// Windows removes no open file (nor the test's directory).
func closeVerdict(t *testing.T, v Verdict) Verdict {
	t.Cleanup(v.Pins.Close)
	return v
}

// skipModesOnWindows: Windows keeps ACLs, not Unix mode bits (Wine maps
// its ACLs to modes), so a mode check says nothing there.
func skipModesOnWindows(t *testing.T) bool {
	if runtime.GOOS == "windows" {
		t.Log("mode bits not checked: Windows keeps ACLs, not Unix modes")
		return true
	}
	return false
}

// withRooted puts rooted(p), as JSON writes it, for each "p" in want.
func withRooted(want string, paths ...string) string {
	for _, p := range paths {
		q, _ := json.Marshal(rooted(p))
		want = strings.ReplaceAll(want, `"`+p+`"`, string(q))
	}
	return want
}

// withGitBash adds, on Windows, the Git Bash that Claude-dialect shell
// commands run through there (CLAUDE_CODE_GIT_BASH_PATH) to vars: an empty
// stand-in file, since Wine has no Git Bash and resolving a command only
// needs the shell to exist.
func withGitBash(t *testing.T, vars map[string]string) map[string]string {
	if runtime.GOOS == "windows" {
		bash := filepath.Join(t.TempDir(), "bash.exe")
		writeFile(t, bash, "", 0o755)
		vars["CLAUDE_CODE_GIT_BASH_PATH"] = bash
	}
	return vars
}
