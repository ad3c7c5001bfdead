package agents

import "testing"

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
