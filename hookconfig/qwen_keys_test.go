package hookconfig

import (
	"strings"
	"testing"
)

// TestQwenCommandKeysQwenDoesNotRead: Claude Code's keys that Qwen Code
// 0.24.4 does not read on a command hook (if, once, asyncRewake, args:
// HookRunner reads name, command, timeout, env, shell and async) must not
// change how hermes-hooks runs a Qwen settings file's hook. Read as Claude
// Code reads them, an "if" or a "once" ran a guard on fewer calls than
// Qwen runs it on, and "args" ran another command line. A shell other
// than "powershell" is bash to Qwen, not a hook that cannot run.
func TestQwenCommandKeysQwenDoesNotRead(t *testing.T) {
	data := `{"hooks":{"PreToolUse":[{"matcher":"run_shell_command","hooks":[
		{"type":"command","command":"./if.sh","if":"Bash(git *)"},
		{"type":"command","command":"./once.sh","once":true},
		{"type":"command","command":"./rewake.sh","async":false,"asyncRewake":true},
		{"type":"command","command":"./args.sh --strict","args":["x"]},
		{"type":"command","command":"./zsh.sh","shell":"zsh"},
		{"type":"command","command":"./async.sh","async":true}]}]}}`
	entries, warns, err := parseQwenFile([]byte(data), "/p/.qwen/settings.json", 0)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*Entry{}
	for _, e := range entries {
		got[e.Text()] = e
	}
	for _, cmd := range []string{"./if.sh", "./once.sh", "./rewake.sh", "./args.sh --strict", "./zsh.sh", "./async.sh"} {
		e := got[cmd]
		if e == nil {
			t.Errorf("%s: no entry (have %v)", cmd, keys(got))
			continue
		}
		if e.If != "" || e.Once || e.AsyncRewake || e.CannotRun() != "" {
			t.Errorf("%s: if=%q once=%v asyncRewake=%v cannotRun=%q; Qwen runs it on every call its matcher selects",
				cmd, e.If, e.Once, e.AsyncRewake, e.CannotRun())
		}
		if e.Async != (cmd == "./async.sh") {
			t.Errorf("%s: async=%v", cmd, e.Async)
		}
	}
	all := ""
	for _, w := range warns {
		all += w.String() + "\n"
	}
	for _, k := range []string{".if", ".once", ".asyncRewake", ".args"} {
		if !strings.Contains(all, k+" is ignored") {
			t.Errorf("no warning for %s:\n%s", k, all)
		}
	}
}

func keys(m map[string]*Entry) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
