package agents

import (
	"slices"
	"testing"
)

// TestClineWindowsDirRule: Cline on Windows finds a hook as <Event>.ps1
// only, its name compared without case (cline/cline#9552: findWindowsHook
// stats <dir>\<Event>.ps1 on a case-insensitive file system); any other
// file named after an event (no extension: Cline's Unix name; .cmd, .bat,
// .exe) is one it never sees, and other names are none of its.
func TestClineWindowsDirRule(t *testing.T) {
	cline, _ := Lookup("cline")
	r := cline.DirRule("windows")
	if r == nil {
		t.Fatal("cline has no Windows rule for its hooks folder")
	}
	for _, goos := range []string{"linux", "darwin", "freebsd"} {
		if cline.DirRule(goos) != nil {
			t.Errorf("%s: a rule, where the execute bit decides", goos)
		}
	}
	events := cline.DirEvents()
	if !slices.Contains(events, "PreToolUse") || slices.Contains(events, "Notification") {
		t.Fatalf("events %v: want Cline's hook files hermes-hooks reads (Notification is not served)", events)
	}
	for _, tc := range []struct {
		name, event string
		hook        bool
	}{
		{"PreToolUse.ps1", "PreToolUse", true},
		{"pretooluse.PS1", "PreToolUse", true},
		{"TaskStart.ps1", "TaskStart", true},
		{"PreToolUse", "PreToolUse", false},
		{"PreToolUse.cmd", "PreToolUse", false},
		{"PreToolUse.bat", "PreToolUse", false},
		{"PreToolUse.exe", "PreToolUse", false},
		{"posttooluse.CMD", "PostToolUse", false},
		{"PreToolUse.ps1.bak", "", false},
		{"PreToolUseX.ps1", "", false},
		{"Notification.ps1", "", false},
		{"README.md", "", false},
		{".ps1", "", false},
	} {
		ev, hook := r.Classify(tc.name, events)
		if ev != tc.event || hook != tc.hook {
			t.Errorf("%s: event %q, hook %v; want %q, %v", tc.name, ev, hook, tc.event, tc.hook)
		}
	}
	want := []string{"powershell.exe", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File", `C:\p\.clinerules\hooks\PreToolUse.ps1`}
	if got := r.Argv(`C:\p\.clinerules\hooks\PreToolUse.ps1`); !slices.Equal(got, want) {
		t.Errorf("argv %q, want %q", got, want)
	}
	if got := r.Why("PreToolUse"); got != "Cline on Windows runs only PreToolUse.ps1, through PowerShell" {
		t.Errorf("why: %q", got)
	}
}
