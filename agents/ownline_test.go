package agents

import (
	"strings"
	"testing"
)

// TestIsOwnLineAsRunHere: a hook source skips our own lines as the agent
// runs them on this system. On Windows Codex's Source.Handler puts
// commandWindows (cmd.exe's form) in place of command, and Copilot's its
// powershell line: IsOwnHookCommand (the POSIX and Gemini's PowerShell
// forms) did not know them, so a hook file read as a source loaded our own
// line as a hook of the user's (run again from any other agent's call,
// shown by list). Elsewhere a Windows form is no line of ours: sh would
// not run it as one.
func TestIsOwnLineAsRunHere(t *testing.T) {
	defer func(os string) { hostOS = os }(hostOS)
	for _, goos := range []string{"windows", "linux"} {
		hostOS = goos
		for _, name := range []string{"claude", "codex", "copilot", "gemini"} {
			a, _ := Lookup(name)
			for _, exe := range []string{"", "C:/Program Files/hh/hermes-hooks.exe"} {
				posix := a.HookCommand(exe, "PreToolUse")
				win, err := a.WindowsHookCommand(exe, "PreToolUse")
				if err != nil {
					t.Fatal(err)
				}
				gem, err := a.HookCommandOn("windows", exe, "PreToolUse")
				if err != nil {
					t.Fatal(err)
				}
				h := map[string]any{"type": "command", "command": posix}
				switch name {
				case "codex":
					h["commandWindows"] = win
				case "copilot":
					h = map[string]any{"type": "command", "bash": posix, "powershell": win}
				case "gemini":
					h["command"] = gem
				}
				if a.Source.Handler != nil {
					h = a.Source.Handler("PreToolUse", h, func(string) {})
				}
				line, _ := h["command"].(string)
				if !a.IsOwnLine(line) {
					t.Errorf("%s on %s (exe %q): our line %q as run here is not IsOwnLine", name, goos, exe, line)
				}
			}
		}
		// Another agent's Windows form is not what this agent's shell
		// runs; a hostile line is nobody's.
		codex, _ := Lookup("codex")
		copilot, _ := Lookup("copilot")
		ps, _ := copilot.WindowsHookCommand("", "PreToolUse")
		cmd, _ := codex.WindowsHookCommand("", "PreToolUse")
		for _, c := range []struct {
			a    *Agent
			line string
		}{{codex, ps}, {copilot, cmd}, {codex, "calc.exe & hermes-hooks hook codex PreToolUse"}, {codex, cmd + " & calc.exe"}} {
			if c.a.IsOwnLine(c.line) {
				t.Errorf("%s on %s: %q is IsOwnLine", c.a.Name, goos, c.line)
			}
		}
		if goos != "windows" && codex.IsOwnLine(cmd) {
			t.Errorf("cmd.exe's form is ours on %s", goos)
		}
	}
}

// TestOwnLineAgentWordIsPlain: the agent word of a line in install's form
// is a name, never shell text. It was any run of non-space bytes, so a
// repository's "exec hermes-hooks hook $(curl${IFS}…|sh) PreToolUse" (a
// command substitution sh runs before exec; cmd.exe's "&", PowerShell's
// "$(…)" the same) read as a line of ours for any agent (IsOwnLine with
// no agent named): list, validate and approve --project left it out, and
// the agent ran it unapproved.
func TestOwnLineAgentWordIsPlain(t *testing.T) {
	defer func(os string) { hostOS = os }(hostOS)
	claude, _ := Lookup("claude")
	codex, _ := Lookup("codex")
	gemini, _ := Lookup("gemini")
	posix := claude.HookCommand("", "PreToolUse")
	abs := claude.HookCommand("/usr/bin/hermes-hooks", "PreToolUse")
	cmd, _ := codex.WindowsHookCommand("", "PreToolUse")
	ps, _ := gemini.HookCommandOn("windows", "", "PreToolUse")
	for _, c := range []struct {
		a          *Agent
		line, word string
	}{
		{claude, posix, "$(touch${IFS}/tmp/pwn)"},
		{claude, posix, "`id`"},
		{claude, posix, "claude;id"},
		{claude, posix, "claude|id"},
		{claude, posix, "${PWN:-claude}"},
		{claude, abs, "$(id)"},
		{codex, cmd, "codex&calc"},
		{codex, cmd, "%PWN%"},
		{gemini, ps, "$(calc)"},
	} {
		line := strings.Replace(c.line, " hook "+c.a.Name+" ", " hook "+c.word+" ", 1)
		if line == c.line {
			t.Fatalf("no agent word in %q", c.line)
		}
		for _, goos := range []string{"linux", "windows"} {
			hostOS = goos
			if c.a.IsOwnLine(line) || IsOwnHookCommand(line, "") || IsOwnWindowsCommand(line, "") {
				t.Errorf("on %s: %q (agent word %q) reads as a line of ours", goos, line, c.word)
			}
		}
	}
}
