package report

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// TestRunFor: the program, argv and (cmd.exe) verbatim command line doctor
// starts an entry with, per agent and system: the agent's Windows line in
// its Windows shell on Windows, the POSIX line through sh or bash
// elsewhere and, for the agents that keep it on Windows, through Git Bash
// found as Claude Code finds it, else sh; a missing Windows
// shell is "not run", a missing POSIX shell no answer (as before).
func TestRunFor(t *testing.T) {
	agent := func(name string) *agents.Agent {
		a, ok := agents.Lookup(name)
		if !ok {
			t.Fatal(name)
		}
		return a
	}
	codex, copilot, gemini, claude := agent("codex"), agent("copilot"), agent("gemini"), agent("claude")
	entry := func(a *agents.Agent, ev string) agents.FileEntry {
		w, err := a.WindowsHookCommand("", ev)
		if err != nil {
			t.Fatal(err)
		}
		return agents.FileEntry{Event: ev, Command: a.HookCommand("", ev), Windows: w}
	}
	const gitBash = `C:\Program Files\Git\bin\bash.exe`
	const comspec, ps, pwsh = `C:\Windows\system32\cmd.exe`, `C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`, `C:\Program Files\PowerShell\7\pwsh.exe`
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	on := func(found map[string]string) func(string) (string, error) {
		return func(name string) (string, error) {
			if p, ok := found[name]; ok {
				return p, nil
			}
			return "", errors.New("not found")
		}
	}
	unix := on(map[string]string{"sh": "/bin/sh", "bash": "/bin/bash"})
	win := on(map[string]string{"cmd.exe": comspec, "powershell": ps})
	cx, cp := entry(codex, "PreToolUse"), entry(copilot, "PreToolUse")
	cxNoWin := cx
	cxNoWin.Windows = ""
	gm := agents.FileEntry{Event: "BeforeTool"}
	gm.Command, _ = gemini.HookCommandOn("windows", "", "BeforeTool")
	cl := agents.FileEntry{Event: "PreToolUse", Command: claude.HookCommand("", "PreToolUse")}
	for _, c := range []struct {
		name    string
		a       *agents.Agent
		goos    string
		e       agents.FileEntry
		getenv  func(string) string
		look    func(string) (string, error)
		argv    []string
		cmdLine string
		psCheck bool
		status  string
	}{
		{"codex on Linux", codex, "linux", cx, env(), unix, []string{"sh", "-c", cx.Command}, "", false, ""},
		{"codex on Windows", codex, "windows", cx, env("COMSPEC", comspec), win, []string{comspec, "/C", cx.Windows}, `"` + comspec + `" /C ` + cx.Windows, false, ""},
		{"codex on Windows, no commandWindows", codex, "windows", cxNoWin, env("COMSPEC", comspec), win, []string{comspec, "/C", cx.Command}, `"` + comspec + `" /C ` + cx.Command, false, ""},
		{"codex on Windows, no COMSPEC", codex, "windows", cx, env(), win, []string{comspec, "/C", cx.Windows}, `"` + comspec + `" /C ` + cx.Windows, false, ""},
		{"codex on Windows, no cmd.exe", codex, "windows", cx, env(), on(nil), nil, "", false, FireNotRun},
		{"copilot on Linux", copilot, "linux", cp, env(), unix, []string{"bash", "-c", cp.Command}, "", false, ""},
		{"copilot on Windows", copilot, "windows", cp, env(), win, []string{"powershell", "-Command", cp.Windows}, "", true, ""},
		{"copilot on Windows, no powershell", copilot, "windows", cp, env(), on(map[string]string{"sh": `C:\Git\bin\sh.exe`}), nil, "", false, FireNotRun},
		{"gemini on Windows", gemini, "windows", gm, env(), on(map[string]string{"pwsh": pwsh, "powershell": ps}), []string{pwsh, "-NoProfile", "-NonInteractive", "-Command", gm.Command}, "", true, ""},
		{"gemini on Windows, ComSpec PowerShell", gemini, "windows", gm, env("ComSpec", ps), on(map[string]string{"pwsh": pwsh}), []string{ps, "-NoProfile", "-NonInteractive", "-Command", gm.Command}, "", true, ""},
		{"gemini on Windows, powershell only", gemini, "windows", gm, env("ComSpec", comspec), win, []string{ps, "-NoProfile", "-NonInteractive", "-Command", gm.Command}, "", true, ""},
		{"gemini on Windows, no PowerShell", gemini, "windows", gm, env("ComSpec", comspec), on(map[string]string{"bash": "b"}), nil, "", false, FireNotRun},
		{"claude on Windows, Git Bash named", claude, "windows", cl, env("CLAUDE_CODE_GIT_BASH_PATH", gitBash), on(map[string]string{"sh": `C:\msys\sh.exe`}), []string{gitBash, "-c", cl.Command}, "", false, ""},
		{"claude on Windows, Git for Windows installed", claude, "windows", cl, env("ProgramFiles", `C:\Program Files`), win, []string{gitBash, "-c", cl.Command}, "", false, ""},
		{"claude on Windows, Git Bash in its usual place, no sh", claude, "windows", cl, env("COMSPEC", comspec), win, []string{gitBash, "-c", cl.Command}, "", false, ""},
		{"claude on Linux without sh", claude, "linux", cl, env(), on(nil), nil, "", false, FireNoAnswer},
	} {
		run, status, detail := runFor(c.a, c.goos, c.e, c.getenv, c.look, func(p string) bool { return p == gitBash })
		if status != c.status || status == "" && (!slices.Equal(run.argv, c.argv) || run.cmdLine != c.cmdLine || run.psCheck != c.psCheck || run.line != c.argv[len(c.argv)-1]) {
			t.Errorf("%s: %q %q %v line %q (%s %s)\nwant %q %q %v %s", c.name, run.argv, run.cmdLine, run.psCheck, run.line, status, detail, c.argv, c.cmdLine, c.psCheck, c.status)
		}
		if status != "" && detail == "" {
			t.Errorf("%s: %s without a reason", c.name, status)
		}
	}
	// No Git Bash: Claude Code runs the line with PowerShell, where the
	// POSIX form does not parse and the call goes through (a sh on PATH
	// does not change that): no answer, saying what was looked for. An
	// agent without that fallback (Cursor) runs it with sh on PATH.
	noGit := func(string) bool { return false }
	for _, look := range []func(string) (string, error){win, on(map[string]string{"sh": `C:\msys\sh.exe`})} {
		_, status, detail := runFor(claude, "windows", cl, env(), look, noGit)
		if status != FireNoAnswer || !strings.Contains(detail, "Git Bash not found") || !strings.Contains(detail, "PowerShell") {
			t.Errorf("claude on Windows without Git Bash: %s (%s), want %s naming Git Bash and PowerShell", status, detail, FireNoAnswer)
		}
	}
	// Qwen Code runs it with %ComSpec% (cmd.exe, or PowerShell where
	// ComSpec names it) unless it was started from Git Bash (MSYSTEM,
	// TERM): there the POSIX line fails and the call goes through.
	qwen := agent("qwen")
	qw := agents.FileEntry{Event: "PreToolUse", Command: qwen.HookCommand("", "PreToolUse")}
	for _, getenv := range []func(string) string{env("ComSpec", comspec), env("ComSpec", ps, "CLAUDE_CODE_GIT_BASH_PATH", gitBash), env("TERM", "xterm", "ProgramFiles", `C:\Program Files`)} {
		_, status, detail := runFor(qwen, "windows", qw, getenv, on(map[string]string{"sh": `C:\msys\sh.exe`, "bash": gitBash}), func(p string) bool { return p == gitBash })
		if status != FireNoAnswer || !strings.Contains(detail, "ComSpec") || !strings.Contains(detail, "Git Bash") {
			t.Errorf("qwen on Windows, not from Git Bash: %s (%s), want %s naming ComSpec and Git Bash", status, detail, FireNoAnswer)
		}
	}
	for _, getenv := range []func(string) string{env("MSYSTEM", "MINGW64", "ProgramFiles", `C:\Program Files`), env("TERM", "cygwin", "ProgramFiles", `C:\Program Files`)} {
		if run, status, detail := runFor(qwen, "windows", qw, getenv, win, func(p string) bool { return p == gitBash }); status != "" || !slices.Equal(run.argv, []string{gitBash, "-c", qw.Command}) {
			t.Errorf("qwen on Windows from Git Bash: %q (%s %s), want Git Bash", run.argv, status, detail)
		}
	}
	// Under "shell": "powershell" (install's entry on Windows) Qwen Code
	// runs the line with powershell -Command, on every system: started
	// from Git Bash or not. Where powershell is not on PATH, Windows
	// cannot tell (doctor's PATH is not the agent's, and Windows
	// PowerShell ships with every Windows); elsewhere the hook fails and
	// the call goes through: a committed file of the Windows form is a
	// problem on Linux and macOS, as Gemini CLI's is.
	qps := agents.FileEntry{Event: "PreToolUse", Shell: "powershell"}
	qps.Command, _ = qwen.HookCommandOn("windows", "", "PreToolUse")
	for _, getenv := range []func(string) string{env("ComSpec", comspec), env("MSYSTEM", "MINGW64", "ProgramFiles", `C:\Program Files`)} {
		if run, status, detail := runFor(qwen, "windows", qps, getenv, win, func(p string) bool { return p == gitBash }); status != "" ||
			!slices.Equal(run.argv, []string{"powershell", "-Command", qps.Command}) || run.path != ps || !run.psCheck || run.line != qps.Command {
			t.Errorf("qwen on Windows, shell powershell: %q %s %v (%s %s), want powershell -Command", run.argv, run.path, run.psCheck, status, detail)
		}
	}
	if _, status, detail := runFor(qwen, "windows", qps, env("ComSpec", comspec), on(map[string]string{"cmd.exe": comspec}), noGit); status != FireNotRun || !strings.Contains(detail, "powershell") {
		t.Errorf("qwen on Windows, no powershell: %s (%s), want %s", status, detail, FireNotRun)
	}
	if _, status, detail := runFor(qwen, "linux", qps, env(), unix, noGit); status != FireNoAnswer || !strings.Contains(detail, `"shell": "powershell"`) {
		t.Errorf("qwen on Linux, shell powershell, no powershell: %s (%s), want %s", status, detail, FireNoAnswer)
	}
	if run, status, detail := runFor(qwen, "darwin", qps, env(), on(map[string]string{"powershell": "/usr/local/bin/powershell", "bash": "/bin/bash"}), noGit); status != "" ||
		!slices.Equal(run.argv, []string{"powershell", "-Command", qps.Command}) || !run.psCheck {
		t.Errorf("qwen on macOS with powershell: %q (%s %s), want powershell -Command", run.argv, status, detail)
	}
	// Without the key, Qwen's PowerShell form is not run with PowerShell
	// (as Gemini CLI's would be): %ComSpec% there, no answer.
	qnokey := qps
	qnokey.Shell = ""
	if _, status, _ := runFor(qwen, "windows", qnokey, env("ComSpec", comspec), win, noGit); status != FireNoAnswer {
		t.Errorf("qwen on Windows, PowerShell form without shell: %s, want %s", status, FireNoAnswer)
	}
	cursor := agent("cursor")
	cu := agents.FileEntry{Event: "beforeShellExecution", Command: cursor.HookCommand("", "beforeShellExecution")}
	if run, status, detail := runFor(cursor, "windows", cu, env(), on(map[string]string{cursor.Shell(): `C:\msys\sh.exe`}), noGit); status != "" || !slices.Equal(run.argv, []string{cursor.Shell(), "-c", cu.Command}) {
		t.Errorf("cursor on Windows without Git Bash: %q (%s %s), want %s -c", run.argv, status, detail, cursor.Shell())
	}
}
