package report

import (
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/hookproc"
)

// What a probe's result means, by what came back.
func TestProbeVerdict(t *testing.T) {
	p := probe{token: "0123456789abcdef0123456789abcdef"}
	byName := "command -v hermes-hooks >/dev/null 2>&1 || exit 0; exec hermes-hooks hook claude Stop"
	abs := "'/opt/hermes-hooks' hook claude Stop" // an older install's bare path
	claude, _ := agents.Lookup("claude")
	guarded := claude.HookCommand("/opt/hermes-hooks", "Stop")
	guardedPre := claude.HookCommand("/opt/hermes-hooks", "PreToolUse")
	// Codex's commandWindows lines, as cmd.exe runs them on Windows.
	codex, _ := agents.Lookup("codex")
	winPre, _ := codex.WindowsHookCommand("", "PreToolUse")
	winStop, _ := codex.WindowsHookCommand("", "Stop")
	winAbsPre, _ := codex.WindowsHookCommand(`C:/hh/hermes-hooks.exe`, "PreToolUse")
	winBare := `"C:\hh\hermes-hooks.exe" hook codex Stop` // an older install's
	refusalCmd := string(codex.MissingReply("PreToolUse", agents.MissingReasonCmd).Stdout)
	for _, c := range []struct {
		name    string
		r       hookproc.Result
		command string
		want    string
	}{
		{"answer on stdout", hookproc.Result{Exited: true, ExitCode: 2, Stdout: []byte(`{"reason":"` + agents.ProbePrefix + agents.ProbeAnswer(p.token) + `"}`)}, byName, FireOK},
		{"answer on stderr", hookproc.Result{Exited: true, Stderr: []byte(agents.ProbePrefix + agents.ProbeAnswer(p.token) + ": x\n")}, abs, FireOK},
		{"another token", hookproc.Result{Exited: true, Stderr: []byte(agents.ProbePrefix + agents.ProbeAnswer("ffffffffffffffffffffffffffffffff") + "\n")}, abs, FireNoAnswer},
		{"the token itself", hookproc.Result{Exited: true, Stderr: []byte(agents.ProbePrefix + p.token + "\n")}, abs, FireNoAnswer},
		{"prologue refusal", hookproc.Result{Exited: true, ExitCode: 2, Stderr: []byte(agents.MissingReason + "\n")}, byName, FireNotFound},
		{"prologue silence", hookproc.Result{Exited: true}, byName, FireNotFound},
		{"silence of an absolute path", hookproc.Result{Exited: true}, abs, FireNoAnswer},
		{"guard's refusal", hookproc.Result{Exited: true, ExitCode: 2, Stderr: []byte(agents.MissingProgramReason + "\n")}, guardedPre, FireNotFound},
		{"guard's silence", hookproc.Result{Exited: true}, guarded, FireNotFound},
		{"guarded answer", hookproc.Result{Exited: true, Stderr: []byte(agents.ProbePrefix + agents.ProbeAnswer(p.token) + ": x\n")}, guarded, FireOK},
		{"guarded, older binary's dispatch", hookproc.Result{Exited: true, Stdout: []byte("{}")}, guarded, FireNoAnswer},
		{"shell's not found", hookproc.Result{Exited: true, ExitCode: 127, Stderr: []byte("sh: 1: /opt/hermes-hooks: not found\n")}, abs, FireNotFound},
		{"older binary's dispatch", hookproc.Result{Exited: true, Stdout: []byte("{}")}, abs, FireNoAnswer},
		{"hang", hookproc.Result{TimedOut: true}, abs, FireNoAnswer},
		{"no shell", hookproc.Result{SpawnError: "no such file"}, abs, FireNoAnswer},
		{"cmd.exe prologue's refusal", hookproc.Result{Exited: true, ExitCode: 0, Stdout: []byte(refusalCmd)}, winPre, FireNotFound},
		{"cmd.exe prologue's silence", hookproc.Result{Exited: true}, winStop, FireNotFound},
		{"cmd.exe: not recognized", hookproc.Result{Exited: true, ExitCode: 9009, Stderr: []byte("'hermes-hooks' is not recognized as an internal or external command,\r\n")}, winPre, FireNotFound},
		{"cmd.exe absolute form's refusal", hookproc.Result{Exited: true, Stdout: []byte(string(codex.MissingReply("PreToolUse", agents.MissingProgramReason).Stdout))}, winAbsPre, FireNotFound},
		{"cmd.exe answer", hookproc.Result{Exited: true, ExitCode: 0, Stdout: []byte(`{"reason":"` + agents.ProbePrefix + agents.ProbeAnswer(p.token) + `"}` + "\r\n")}, winPre, FireOK},
		{"cmd.exe older bare path's silence", hookproc.Result{Exited: true}, winBare, FireNoAnswer},
		{"cmd.exe older binary's dispatch", hookproc.Result{Exited: true, Stdout: []byte("{}\r\n")}, winPre, FireNoAnswer},
	} {
		if got, detail := p.verdict(&c.r, c.command); got != c.want {
			t.Errorf("%s: %s (%s), want %s", c.name, got, detail, c.want)
		}
	}
}

// A gating entry that does not fire, or an untrusted folder holding one,
// is a problem; a quiet event's, or an entry that is not ours, is not.
func TestInstallProblems(t *testing.T) {
	no, yes := false, true
	for _, c := range []struct {
		name    string
		check   InstallCheck
		problem int
	}{
		{"all fire", InstallCheck{Entries: []FireCheck{{Gating: true, Status: FireOK}, {Status: FireOK}}}, 0},
		{"guard not found", InstallCheck{Entries: []FireCheck{{Gating: true, Status: FireNotFound}, {Status: FireNotFound}}}, 1},
		{"quiet event silent", InstallCheck{Entries: []FireCheck{{Status: FireNoAnswer}}}, 0},
		{"not ours", InstallCheck{Entries: []FireCheck{{Gating: true, Status: FireNotOurs}}}, 0},
		{"not run", InstallCheck{Entries: []FireCheck{{Gating: true, Status: FireNotRun}}}, 0},
		{"not proved", InstallCheck{Entries: []FireCheck{{Gating: true, Status: FireNotProved}, {Status: FireNotProved}}}, 1},
		{"untrusted guard", InstallCheck{Trusted: &no, Entries: []FireCheck{{Gating: true, Status: FireOK}}}, 1},
		{"trusted", InstallCheck{Trusted: &yes, Entries: []FireCheck{{Gating: true, Status: FireOK}}}, 0},
		{"unreadable", InstallCheck{Error: "bad JSON"}, 1},
	} {
		if got := c.check.Problems(); got != c.problem {
			t.Errorf("%s: %d problems, want %d", c.name, got, c.problem)
		}
	}
}

func TestInstalledLine(t *testing.T) {
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	last := now.Add(-2 * time.Hour)
	for _, c := range []struct {
		check InstallCheck
		want  string
	}{
		{InstallCheck{Title: "Claude Code", Scope: "project", InstalledAt: now.Add(-73 * time.Hour)}, "Claude Code's file here last written 3 days ago; no event recorded since"},
		{InstallCheck{Title: "Codex CLI", Scope: "user", InstalledAt: now.Add(-30 * time.Second)}, "Codex CLI installed for this user less than a minute ago; no event recorded since"},
		{InstallCheck{Title: "Cursor", Scope: "local", InstalledAt: now.Add(-5 * time.Hour), LastEvent: &last}, "Cursor's file here last written 5 hours ago; last event recorded 2 hours ago"},
		{InstallCheck{Title: "Cursor", Scope: "project", InstalledAt: now.Add(-61 * time.Second)}, "Cursor's file here last written 1 minute ago; no event recorded since"},
	} {
		if got := installedLine(&c.check, now); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}
