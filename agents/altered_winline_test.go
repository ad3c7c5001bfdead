package agents

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// TestAlteredWindowsLine: an entry whose "command" is ours is not as
// install writes it when its Windows line (what the agent runs on Windows
// in place of "command") is not a line of ours in that agent's Windows
// shell for the same event; the older forms still read as ours stay so.
func TestAlteredWindowsLine(t *testing.T) {
	handler := func(a *Agent, ev string, kv ...any) pyjson.OrderedObject {
		h := pyjson.OrderedObject{{Key: "type", Value: "command"}, {Key: "command", Value: a.HookCommand("", ev)}}
		for i := 0; i < len(kv); i += 2 {
			h = append(h, pyjson.Member{Key: kv[i].(string), Value: kv[i+1]})
		}
		extra, ok := a.HookFile.EventExtra[ev]
		if !ok {
			extra = a.HookFile.Extra
		}
		return append(h, extra...)
	}
	codexPre := win(t, codex, "", "PreToolUse")
	for _, c := range []struct {
		name  string
		a     *Agent
		event string
		h     pyjson.OrderedObject
		want  string
	}{
		{"today's PATH form", codex, "PreToolUse", handler(codex, "PreToolUse", "commandWindows", codexPre), ""},
		{"today's absolute form", codex, "Stop", handler(codex, "Stop", "commandWindows", win(t, codex, "C:/hh/hermes-hooks.exe", "Stop")), ""},
		{"no Windows line", codex, "Stop", handler(codex, "Stop"), ""},
		{"older PATH form", codex, "Stop", handler(codex, "Stop", "commandWindows",
			`where hermes-hooks >nul 2>&1 & if errorlevel 1 (exit /b 0) else (hermes-hooks hook codex Stop --agent-timeout 600)`), ""},
		{"older bare path", codex, "Stop", handler(codex, "Stop", "commandWindows", `"C:\hh\hermes-hooks.exe" hook codex Stop --agent-timeout 600`), ""},
		{"someone else's", codex, "Stop", handler(codex, "Stop", "commandWindows", "calc.exe & hermes-hooks hook codex Stop"),
			`its "commandWindows" is not a line of ours`},
		{"empty", codex, "Stop", handler(codex, "Stop", "commandWindows", ""), `its "commandWindows" is not a line of ours`},
		{"not a string", codex, "Stop", handler(codex, "Stop", "commandWindows", int64(1)), `its "commandWindows" is not a command line`},
		{"another event", codex, "PreToolUse", handler(codex, "PreToolUse", "commandWindows", win(t, codex, "", "Stop")),
			`its "commandWindows" runs 'hook codex Stop'`},
		{"another agent", codex, "PreToolUse", handler(codex, "PreToolUse", "commandWindows", strings.Replace(codexPre, "hook codex", "hook claude", 1)),
			`its "commandWindows" is not a line of ours`},
		{"PowerShell's line for cmd.exe", codex, "PreToolUse", handler(codex, "PreToolUse", "commandWindows",
			strings.Replace(win(t, copilot, "", "PreToolUse"), "hook copilot", "hook codex", 1)), `its "commandWindows" is not a line of ours`},
		{"the alias beside ours", codex, "Stop", handler(codex, "Stop", "commandWindows", win(t, codex, "", "Stop"), "command_windows", "calc.exe"),
			`it has "command_windows"`},
		{"copilot today's", copilot, "PreToolUse", handler(copilot, "PreToolUse", "powershell", win(t, copilot, "", "PreToolUse")), ""},
		{"copilot older Get-Command path", copilot, "Stop", handler(copilot, "Stop", "powershell",
			`if (-not (Get-Command 'C:\hh\hermes-hooks.exe' -ErrorAction SilentlyContinue)) { exit 0 }; & 'C:\hh\hermes-hooks.exe' hook copilot Stop --agent-timeout 600; exit $LASTEXITCODE`), ""},
		{"copilot cmd.exe's line", copilot, "PreToolUse", handler(copilot, "PreToolUse", "powershell",
			strings.Replace(codexPre, "hook codex", "hook copilot", 1)), `its "powershell" is not a line of ours`},
		{"copilot another event", copilot, "PreToolUse", handler(copilot, "PreToolUse", "powershell", win(t, copilot, "", "Stop")),
			`its "powershell" runs 'hook copilot Stop'`},
	} {
		if got := c.a.altered(c.event, nil, c.h); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestEntryWithForeignWindowsLineIsAltered: such an entry is ours (install
// and uninstall handle it) and altered (doctor says so and runs neither
// line); install writes it again, after which it is as install writes it.
func TestEntryWithForeignWindowsLineIsAltered(t *testing.T) {
	byName := func(ev string) string { return codex.HookCommand("", ev) }
	doc, _, err := codex.Install(nil, byName)
	if err != nil {
		t.Fatal(err)
	}
	h := firstHandler(t, doc, "PreToolUse")
	h = h.Set("commandWindows", "calc.exe")
	setFirstHandler(doc, "PreToolUse", h)
	for _, e := range codex.Entries(doc) {
		if e.Event == "PreToolUse" && (!e.Own("codex") || e.Altered != `its "commandWindows" is not a line of ours`) {
			t.Errorf("own %v, altered %q", e.Own("codex"), e.Altered)
		}
	}
	doc, changed, err := codex.Install(doc, byName)
	if err != nil || !changed {
		t.Fatalf("reinstall: changed %v, %v", changed, err)
	}
	for _, e := range codex.Entries(doc) {
		if want, _ := codex.WindowsHookCommand("", e.Event); e.Altered != "" || e.Windows != want {
			t.Errorf("%s after install: altered %q, Windows %q", e.Event, e.Altered, e.Windows)
		}
	}
}

// TestOwnWindowsProgram: the program a Windows line of ours runs, and
// whether a prologue answers when it is missing.
func TestOwnWindowsProgram(t *testing.T) {
	for _, c := range []struct {
		line    string
		exe     string
		guarded bool
		ok      bool
	}{
		{win(t, codex, "", "Stop"), "", true, true},
		{win(t, codex, "C:/my tools/hermes-hooks.exe", "Stop"), `C:\my tools\hermes-hooks.exe`, true, true},
		{`"C:\hh\hermes-hooks.exe" hook codex Stop`, `C:\hh\hermes-hooks.exe`, false, true},
		{win(t, copilot, "", "Stop"), "", true, true},
		{win(t, copilot, "C:/Users/o'neil/hermes-hooks.exe", "Stop"), `C:\Users\o'neil\hermes-hooks.exe`, true, true},
		{win(t, copilot, "C:/a\u2019b/hermes-hooks.exe", "Stop"), "C:\\a\u2019b\\hermes-hooks.exe", true, true},
		{"calc.exe", "", false, false},
	} {
		exe, guarded, ok := OwnWindowsProgram(c.line)
		if exe != c.exe || guarded != c.guarded || ok != c.ok {
			t.Errorf("%s: %q %v %v, want %q %v %v", c.line, exe, guarded, ok, c.exe, c.guarded, c.ok)
		}
	}
}

func win(t *testing.T, a *Agent, exe, ev string) string {
	t.Helper()
	c, err := a.WindowsHookCommand(exe, ev)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
