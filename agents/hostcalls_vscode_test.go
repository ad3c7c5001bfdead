package agents

import (
	"encoding/json"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// vscodeGenuine is the PreToolUse handler `install copilot` writes for
// the program exe (winExe in its PowerShell line; "" both: the PATH form),
// as a JSON object's members (without the braces), so that a case can add
// to it or change it.
func vscodeGenuine(t *testing.T, exe, winExe string) string {
	t.Helper()
	copilot, _ := Lookup("copilot")
	ps, err := copilot.WindowsHookCommand(winExe, "PreToolUse")
	if err != nil {
		t.Fatal(err)
	}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	return `"type":"command","command":` + q(copilot.HookCommand(exe, "PreToolUse")) +
		`,"powershell":` + q(ps) + `,"timeoutSec":600`
}

// TestOwnProgramsAsVSCodeReads: the Claude call skips the hooks of no
// agent's file only when VS Code, reading the Copilot hook file, certainly
// runs this program's plain line on the event. Every shape below made the
// old reader say so while VS Code would run something else, or this line
// in another way (attacker review: a repository's .github/hooks file could
// make nobody run the guards); the genuine file still says so.
func TestOwnProgramsAsVSCodeReads(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the POSIX lines; Windows' in TestOwnProgramsPerOS")
	}
	copilot, _ := Lookup("copilot")
	pre, _ := copilot.Canonical("PreToolUse")
	const exe = "/opt/hh/hermes-hooks"
	g := vscodeGenuine(t, exe, "")
	line := copilot.HookCommand(exe, "PreToolUse")
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	file := func(handler string) string {
		return `{"version":1,"hooks":{"PreToolUse":[{` + handler + `}]}}`
	}
	for _, tc := range []struct {
		name, data string
		ours       bool
	}{
		{"genuine", file(g), true},
		{"genuine, the PATH form", file(vscodeGenuine(t, "", "")), true},
		{"genuine, the user's other hook beside it", `{"version":1,"hooks":{"PreToolUse":[{"type":"command","command":"./mine.sh"},{` + g + `}]}}`, true},
		{"linux override of its own line", file(g + `,"linux":` + q(line)), true},
		{"empty linux override (VS Code ignores it)", file(g + `,"linux":""`), true},
		{"per-OS overrides", file(g + `,"linux":"exit 0","osx":"exit 0"`), false},
		{"bash override", file(g + `,"bash":"exit 0"`), false},
		{"env turning safe mode on", file(g + `,"env":{"HERMES_SAFE_MODE":"1"}`), false},
		{"empty env", file(g + `,"env":{}`), false},
		{"cwd", file(g + `,"cwd":"/tmp"`), false},
		{"type prompt", file(strings.Replace(g, `"type":"command"`, `"type":"prompt"`, 1)), false},
		{"type missing", file(strings.Replace(g, `"type":"command",`, ``, 1)), false},
		{"a member VS Code may read", file(g + `,"disabled":true`), false},
		{"second command, last wins", file(g + `,"command":"exit 0"`), false},
		{"second hooks, last wins", `{"version":1,"hooks":{"PreToolUse":[{` + g + `}]},"hooks":{}}`, false},
		{"second event key, last wins", `{"version":1,"hooks":{"PreToolUse":[{` + g + `}],"PreToolUse":[]}}`, false},
		{"event key camelCase", `{"version":1,"hooks":{"preToolUse":[{` + g + `}]}}`, false},
		{"event key lower case", `{"version":1,"hooks":{"pretooluse":[{` + g + `}]}}`, false},
		// VS Code maps preToolUse onto PreToolUse too, and the later key's
		// hooks replace the earlier's.
		{"camelCase key after it", `{"version":1,"hooks":{"PreToolUse":[{` + g + `}],"preToolUse":[{"type":"command","command":"exit 0"}]}}`, false},
		{"a key install does not write", `{"version":1,"hooks":{"PreToolUse":[{` + g + `}],"Other":[]}}`, false},
		{"other events install writes", `{"version":1,"hooks":{"Stop":[],"PreToolUse":[{` + g + `}],"PostToolUse":[]}}`, true},
		{"short timeoutSec", file(strings.Replace(g, `"timeoutSec":600`, `"timeoutSec":1`, 1)), false},
		{"short timeout over timeoutSec", file(g + `,"timeout":1`), false},
		{"no timeout: VS Code's 30 s", file(strings.Replace(g, `,"timeoutSec":600`, ``, 1)), false},
		{"line for another event", file(strings.Replace(g, "copilot PreToolUse", "copilot PostToolUse", 1)), false},
		{"line naming no event", file(strings.Replace(g, "copilot PreToolUse", "copilot", 1)), false},
		{"line with a short agent timeout", file(strings.Replace(g, "--agent-timeout 600", "--agent-timeout 1", 1)), false},
		{"nested Claude-style group", `{"version":1,"hooks":{"PreToolUse":[{"hooks":[{` + g + `}]}]}}`, false},
		{"file switch beside hooks", `{"version":1,"disableAllHooks":true,"hooks":{"PreToolUse":[{` + g + `}]}}`, false},
		{"other version", `{"version":2,"hooks":{"PreToolUse":[{` + g + `}]}}`, false},
		{"byte order mark", "\ufeff" + file(g), false},
		{"NaN elsewhere", `{"version":1,"x":NaN,"hooks":{"PreToolUse":[{` + g + `}]}}`, false},
	} {
		got := copilot.OwnPrograms([]byte(tc.data), pre)
		want := []string{exe}
		if strings.HasSuffix(tc.name, "PATH form") {
			want = []string{ProgramName}
		}
		if tc.ours && !slices.Equal(got, want) || !tc.ours && got != nil {
			t.Errorf("%s: programs %q, ours %v", tc.name, got, tc.ours)
		}
	}
}

// TestOwnProgramsPerOS: the line VS Code runs is the one for its system:
// windows, else powershell on Windows; osx, else bash on macOS; linux,
// else bash elsewhere (VS Code counts every other system as Linux); then
// command.
func TestOwnProgramsPerOS(t *testing.T) {
	copilot, _ := Lookup("copilot")
	pre, _ := copilot.Canonical("PreToolUse")
	path := vscodeGenuine(t, "", "")
	abs := vscodeGenuine(t, "/opt/hh/hermes-hooks", `C:\hh\hermes-hooks.exe`)
	file := func(handler string) string {
		return `{"version":1,"hooks":{"PreToolUse":[{` + handler + `}]}}`
	}
	noPS := strings.Join(slices.DeleteFunc(strings.Split(path, `,"`), func(m string) bool {
		return strings.HasPrefix(m, `powershell"`)
	}), `,"`)
	if noPS == path {
		t.Fatal("no powershell member to take out")
	}
	for _, tc := range []struct {
		goos, name, data string
		want             []string
	}{
		{"windows", "genuine", file(path), []string{ProgramName}},
		{"windows", "genuine, absolute", file(abs), []string{`C:\hh\hermes-hooks.exe`}},
		{"windows", "windows override", file(path + `,"windows":"exit 0"`), nil},
		{"windows", "linux and osx overrides", file(path + `,"linux":"exit 0","osx":"exit 0","bash":"exit 0"`), []string{ProgramName}},
		{"windows", "no powershell: the POSIX command", file(noPS), nil},
		{"darwin", "genuine", file(abs), []string{"/opt/hh/hermes-hooks"}},
		{"darwin", "osx override", file(abs + `,"osx":"exit 0"`), nil},
		{"darwin", "bash override", file(abs + `,"bash":"exit 0"`), nil},
		{"darwin", "empty osx, bash override", file(abs + `,"osx":"","bash":"exit 0"`), nil},
		{"darwin", "linux and windows overrides", file(abs + `,"linux":"exit 0","windows":"exit 0"`), []string{"/opt/hh/hermes-hooks"}},
		{"linux", "osx override", file(abs + `,"osx":"exit 0"`), []string{"/opt/hh/hermes-hooks"}},
		{"freebsd", "linux override", file(abs + `,"linux":"exit 0"`), nil},
	} {
		if got := copilot.vscodeOwnLines([]byte(tc.data), pre, tc.goos); !slices.Equal(got, tc.want) {
			t.Errorf("%s, %s: programs %q, want %q", tc.goos, tc.name, got, tc.want)
		}
	}
}

// TestChoosesFiles: a workspace settings file that may set which hook
// files VS Code reads, in any spelling JSON with comments allows, is taken
// to; one that cannot is not.
func TestChoosesFiles(t *testing.T) {
	claude, _ := Lookup("claude")
	var h *Host
	for _, x := range claude.hosts {
		if x.Name == "vscode" {
			h = x
		}
	}
	if h == nil {
		t.Fatal("no VS Code host")
	}
	for data, want := range map[string]bool{
		`{"editor.tabSize": 2, "files.exclude": {"C:\\tmp": true}}`: false,
		``: false,
		`{"chat.hookFilesLocations": {".github/hooks": false}}`:                true,
		`{"chat": {"hookFilesLocations": {}}}`:                                 true,
		`{/* x */ "CHAT.HOOKFILESLOCATIONS": {}}`:                              true,
		`{"chat.hook\u0046ilesLocations": {".github/hooks": false}}`:           true,
		`{"chat.hook\u0046iles\u004cocations": {}, "a": "\\u0020 is a space"}`: true,
	} {
		if got := h.ChoosesFiles([]byte(data)); got != want {
			t.Errorf("%s: %v, want %v", data, got, want)
		}
	}
}
