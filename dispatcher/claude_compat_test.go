package dispatcher

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// CLAUDE_PROJECT_DIR stays the project root Claude Code was launched in
// when the session's cwd moves (the spec's §5, "Working dir"): under `hook
// claude` the hooks' environment is Claude Code's, which names it, and a
// hook of your own settings (no project of its own) gets that root, not
// the payload's cwd. A project's file's hook keeps its project; without
// the variable, the session's directory stands in, as before.
func TestClaudeProjectDirFromTheAgent(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX shell hook")
	}
	proj := t.TempDir()
	sub := filepath.Join(proj, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	settings := `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"printf '%s' \"$CLAUDE_PROJECT_DIR\""}]}]}}`
	fields := map[string]any{"user_message": "hi", "cwd": sub}
	d := settingsDispatcher(t, settings, Options{Env: append(os.Environ(), "CLAUDE_PROJECT_DIR="+proj), Cwd: sub})
	if o := dispatch(t, d, "pre_llm_call", fields); o.Context != proj {
		t.Fatalf("user-level hook saw CLAUDE_PROJECT_DIR=%q, want the launch root %q (%+v)", o.Context, proj, o.Hooks)
	}
	// A value that names no directory is no project: the session's cwd.
	d = settingsDispatcher(t, settings, Options{Env: append(os.Environ(), "CLAUDE_PROJECT_DIR="+filepath.Join(proj, "gone")), Cwd: sub})
	if o := dispatch(t, d, "pre_llm_call", fields); o.Context != sub {
		t.Fatalf("a stale CLAUDE_PROJECT_DIR: hook saw %q, want the cwd %q", o.Context, sub)
	}
	env := []string{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CLAUDE_PROJECT_DIR=") {
			env = append(env, kv)
		}
	}
	d = settingsDispatcher(t, settings, Options{Env: env, Cwd: sub})
	if o := dispatch(t, d, "pre_llm_call", fields); o.Context != sub {
		t.Fatalf("no agent project: hook saw %q, want the cwd %q", o.Context, sub)
	}
	// An entry with a project of its own (a project's settings file) keeps it.
	other := t.TempDir()
	entries, _, err := parseClaudeSettings([]byte(settings), filepath.Join(other, ".claude", "settings.json"))
	if err != nil || len(entries) != 1 || entries[0].ProjectDir != other {
		t.Fatalf("entries %+v err %v", entries, err)
	}
	d, err = New(&hookconfig.Config{Entries: entries, Tools: protocol.DefaultTools()},
		Options{Gate: AllowAll, Env: append(os.Environ(), "CLAUDE_PROJECT_DIR="+proj), Cwd: sub})
	if err != nil {
		t.Fatal(err)
	}
	if o := dispatch(t, d, "pre_llm_call", fields); o.Context != other {
		t.Fatalf("project hook saw %q, want its project %q", o.Context, other)
	}
}

// Claude Code runs a command once per firing by (source root, shell,
// command, args, if) (the spec's §5, "Dedup"): the same command under two
// different if rules that both fit the call runs twice.
func TestClaudeDedupKeepsIfApart(t *testing.T) {
	entries, _, err := parseClaudeSettings([]byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[
	  {"type":"command","command":"guard.sh","if":"Bash(ls)"},
	  {"type":"command","command":"guard.sh","if":"Bash(l*)"},
	  {"type":"command","command":"guard.sh","if":"Bash(l*)"}]}]}}`), "s.json")
	if err != nil {
		t.Fatal(err)
	}
	d, err := New(&hookconfig.Config{Entries: entries, Tools: protocol.DefaultTools()}, Options{Gate: AllowAll})
	if err != nil {
		t.Fatal(err)
	}
	ev, _ := protocol.Lookup("PreToolUse")
	got := d.selectFor(ev, map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}})
	if len(got) != 2 || got[0].If != "Bash(ls)" || got[1].If != "Bash(l*)" {
		t.Fatalf("selected %d entries (%v), want one per if rule", len(got), got)
	}
	if got := d.selectFor(ev, map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "lsof"}}); len(got) != 1 {
		t.Fatalf("lsof: selected %d, want the Bash(l*) copy once", len(got))
	}
}

// withoutEnv is os.Environ() less the named variables.
func withoutEnv(names ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(names, name) {
			env = append(env, kv)
		}
	}
	return env
}

// Claude Code's SessionEnd hooks share one budget (the spec's §5,
// "Timeout"): 1.5 s, raised to the largest timeout a hook of the firing
// configures, up to 60 s; CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS (ms)
// replaces it. A hook that configures none is cut at the budget, not at its
// 600 s default; one configured hook's timeout raises it for all of them.
// Hermes-dialect hooks of the event keep Hermes' per-hook timeouts.
func TestClaudeSessionEndBudget(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX shell hooks")
	}
	dir := t.TempDir()
	slow := script(t, dir, "slow.sh", "exec sleep 5")
	env := withoutEnv(budgetVar)
	end := map[string]any{"session_id": "s", "reason": "other"}
	// The variable: 300 ms for every Claude hook of the firing.
	d := settingsDispatcher(t, `{"hooks":{"SessionEnd":[{"hooks":[{"type":"command","command":"`+slow+`"}]}]}}`,
		Options{Env: append(slices.Clip(env), budgetVar+"=300")})
	if r := onlyReport(t, dispatch(t, d, "on_session_end", end)); !r.TimedOut {
		t.Fatalf("a SessionEnd hook outlived the %s budget: %+v", budgetVar, r)
	}
	// No configured timeout: the 1.5 s budget.
	d = settingsDispatcher(t, `{"hooks":{"SessionEnd":[{"hooks":[{"type":"command","command":"`+slow+`"}]}]}}`, Options{Env: env})
	if r := onlyReport(t, dispatch(t, d, "on_session_end", end)); !r.TimedOut {
		t.Fatalf("an unconfigured SessionEnd hook was not cut at the 1.5 s budget: %+v", r)
	}
	// A hook configuring 10 s raises the budget for its sibling too: the
	// two-second hook (the reviewer's sleep 3, shorter) finishes.
	done := script(t, dir, "done.sh", `sleep 2; echo finished >> `+filepath.Join(dir, "ran"))
	d = settingsDispatcher(t, `{"hooks":{"SessionEnd":[{"hooks":[{"type":"command","command":"`+done+`"},
	  {"type":"command","command":"true","timeout":10}]}]}}`, Options{Env: env})
	o := dispatch(t, d, "on_session_end", end)
	if data, _ := os.ReadFile(filepath.Join(dir, "ran")); string(data) != "finished\n" || o.Hooks[0].TimedOut {
		t.Fatalf("the budget raised to 10 s cut a 2 s hook: %+v", o.Hooks)
	}
	// A Hermes hook of on_session_end is no Claude Code hook.
	second := script(t, dir, "second.sh", "exec sleep 1")
	cfg, err := hookconfig.ParseConfig([]byte(hookYAML("on_session_end", second)), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if d, err = New(cfg, Options{Gate: AllowAll, Env: append(slices.Clip(env), budgetVar+"=300")}); err != nil {
		t.Fatal(err)
	}
	if r := onlyReport(t, dispatch(t, d, "on_session_end", end)); r.TimedOut {
		t.Fatalf("a Hermes hook was held to Claude Code's SessionEnd budget: %+v", r)
	}
}

// CLAUDE_CODE_SHELL_PREFIX (the spec's §5, "Shell"): Claude Code hands
// every shell-form hook command to that program as one argument (PREFIX
// 'COMMAND', run by the shell). The variable is read from the hooks'
// environment, the agent's, as PATH is; its value names one program and is
// never read as shell code; the program is among the files the gate checks
// (and pins), so a prefix the approval did not see is a changed hook. Exec
// form (args) and Hermes hooks are not wrapped.
func TestClaudeShellPrefix(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX shell hooks")
	}
	dir := t.TempDir()
	prefix := script(t, dir, "audit.sh", `printf 'audit:%s\n' "$1"; exec /bin/sh -c "$1"`)
	var seen [][]string
	gate := GateFunc(func(h Invocation) Verdict {
		seen = append(seen, h.Files())
		return Verdict{Kind: VerdictRun}
	})
	env := append(withoutEnv(prefixVar), prefixVar+"="+prefix)
	d := settingsDispatcher(t, `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"echo hi | tr h H"}]}]}}`,
		Options{Env: env, Cwd: dir, Gate: gate})
	if o := dispatch(t, d, "pre_llm_call", map[string]any{"user_message": "x"}); o.Context != "audit:echo hi | tr h H\nHi" {
		t.Fatalf("context %q: the command did not run through the prefix (%+v)", o.Context, o.Hooks)
	}
	if len(seen) != 1 || !slices.Contains(seen[0], prefix) {
		t.Fatalf("the gate was not shown the prefix program: %q", seen)
	}
	// A script hook: its own script and the prefix are both checked.
	hook := script(t, dir, "hook.sh", `echo ran`)
	seen = nil
	d = settingsDispatcher(t, `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"`+hook+`"}]}]}}`,
		Options{Env: env, Cwd: dir, Gate: gate})
	if o := dispatch(t, d, "pre_llm_call", map[string]any{"user_message": "x"}); o.Context != "audit:"+hook+"\nran" {
		t.Fatalf("context %q (%+v)", o.Context, o.Hooks)
	}
	if len(seen) != 1 || !slices.Equal(seen[0], []string{hook, prefix}) {
		t.Fatalf("files checked %q, want the hook's script then the prefix", seen)
	}
	// Exec form is not wrapped.
	d = settingsDispatcher(t, `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"`+hook+`","args":[]}]}]}}`,
		Options{Env: env, Cwd: dir})
	if o := dispatch(t, d, "pre_llm_call", map[string]any{"user_message": "x"}); o.Context != "ran" {
		t.Fatalf("exec form: context %q", o.Context)
	}
	// Nor is a Hermes hook.
	cfg, err := hookconfig.ParseConfig([]byte(hookYAML("pre_tool_call", script(t, dir, "h.sh", `echo '{"decision":"block","reason":"plain"}'`))), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if d, err = New(cfg, Options{Gate: AllowAll, Env: env, Cwd: dir}); err != nil {
		t.Fatal(err)
	}
	if o := dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal"}); o.Message != "plain" {
		t.Fatalf("Hermes hook: %+v", o)
	}
	// The value is a program's name, never shell code.
	pwned := filepath.Join(dir, "pwned")
	d = settingsDispatcher(t, `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"echo hi"}]}]}}`,
		Options{Env: append(withoutEnv(prefixVar), prefixVar+"=touch "+pwned+";"), Cwd: dir})
	o := dispatch(t, d, "pre_llm_call", map[string]any{"user_message": "x"})
	if _, err := os.Stat(pwned); err == nil || o.Context == "hi" {
		t.Fatalf("a prefix ran as shell code, or the command ran without it: %+v", o.Hooks)
	}
}

// The variables, spelt as Claude Code reads them.
const (
	budgetVar = "CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS"
	prefixVar = "CLAUDE_CODE_SHELL_PREFIX"
)

// The budget itself: 1.5 s, raised by the largest configured timeout of
// the firing's Claude hooks up to 60 s, the variable in ms over both; no
// budget on other events, and none for Hermes hooks.
func TestClaudeBudgetRule(t *testing.T) {
	end, _ := protocol.Lookup("SessionEnd")
	pre, _ := protocol.Lookup("PreToolUse")
	claude := func(timeout time.Duration, set bool) *hookconfig.Entry {
		return &hookconfig.Entry{Event: end, Dialect: protocol.Claude, Timeout: timeout, TimeoutSet: set}
	}
	hermes := &hookconfig.Entry{Event: end, Dialect: protocol.Hermes, Timeout: 200 * time.Second, TimeoutSet: true}
	for _, c := range []struct {
		name string
		ev   *protocol.Event
		sel  []*hookconfig.Entry
		env  []string
		want time.Duration
	}{
		{"none configured", end, []*hookconfig.Entry{claude(600*time.Second, false)}, nil, 1500 * time.Millisecond},
		{"raised", end, []*hookconfig.Entry{claude(600*time.Second, false), claude(10*time.Second, true)}, nil, 10 * time.Second},
		{"not lowered", end, []*hookconfig.Entry{claude(500*time.Millisecond, true)}, nil, 1500 * time.Millisecond},
		{"capped", end, []*hookconfig.Entry{claude(100*time.Second, true)}, nil, 60 * time.Second},
		{"variable", end, []*hookconfig.Entry{claude(10*time.Second, true)}, []string{budgetVar + "=2500"}, 2500 * time.Millisecond},
		{"variable not a number", end, []*hookconfig.Entry{claude(10*time.Second, true)}, []string{budgetVar + "=soon"}, 10 * time.Second},
		{"hermes only", end, []*hookconfig.Entry{hermes}, nil, 0},
		{"hermes does not raise", end, []*hookconfig.Entry{hermes, claude(600*time.Second, false)}, nil, 1500 * time.Millisecond},
		{"other event", pre, []*hookconfig.Entry{{Event: pre, Dialect: protocol.Claude, Timeout: time.Second, TimeoutSet: true}}, nil, 0},
	} {
		if got := claudeBudget(c.ev, c.sel, c.env); got != c.want {
			t.Errorf("%s: budget %v, want %v", c.name, got, c.want)
		}
	}
}
