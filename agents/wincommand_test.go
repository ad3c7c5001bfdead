package agents

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// TestWindowsHookCommandForms pins each agent's Windows command line, as
// install writes it: cmd.exe's for Codex, PowerShell's for Copilot, none
// where the agent has no Windows key (Claude Code's Git Bash and Gemini
// CLI run the one command).
func TestWindowsHookCommandForms(t *testing.T) {
	codexDeny := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + MissingReasonCmd + `"}}`
	copilotDeny := `{"permissionDecision":"deny","permissionDecisionReason":"` + MissingReason + `"}`
	codexGone := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + MissingProgramReason + `"}}`
	copilotGone := `{"permissionDecision":"deny","permissionDecisionReason":"` + MissingProgramReason + `"}`
	const hh = `C:\Program Files\hh\hermes-hooks.exe`
	for _, tc := range []struct {
		agent       *Agent
		exe, event  string
		want        string
		wantMissing string
	}{
		{codex, "", "PreToolUse",
			`set NoDefaultCurrentDirectoryInExePath=1& where $PATH:hermes-hooks >nul 2>&1 & if errorlevel 1 (echo ` + codexDeny + `& exit /b 0) else (hermes-hooks hook codex PreToolUse --agent-timeout 600)`, ""},
		{codex, "", "PostToolUse",
			`set NoDefaultCurrentDirectoryInExePath=1& where $PATH:hermes-hooks >nul 2>&1 & if errorlevel 1 (exit /b 0) else (hermes-hooks hook codex PostToolUse --agent-timeout 600)`, ""},
		// The absolute forms answer when no file is there (or a folder
		// is): the program is tested before it is run.
		{codex, "C:/Program Files/hh/hermes-hooks.exe", "Stop",
			`if not exist "` + hh + `" (exit /b 0) else if exist "` + hh + `\*" (exit /b 0) else ("` + hh + `" hook codex Stop --agent-timeout 600)`, ""},
		{codex, "C:/Program Files/hh/hermes-hooks.exe", "PreToolUse",
			`if not exist "` + hh + `" (echo ` + codexGone + `& exit /b 0) else if exist "` + hh + `\*" (echo ` + codexGone + `& exit /b 0) else ("` + hh + `" hook codex PreToolUse --agent-timeout 600)`, ""},
		{copilot, hh, "PreToolUse",
			`if (-not (Test-Path -LiteralPath '` + hh + `' -PathType Leaf)) { [Console]::Out.Write('` + copilotGone + `'+"` + "`n" + `"+''); [Console]::Error.Write('` + MissingProgramReason + `'+"` + "`n" + `"+''); exit 2 }; try { & '` + hh + `' hook copilot PreToolUse --agent-timeout 600 } catch { [Console]::Out.Write('` + copilotGone + `'+"` + "`n" + `"+''); [Console]::Error.Write('` + MissingProgramReason + `'+"` + "`n" + `"+''); exit 2 }; exit $LASTEXITCODE`, ""},
		{copilot, "", "PreToolUse",
			`if (-not (Get-Command hermes-hooks -ErrorAction SilentlyContinue)) { [Console]::Out.Write('` + copilotDeny + `'+"` + "`n" + `"+''); [Console]::Error.Write('` + MissingReason + `'+"` + "`n" + `"+''); exit 2 }; try { & hermes-hooks hook copilot PreToolUse --agent-timeout 600 } catch { [Console]::Out.Write('` + copilotDeny + `'+"` + "`n" + `"+''); [Console]::Error.Write('` + MissingReason + `'+"` + "`n" + `"+''); exit 2 }; exit $LASTEXITCODE`, ""},
		{copilot, `C:\Users\o'neil\bin\hermes-hooks.exe`, "Stop",
			`if (-not (Test-Path -LiteralPath 'C:\Users\o''neil\bin\hermes-hooks.exe' -PathType Leaf)) { exit 0 }; try { & 'C:\Users\o''neil\bin\hermes-hooks.exe' hook copilot Stop --agent-timeout 600 } catch { exit 0 }; exit $LASTEXITCODE`, ""},
		{claude, "", "PreToolUse", "", ""},
		{gemini, "", "BeforeTool", "", ""},
	} {
		got, err := tc.agent.WindowsHookCommand(tc.exe, tc.event)
		if err != nil || got != tc.want {
			t.Errorf("%s %s %q:\n got %s (%v)\nwant %s", tc.agent.Name, tc.event, tc.exe, got, err, tc.want)
		}
		if got != "" && !IsOwnWindowsCommand(got, tc.agent.Name) {
			t.Errorf("%s %s: IsOwnWindowsCommand(%s) = false", tc.agent.Name, tc.event, got)
		}
		if got != "" && IsOwnWindowsCommand(got, "cursor") {
			t.Errorf("%s %s: the line is taken for another agent's", tc.agent.Name, tc.event)
		}
	}
}

// TestWindowsHookCommandEveryEvent: every event install registers gets a
// Windows line that reads as ours.
func TestWindowsHookCommandEveryEvent(t *testing.T) {
	for _, a := range []*Agent{codex, copilot} {
		for _, ev := range a.HookFile.Events {
			for _, exe := range []string{"", "C:/hh/hermes-hooks.exe"} {
				got, err := a.WindowsHookCommand(exe, ev)
				if err != nil || !IsOwnWindowsCommand(got, a.Name) {
					t.Errorf("%s %s %q: %q, %v", a.Name, ev, exe, got, err)
				}
			}
		}
	}
}

// TestWindowsHookCommandHostile is the attack table: an event name, a
// program path or an answer's text that would break out of cmd.exe's or
// PowerShell's quoting is refused or quoted, never written as syntax.
func TestWindowsHookCommandHostile(t *testing.T) {
	for _, ev := range []string{"", "Pre&calc", "Pre%PATH%", `Pre"x`, "Pre ToolUse", "Pre\nx", "Pre;calc", "Pre$(calc)", "Pre|x", "Pre^x"} {
		for _, a := range []*Agent{codex, copilot} {
			if got, err := a.WindowsHookCommand("", ev); err == nil {
				t.Errorf("%s event %q: written as %s", a.Name, ev, got)
			}
		}
	}
	for _, exe := range []string{`C:\a*\h.exe`, `C:\a?\h.exe`, `C:\a"&calc&"\h.exe`, `C:\%USERPROFILE%\h.exe`, `C:\a!x!\h.exe`, `C:\Program Files (x86)\h.exe`, `C:\a&b\h.exe`, "C:\\a\nb\\h.exe"} {
		if got, err := codex.WindowsHookCommand(exe, "Stop"); err == nil {
			t.Errorf("cmd exe %q: written as %s", exe, got)
		}
	}
	for _, text := range []string{"50% off\n", "a & calc\n", "x) & calc & (\n", `say "hi` + "\n", "a\nb\n", "no newline", "!x!\n", "a^b\n", "a|b\n", "a>f\n", "\n"} {
		if got, err := cmdEchoText(text); err == nil {
			t.Errorf("echo text %q: written as %s", text, got)
		}
	}
	if _, err := psCommand("", " hook copilot Stop", Reply{Stdout: []byte("a\rb\n")}); err == nil {
		t.Error("PowerShell: a carriage return in the answer was written")
	}
	// PowerShell: quotes of every kind inside the text or the path stay
	// inside one single-quoted string.
	for in, want := range map[string]string{
		`it's`:               `'it''s'`,
		"a\u2019; calc; '":   "'a\u2019\u2019; calc; '''",
		`$(calc) "x" ` + "`": `'$(calc) "x" ` + "`'",
		"line\n":             "'line'+\"`n\"+''",
	} {
		if got := PSQuote(in); got != want {
			t.Errorf("PSQuote(%q) = %s, want %s", in, got, want)
		}
	}
	exe := "C:\\x\u2018; calc; \u2019\\h.exe"
	got, err := copilot.WindowsHookCommand(exe, "Stop")
	if err != nil || !strings.Contains(got, "& 'C:\\x\u2018\u2018; calc; \u2019\u2019\\h.exe' hook") || !IsOwnWindowsCommand(got, "copilot") {
		t.Errorf("PowerShell typographic quotes: %s, %v", got, err)
	}
	// The PATH form older installs wrote (where and cmd.exe also looked
	// in the current directory) is still ours: refreshed, or taken out.
	if old := `where hermes-hooks >nul 2>&1 & if errorlevel 1 (exit /b 0) else (hermes-hooks hook codex Stop --agent-timeout 600)`; !IsOwnWindowsCommand(old, "codex") {
		t.Errorf("the older PATH form is not ours: %s", old)
	}
	// Someone else's line is not ours, whatever it runs after.
	for _, c := range []string{
		`set NoDefaultCurrentDirectoryInExePath=1& where $PATH:hermes-hooks >nul 2>&1 & if errorlevel 1 (exit /b 0) else (hermes-hooks hook codex Stop) & calc`,
		`set PATH=.& where $PATH:hermes-hooks >nul 2>&1 & if errorlevel 1 (exit /b 0) else (hermes-hooks hook codex Stop)`,
		`set NoDefaultCurrentDirectoryInExePath=1& calc& where $PATH:hermes-hooks >nul 2>&1 & if errorlevel 1 (exit /b 0) else (hermes-hooks hook codex Stop)`,
		`where hermes-hooks >nul 2>&1 & if errorlevel 1 (exit /b 0) else (hermes-hooks hook codex Stop) & calc`,
		`where hermes-hooks >nul 2>&1 & if errorlevel 1 (exit /b 0) else (hermes-hooks hook codex Stop & calc)`,
		`calc & hermes-hooks hook codex Stop`,
		`where hermes-hooks >nul 2>&1 & if errorlevel 1 (echo x& calc& exit /b 0) else (hermes-hooks hook codex Stop)`,
		`"C:\a"&calc&"\h.exe" hook codex Stop`,
		`if (-not (Get-Command hermes-hooks -ErrorAction SilentlyContinue)) { calc; exit 0 }; & hermes-hooks hook copilot Stop; exit $LASTEXITCODE`,
		`if (-not (Get-Command hermes-hooks -ErrorAction SilentlyContinue)) { exit 0 }; & hermes-hooks hook copilot Stop; calc; exit $LASTEXITCODE`,
		// A test of one program, then another run.
		`if not exist "C:\a\h.exe" (exit /b 0) else if exist "C:\a\h.exe\*" (exit /b 0) else ("C:\evil\h.exe" hook codex Stop)`,
		`if not exist "C:\a\h.exe" (exit /b 0) else if exist "C:\evil\h.exe\*" (exit /b 0) else ("C:\a\h.exe" hook codex Stop)`,
		`if (-not (Test-Path -LiteralPath 'C:\a\h.exe' -PathType Leaf)) { exit 0 }; & 'C:\evil\h.exe' hook copilot Stop; exit $LASTEXITCODE`,
		`if (-not (Get-Command 'C:\a\h.exe' -ErrorAction SilentlyContinue)) { exit 0 }; & 'C:\evil\h.exe' hook copilot Stop; exit $LASTEXITCODE`,
		`if (-not (Get-Command hermes-hooks -ErrorAction SilentlyContinue)) { exit 0 }; & 'C:\evil\h.exe' hook copilot Stop; exit $LASTEXITCODE`,
		`if (-not (Test-Path -LiteralPath 'C:\a\h.exe' -PathType Leaf)) { exit 0 }; try { & 'C:\evil\h.exe' hook copilot Stop } catch { exit 0 }; exit $LASTEXITCODE`,
		`if (-not (Get-Command hermes-hooks -ErrorAction SilentlyContinue)) { exit 0 }; try { & hermes-hooks hook copilot Stop } catch { calc; exit 0 }; exit $LASTEXITCODE`,
		`if (-not (Get-Command hermes-hooks -ErrorAction SilentlyContinue)) { exit 0 }; try { & hermes-hooks hook copilot Stop; calc } catch { exit 0 }; exit $LASTEXITCODE`,
		// Other tests than the one written.
		`if (-not (Test-Path 'C:\a\h.exe' -PathType Leaf)) { exit 0 }; & 'C:\a\h.exe' hook copilot Stop; exit $LASTEXITCODE`,
		`if (-not (Test-Path -LiteralPath 'C:\a\h.exe')) { exit 0 }; & 'C:\a\h.exe' hook copilot Stop; exit $LASTEXITCODE`,
		`if exist "C:\a\h.exe" ("C:\a\h.exe" hook codex Stop) else (exit /b 0)`,
		`if not exist "C:\a\h.exe" (exit /b 0) else if exist "C:\a\h.exe\*" (exit /b 0) else ("C:\a\h.exe" hook codex Stop) & calc`,
		`if not exist "C:\a\h.exe" (calc& exit /b 0) else if exist "C:\a\h.exe\*" (exit /b 0) else ("C:\a\h.exe" hook codex Stop)`,
	} {
		if IsOwnWindowsCommand(c, "") {
			t.Errorf("IsOwnWindowsCommand(%s) = true", c)
		}
	}
	// The forms older versions wrote stay ours, to refresh and remove.
	for _, c := range []string{
		`"C:\a\h.exe" hook codex Stop --agent-timeout 600`,
		`if (-not (Get-Command 'C:\a\h.exe' -ErrorAction SilentlyContinue)) { exit 0 }; & 'C:\a\h.exe' hook copilot Stop; exit $LASTEXITCODE`,
		// Before the call was inside try/catch.
		`if (-not (Test-Path -LiteralPath 'C:\a\h.exe' -PathType Leaf)) { exit 0 }; & 'C:\a\h.exe' hook copilot Stop; exit $LASTEXITCODE`,
		`if (-not (Get-Command hermes-hooks -ErrorAction SilentlyContinue)) { exit 0 }; & hermes-hooks hook copilot Stop; exit $LASTEXITCODE`,
	} {
		if !IsOwnWindowsCommand(c, "") {
			t.Errorf("IsOwnWindowsCommand(%s) = false; an older install's line", c)
		}
	}
}

// TestWindowsCommandRead: reading an agent's file picks the command that
// agent runs on the system given: commandWindows (or command_windows) for
// Codex on Windows, Copilot's powershell key there; the POSIX one
// elsewhere; the Windows keys never reach the Claude handler.
func TestWindowsCommandRead(t *testing.T) {
	for _, tc := range []struct {
		goos string
		in   map[string]any
		want map[string]any
	}{
		{"linux", map[string]any{"type": "command", "command": "a", "commandWindows": "w"}, map[string]any{"type": "command", "command": "a"}},
		{"windows", map[string]any{"type": "command", "command": "a", "commandWindows": "w"}, map[string]any{"type": "command", "command": "w"}},
		{"windows", map[string]any{"type": "command", "command": "a", "command_windows": "w"}, map[string]any{"type": "command", "command": "w"}},
		{"windows", map[string]any{"type": "command", "command": "a", "commandWindows": "w", "command_windows": "v"}, map[string]any{"type": "command", "command": "w"}},
		{"windows", map[string]any{"type": "command", "command": "a"}, map[string]any{"type": "command", "command": "a"}},
		{"darwin", map[string]any{"type": "command", "command": "a", "command_windows": "w"}, map[string]any{"type": "command", "command": "a"}},
	} {
		if got := codexHandlerOn(tc.goos, tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("codex on %s %v: %v, want %v", tc.goos, tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct {
		goos string
		in   map[string]any
		want map[string]any
	}{
		{"windows", map[string]any{"type": "command", "command": "a", "powershell": "p"}, map[string]any{"type": "command", "command": "p", "shell": "powershell"}},
		{"linux", map[string]any{"type": "command", "command": "a", "powershell": "p"}, map[string]any{"type": "command", "command": "a"}},
		{"windows", map[string]any{"type": "command", "bash": "b"}, map[string]any{"type": "command", "command": "b"}},
		{"linux", map[string]any{"type": "command", "bash": "b", "powershell": "p"}, map[string]any{"type": "command", "command": "b"}},
		{"windows", map[string]any{"type": "command", "command": "a", "powershell": "p", "windows": "v"}, map[string]any{"type": "command", "command": "v"}},
	} {
		if got := copilotHandlerOn(tc.goos, tc.in, func(string) {}); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("copilot on %s %v: %v, want %v", tc.goos, tc.in, got, tc.want)
		}
	}
}

// TestInstallWritesWindowsKey: install writes the Windows key beside
// command, brings a hostile one on an entry of ours back to ours (and
// drops an alias Codex might read instead), and such an entry is ours but
// altered until it has been; uninstall takes the whole entry out.
func TestInstallWritesWindowsKey(t *testing.T) {
	byName := func(a *Agent) func(string) string { return func(ev string) string { return a.HookCommand("", ev) } }
	doc, _, err := codex.Install(nil, byName(codex))
	if err != nil {
		t.Fatal(err)
	}
	entries := codex.Entries(doc)
	if len(entries) != len(codex.HookFile.Events) {
		t.Fatalf("%d entries", len(entries))
	}
	for _, e := range entries {
		if want, _ := codex.WindowsHookCommand("", e.Event); e.Windows != want || !e.Own("codex") {
			t.Errorf("%s: Windows %q, want %q", e.Event, e.Windows, want)
		}
	}
	// A repository edits the Windows line of our entry.
	h := firstHandler(t, doc, "Stop")
	h.Set("commandWindows", "calc & hermes-hooks hook codex Stop")
	h = append(h, pyjson.Member{Key: "command_windows", Value: "calc"})
	setFirstHandler(doc, "Stop", h)
	for _, e := range codex.Entries(doc) {
		if e.Event == "Stop" && (!e.Own("codex") || e.Altered == "") {
			t.Errorf("an entry with someone else's Windows command: own %v, altered %q", e.Own("codex"), e.Altered)
		}
	}
	doc, changed, err := codex.Install(doc, byName(codex))
	if err != nil || !changed {
		t.Fatalf("reinstall: changed %v, %v", changed, err)
	}
	h = firstHandler(t, doc, "Stop")
	if w, _ := h.Get("commandWindows"); !IsOwnWindowsCommand(w.(string), "codex") {
		t.Errorf("commandWindows after install: %v", w)
	}
	if _, ok := h.Get("command_windows"); ok {
		t.Error("command_windows kept")
	}
	if doc, _ = codex.Uninstall(doc); len(doc) != 0 {
		t.Errorf("uninstall left %v", doc)
	}
	// Copilot: powershell beside command; a Unix path gets no Windows line.
	doc, _, _ = copilot.Install(nil, byName(copilot))
	if e := copilot.Entries(doc)[0]; !strings.HasPrefix(e.Windows, "if (-not (Get-Command hermes-hooks") {
		t.Errorf("copilot powershell: %q", e.Windows)
	}
	doc, _, _ = copilot.Install(nil, func(ev string) string { return copilot.HookCommand("/usr/bin/hermes-hooks", ev) })
	if e := copilot.Entries(doc)[0]; e.Windows != "" {
		t.Errorf("a Unix path got a powershell line: %q", e.Windows)
	}
	doc, _, _ = copilot.Install(nil, func(ev string) string { return copilot.HookCommand("C:/hh/hermes-hooks.exe", ev) })
	if e := copilot.Entries(doc)[0]; !strings.Contains(e.Windows, `& 'C:\hh\hermes-hooks.exe' hook copilot`) || !e.Own("copilot") {
		t.Errorf("a Windows path: %q", e.Windows)
	}
}

func firstHandler(t *testing.T, doc pyjson.OrderedObject, ev string) pyjson.OrderedObject {
	t.Helper()
	hooks, _ := get(doc, "hooks").(pyjson.OrderedObject)
	list, _ := get(hooks, ev).([]any)
	group, _ := list[0].(pyjson.OrderedObject)
	inner, _ := get(group, "hooks").([]any)
	h, _ := inner[0].(pyjson.OrderedObject)
	return h
}

func setFirstHandler(doc pyjson.OrderedObject, ev string, h pyjson.OrderedObject) {
	hooks, _ := get(doc, "hooks").(pyjson.OrderedObject)
	list, _ := get(hooks, ev).([]any)
	group, _ := list[0].(pyjson.OrderedObject)
	inner, _ := get(group, "hooks").([]any)
	inner[0] = h
}

// TestClaudeWindowsPath: on Windows install writes an absolute path with
// forward slashes (Git Bash, Claude Code's shell there, drops the
// backslashes of an unquoted C:\…); that line is ours, to refresh and
// remove, and names that program.
func TestClaudeWindowsPath(t *testing.T) {
	c := claude.HookCommand("C:/Users/o'neil/bin/hermes-hooks.exe", "PreToolUse")
	const q = `'C:/Users/o'\''neil/bin/hermes-hooks.exe'`
	if want := `[ -f ` + q + ` ] && [ -x ` + q + ` ] || ` + claude.missingBody("PreToolUse", MissingProgramReason) + `; exec ` + q + ` hook claude PreToolUse --agent-timeout 600`; c != want {
		t.Fatalf("got %s, want %s", c, want)
	}
	if !IsOwnCommand(c, "claude") || IsOwnCommand(`'C:\x\hermes-hooks.exe' hook claude PreToolUse`, "claude") {
		t.Error("drive-letter forms: forward slashes are ours, backslashes (which Git Bash loses) are not")
	}
	// (OwnPrograms reads only a Flat file VS Code runs before Claude's
	// settings: Copilot's.)
	if exe, ok := OwnProgram(c); !ok || exe != "C:/Users/o'neil/bin/hermes-hooks.exe" {
		t.Errorf("OwnProgram: %q, %v", exe, ok)
	}
}

// FuzzWindowsHookCommand: whatever the program path and event, a Windows
// line is refused or reads as ours (no syntax of the input's left in it),
// and PowerShell's quoting gives the text back as PowerShell reads it.
func FuzzWindowsHookCommand(f *testing.F) {
	f.Add("C:/hh/hermes-hooks.exe", "PreToolUse", "it's")
	f.Add(`C:\a"&calc&"\h.exe`, "Stop", "a\u2019b")
	f.Add("", "Pre%x%", "line\n")
	f.Fuzz(func(t *testing.T, exe, event, text string) {
		for _, a := range []*Agent{codex, copilot} {
			c, err := a.WindowsHookCommand(exe, event)
			if err != nil {
				continue
			}
			if !IsOwnWindowsCommand(c, a.Name) {
				t.Errorf("%s %q %q: %s is not read as ours", a.Name, exe, event, c)
			}
			if l, ok := parseOwnWindows(c, false); !ok || l.agent != a.Name || l.event != event || !l.guarded {
				t.Errorf("%s %q %q: %s read as %+v", a.Name, exe, event, c, l)
			}
			if exe == "" {
				continue
			}
			if got, _, _ := OwnWindowsProgram(c); got != strings.ReplaceAll(exe, "/", `\`) {
				t.Errorf("%s %q: %s runs %q", a.Name, exe, c, got)
			}
			// The program run changed, the one tested left: not ours.
			w := strings.ReplaceAll(exe, "/", `\`)
			run, other := `("`+w+`" hook `, `("`+w+`x" hook `
			if a == copilot {
				run, other = "& "+PSQuote(w)+" hook ", "& "+PSQuote(w+"x")+" hook "
			}
			if mixed := strings.Replace(c, run, other, 1); mixed == c || IsOwnWindowsCommand(mixed, "") {
				t.Errorf("%s %q: %s tests one program and runs another, yet is read as ours (or the program run was not found in %s)", a.Name, exe, mixed, c)
			}
		}
		if c, err := gemini.HookCommandOn("windows", exe, event); err == nil && !IsOwnHookCommand(c, "gemini") {
			t.Errorf("gemini %q %q: %s is not read as ours", exe, event, c)
		}
		// A JSON file holds valid UTF-8 only.
		if got := psUnquote(PSQuote(text)); utf8.ValidString(text) && got != text {
			t.Errorf("PSQuote(%q) reads back as %q", text, got)
		}
	})
}

// psUnquote reads what PSQuote writes as PowerShell does: single-quoted
// strings (a doubled quote of any of the four kinds is one), joined by
// +"`n"+.
func psUnquote(s string) string {
	var b strings.Builder
	rs := []rune(s)
	isQ := func(r rune) bool { return r == '\'' || r >= '\u2018' && r <= '\u201B' }
	for i := 0; i < len(rs); {
		if !isQ(rs[i]) {
			return "<bad start>"
		}
		i++
		for ; i < len(rs); i++ {
			if isQ(rs[i]) {
				if i+1 < len(rs) && isQ(rs[i+1]) {
					b.WriteRune(rs[i])
					i++
					continue
				}
				break
			}
			b.WriteRune(rs[i])
		}
		i++ // the closing quote
		if rest := string(rs[min(i, len(rs)):]); strings.HasPrefix(rest, "+\"`n\"+") {
			b.WriteByte('\n')
			i += len([]rune("+\"`n\"+"))
		} else if rest != "" {
			return "<bad join>"
		}
	}
	return b.String()
}
