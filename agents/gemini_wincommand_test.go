package agents

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestGeminiHookCommandOnWindows pins Gemini CLI's "command" as install
// writes it on Windows, where Gemini runs it with PowerShell -Command: the
// PowerShell form (Get-Command check, or Test-Path of the absolute path,
// try { & 'EXE' } catch { the refusal }, exit $LASTEXITCODE), the
// POSIX form on every other system, and no change for the agents that
// have a Windows key of their own or run the POSIX form through Git Bash.
func TestGeminiHookCommandOnWindows(t *testing.T) {
	geminiDeny := `{"decision":"deny","reason":"` + MissingReason + `"}`
	for _, tc := range []struct {
		goos, exe, event, want string
	}{
		{"windows", "", "BeforeTool",
			`if (-not (Get-Command hermes-hooks -ErrorAction SilentlyContinue)) { [Console]::Out.Write('` + geminiDeny + `'+"` + "`n" + `"+''); exit 0 }; try { & hermes-hooks hook gemini BeforeTool --agent-timeout 600 } catch { [Console]::Out.Write('` + geminiDeny + `'+"` + "`n" + `"+''); exit 0 }; exit $LASTEXITCODE`},
		{"windows", "", "SessionEnd",
			`if (-not (Get-Command hermes-hooks -ErrorAction SilentlyContinue)) { exit 0 }; try { & hermes-hooks hook gemini SessionEnd --agent-timeout 600 } catch { exit 0 }; exit $LASTEXITCODE`},
		{"windows", "C:/Users/o'neil/bin/hermes-hooks.exe", "AfterTool",
			`if (-not (Test-Path -LiteralPath 'C:\Users\o''neil\bin\hermes-hooks.exe' -PathType Leaf)) { exit 0 }; try { & 'C:\Users\o''neil\bin\hermes-hooks.exe' hook gemini AfterTool --agent-timeout 600 } catch { exit 0 }; exit $LASTEXITCODE`},
		{"windows", "C:/hh/hermes-hooks.exe", "BeforeTool",
			`if (-not (Test-Path -LiteralPath 'C:\hh\hermes-hooks.exe' -PathType Leaf)) { [Console]::Out.Write('{"decision":"deny","reason":"` + MissingProgramReason + `"}'+"` + "`n" + `"+''); exit 0 }; try { & 'C:\hh\hermes-hooks.exe' hook gemini BeforeTool --agent-timeout 600 } catch { [Console]::Out.Write('{"decision":"deny","reason":"` + MissingProgramReason + `"}'+"` + "`n" + `"+''); exit 0 }; exit $LASTEXITCODE`},
		{"linux", "", "BeforeTool", gemini.HookCommand("", "BeforeTool")},
		{"darwin", "/usr/local/bin/hermes-hooks", "BeforeTool", gemini.HookCommand("/usr/local/bin/hermes-hooks", "BeforeTool")},
	} {
		got, err := gemini.HookCommandOn(tc.goos, tc.exe, tc.event)
		if err != nil || got != tc.want {
			t.Errorf("%s %q %s:\n got %s (%v)\nwant %s", tc.goos, tc.exe, tc.event, got, err, tc.want)
		}
		if !gemini.isOwn(got) || !IsOwnHookCommand(got, "gemini") || !IsOwnHookCommand(got, "") {
			t.Errorf("%s %s: %s is not read as ours", tc.goos, tc.event, got)
		}
		if IsOwnHookCommand(got, "qwen") || IsOwnHookCommand(got, "copilot") {
			t.Errorf("%s %s: taken for another agent's", tc.goos, tc.event)
		}
	}
	// Every event install registers; and the agents whose "command" is
	// POSIX on Windows too (their Windows line, if any, has its own key;
	// Qwen Code's PowerShell form: qwen_wincommand_test.go).
	for _, ev := range gemini.HookFile.Events {
		for _, exe := range []string{"", "C:/hh/hermes-hooks.exe"} {
			prefix := "if (-not (Get-Command hermes-hooks "
			if exe != "" {
				prefix = "if (-not (Test-Path -LiteralPath 'C:\\hh\\hermes-hooks.exe' -PathType Leaf)) "
			}
			if got, err := gemini.HookCommandOn("windows", exe, ev); err != nil || !strings.HasPrefix(got, prefix) || !IsOwnHookCommand(got, "gemini") {
				t.Errorf("gemini %s %q: %q, %v", ev, exe, got, err)
			}
		}
	}
	for _, a := range All() {
		if a.HookFile.CommandShellWindows != NoWindowsKey || len(a.HookFile.Events) == 0 {
			continue
		}
		ev := a.HookFile.Events[0]
		if got, err := a.HookCommandOn("windows", "C:/hh/hermes-hooks.exe", ev); err != nil || got != a.HookCommand("C:/hh/hermes-hooks.exe", ev) {
			t.Errorf("%s on Windows: %q, %v", a.Name, got, err)
		}
	}
}

// TestGeminiWindowsMissingIsDeny: where hermes-hooks is not on PATH, the
// PowerShell prologue writes what Gemini CLI reads as a refusal of a
// gating event: its JSON decision "deny" on stdout (read whatever the exit
// code), exactly the agent's own DenyAnyCaller bytes, exit 0, as the POSIX
// prologue writes them.
func TestGeminiWindowsMissingIsDeny(t *testing.T) {
	for _, ev := range []string{"BeforeTool"} {
		c, err := gemini.HookCommandOn("windows", "", ev)
		if err != nil {
			t.Fatal(err)
		}
		const open = "[Console]::Out.Write("
		i, j := strings.Index(c, open), strings.Index(c, "); exit 0 }")
		if i < 0 || j < i {
			t.Fatalf("%s: no stdout write then exit 0 in %s", ev, c)
		}
		out := psUnquote(c[i+len(open) : j])
		want := gemini.MissingReply(ev, MissingReason)
		if out != string(want.Stdout) || want.Exit != 0 {
			t.Errorf("%s: writes %q, want %q (exit %d)", ev, out, want.Stdout, want.Exit)
		}
		var reply struct{ Decision, Reason string }
		if err := json.Unmarshal([]byte(out), &reply); err != nil || reply.Decision != "deny" || reply.Reason != MissingReason {
			t.Errorf("%s: Gemini reads %+v (%v), not a deny", ev, reply, err)
		}
	}
}

// TestGeminiWindowsCommandHostile is the attack table: an event or a
// program path that PowerShell would read as syntax is quoted or refused;
// a path that names nothing on Windows is refused; and a line that only
// looks like ours (something run before or after it, another agent's, a
// POSIX-only agent's PowerShell line) is not ours, so that install keeps
// it and uninstall and doctor leave it alone.
func TestGeminiWindowsCommandHostile(t *testing.T) {
	for _, ev := range []string{"", "Before;calc", "Before$(calc)", "Before Tool", "Before\nx", "Before'x", "Before`x", "Before|x"} {
		if got, err := gemini.HookCommandOn("windows", "", ev); err == nil {
			t.Errorf("event %q: written as %s", ev, got)
		}
	}
	for _, exe := range []string{"/usr/bin/hermes-hooks", `\\server\share\hh.exe`, "hermes-hooks.exe", "C:\\a\nb\\h.exe", "C:\\a\rb\\h.exe", "C:\\a\x00b\\h.exe", "C:\\\xff\\h.exe"} {
		if got, err := gemini.HookCommandOn("windows", exe, "BeforeTool"); err == nil {
			t.Errorf("exe %q: written as %s", exe, got)
		}
	}
	for exe, quoted := range map[string]string{
		`C:\a'; calc; '\h.exe`:         `'C:\a''; calc; ''\h.exe'`,
		"C:\\a\u2019; calc\\h.exe":     "'C:\\a\u2019\u2019; calc\\h.exe'",
		`C:\$(calc)\"x"\h.exe`:         `'C:\$(calc)\"x"\h.exe'`,
		"C:\\Program Files (x86)\\h h": `'C:\Program Files (x86)\h h'`,
	} {
		got, err := gemini.HookCommandOn("windows", exe, "BeforeTool")
		if err != nil || !strings.Contains(got, "; try { & "+quoted+" hook gemini BeforeTool") || !IsOwnHookCommand(got, "gemini") {
			t.Errorf("exe %q: %s, %v", exe, got, err)
		}
	}
	ps, _ := gemini.HookCommandOn("windows", "", "SessionEnd")
	for _, c := range []string{
		"calc; " + ps,
		ps + "; calc",
		strings.Replace(ps, "{ exit 0 }", "{ calc; exit 0 }", 1),
		strings.Replace(ps, "; exit $LASTEXITCODE", "; calc; exit $LASTEXITCODE", 1),
		strings.Replace(ps, "} catch { exit 0 }", "} catch { calc; exit 0 }", 1),
		strings.Replace(ps, " } catch {", "; calc } catch {", 1),
		strings.Replace(ps, "hook gemini", "hook claude", 1),
		strings.Replace(ps, "& hermes-hooks", "& 'C:\\evil.exe'; & hermes-hooks", 1),
	} {
		if IsOwnHookCommand(c, "gemini") || IsOwnHookCommand(c, "") || gemini.isOwn(c) {
			t.Errorf("taken for ours: %s", c)
		}
	}
	// Copilot's PowerShell line belongs under its powershell key: in its
	// "command", which Copilot runs with bash, it is not ours.
	cp, _ := copilot.WindowsHookCommand("", "PreToolUse")
	if IsOwnHookCommand(cp, "copilot") || IsOwnHookCommand(cp, "") {
		t.Errorf("copilot's PowerShell line taken for its command: %s", cp)
	}
}

// TestGeminiWindowsInstallUninstall: the PowerShell form in Gemini's
// settings is ours to doctor (FileEntry.Own), to bring up to date without
// a second entry (install on Windows again, or on Linux, which writes the
// POSIX form in its place) and to remove; a user's entry beside it stays.
func TestGeminiWindowsInstallUninstall(t *testing.T) {
	onWindows := func(ev string) string {
		c, _ := gemini.HookCommandOn("windows", "C:/hh/hermes-hooks.exe", ev)
		return c
	}
	doc, _, err := gemini.Install(nil, onWindows)
	if err != nil {
		t.Fatal(err)
	}
	entries := gemini.Entries(doc)
	if len(entries) != len(gemini.HookFile.Events) {
		t.Fatalf("%d entries", len(entries))
	}
	for _, e := range entries {
		if !e.Own("gemini") || e.Command != onWindows(e.Event) || e.Windows != "" {
			t.Errorf("%s: %q (own %v)", e.Event, e.Command, e.Own("gemini"))
		}
	}
	if _, changed, _ := gemini.Install(doc, onWindows); changed {
		t.Error("installing the same form again changed the file")
	}
	posix, changed, err := gemini.Install(doc, func(ev string) string { return gemini.HookCommand("", ev) })
	if err != nil || !changed {
		t.Fatalf("install on Linux over the Windows form: changed %v, %v", changed, err)
	}
	if got := gemini.Entries(posix); len(got) != len(gemini.HookFile.Events) || got[0].Command != gemini.HookCommand("", got[0].Event) {
		t.Errorf("after install on Linux: %+v", got)
	}
	if doc, _ = gemini.Uninstall(doc); len(doc) != 0 {
		t.Errorf("uninstall left %v", doc)
	}
	// A look-alike of a user's is not removed.
	ps := onWindows("BeforeTool")
	doc, _, _ = gemini.Install(nil, onWindows)
	h := firstHandler(t, doc, "BeforeTool")
	setFirstHandler(doc, "BeforeTool", h.Set("command", ps+"; calc"))
	if e := gemini.Entries(doc)[0]; e.Event == "BeforeTool" && e.Own("gemini") {
		t.Error("a look-alike is taken for ours")
	}
	doc, _ = gemini.Uninstall(doc)
	if got := gemini.Entries(doc); len(got) != 1 || got[0].Command != ps+"; calc" {
		t.Errorf("uninstall with a user's look-alike left %+v", got)
	}
}
