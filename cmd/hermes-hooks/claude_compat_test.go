package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// claudeEnv is a throwaway HERMES_HOME with a config whose hooks are Claude
// Code scripts, driven through the real `hermes-hooks dispatch` code path
// (run, in process) with real hook processes.
type claudeEnv struct {
	t    *testing.T
	dir  string
	home string
}

func newClaudeEnv(t *testing.T) *claudeEnv {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HERMES_HOME", home)
	t.Setenv("HERMES_ACCEPT_HOOKS", "")
	t.Setenv("HERMES_SAFE_MODE", "")
	return &claudeEnv{t: t, dir: dir, home: home}
}

// script writes an executable script under the env's directory.
func (c *claudeEnv) script(name, body string) string {
	p := filepath.Join(c.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		c.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		c.t.Fatal(err)
	}
	return p
}

func (c *claudeEnv) config(yml string) {
	if err := os.WriteFile(filepath.Join(c.home, "config.yaml"), []byte(yml), 0o644); err != nil {
		c.t.Fatal(err)
	}
}

// dispatch runs `hermes-hooks --accept-hooks dispatch EVENT` with the
// fields on stdin and returns the decoded outcome.
func (c *claudeEnv) dispatch(event string, fields any, extra ...string) protocol.Outcome {
	c.t.Helper()
	in, _ := json.Marshal(fields)
	var out, errb bytes.Buffer
	args := append([]string{"--accept-hooks"}, extra...)
	args = append(args, "dispatch", event)
	if code := run(args, bytes.NewReader(in), &out, &errb); code != 0 {
		c.t.Fatalf("dispatch exit %d: %s", code, errb.String())
	}
	var o protocol.Outcome
	if err := json.Unmarshal(out.Bytes(), &o); err != nil {
		c.t.Fatalf("outcome %q: %v", out.String(), err)
	}
	return o
}

func claudeHook(event, matcher, command string) string {
	y := "hooks:\n  " + event + ":\n    - command: '" + strings.ReplaceAll(command, "'", "''") + "'\n"
	if matcher != "" {
		y += "      matcher: '" + matcher + "'\n"
	}
	return y
}

var hermesTerminal = map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "rm -rf build"}, "session_id": "s1"}

// The compatibility cases of the Claude reference §7.2, each a real script
// run through `hermes-hooks dispatch`.
func TestClaudeCompat(t *testing.T) {
	type check func(t *testing.T, o protocol.Outcome)
	cases := []struct {
		name   string
		event  string // config key (Claude name)
		body   string
		fire   string
		fields any
		check  check
	}{
		{"C01_exit2_multiline_stderr_blocks_verbatim", "PreToolUse",
			`printf 'Dangerous command:\n- rm -rf\n' >&2; exit 2`, "pre_tool_call", hermesTerminal,
			func(t *testing.T, o protocol.Outcome) {
				if !o.Blocked() || o.Message != "Dangerous command:\n- rm -rf" {
					t.Fatalf("outcome %+v", o)
				}
			}},
		{"C02_exit2_json_on_stderr_is_raw_reason", "PreToolUse",
			`echo '{"hookSpecificOutput":{"permissionDecision":"ask"}}' >&2; exit 2`, "pre_tool_call", hermesTerminal,
			func(t *testing.T, o protocol.Outcome) {
				if !o.Blocked() || o.Message != `{"hookSpecificOutput":{"permissionDecision":"ask"}}` {
					t.Fatalf("outcome %+v", o)
				}
			}},
		{"C03_empty_object_is_noop", "PreToolUse", `cat >/dev/null; echo '{}'`, "pre_tool_call", hermesTerminal,
			func(t *testing.T, o protocol.Outcome) {
				r := o.Hooks[0]
				if o.Decision != protocol.DecisionNone || r.Contribution != nil || r.Note != "" || r.Error != "" {
					t.Fatalf("outcome %+v", o)
				}
			}},
		{"C04_continue_true_is_noop", "PreToolUse", `echo '{"continue": true}'`, "pre_tool_call", hermesTerminal,
			func(t *testing.T, o protocol.Outcome) {
				if o.Decision != protocol.DecisionNone || o.Stop || o.Hooks[0].Contribution != nil {
					t.Fatalf("outcome %+v", o)
				}
			}},
		{"C05_deny_without_reason_and_system_message", "PreToolUse",
			`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"},"systemMessage":"rule fired"}'`,
			"pre_tool_call", hermesTerminal,
			func(t *testing.T, o protocol.Outcome) {
				if !o.Blocked() || o.Message != "Blocked by hook" || o.SystemMessage != "rule fired" || o.Context != "" {
					t.Fatalf("outcome %+v", o)
				}
			}},
		{"C06_hook_event_name_mismatch_is_ignored", "PostToolUse",
			`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","additionalContext":"x"}}'`,
			"post_tool_call", hermesTerminal,
			func(t *testing.T, o protocol.Outcome) {
				if o.Decision != protocol.DecisionNone || o.Context != "" || !strings.Contains(o.Hooks[0].Note, "does not match PostToolUse") {
					t.Fatalf("outcome %+v", o)
				}
			}},
		{"C06b_pretool_keys_under_posttooluse_are_ignored", "PostToolUse",
			`echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny"},"systemMessage":"warned"}'`,
			"post_tool_call", hermesTerminal,
			func(t *testing.T, o protocol.Outcome) {
				if o.Decision != protocol.DecisionNone || o.SystemMessage != "warned" {
					t.Fatalf("outcome %+v", o)
				}
			}},
		{"C07_legacy_decision_approve_allows", "PreToolUse", `echo '{"decision":"approve","reason":"safe"}'`, "pre_tool_call", hermesTerminal,
			func(t *testing.T, o protocol.Outcome) {
				if o.Decision != protocol.DecisionAllow || o.Message != "safe" {
					t.Fatalf("outcome %+v", o)
				}
			}},
		{"C07b_legacy_decision_block_denies", "PreToolUse", `echo '{"decision":"block","reason":"tdd: write a test first"}'`, "pre_tool_call", hermesTerminal,
			func(t *testing.T, o protocol.Outcome) {
				if !o.Blocked() || o.Message != "tdd: write a test first" {
					t.Fatalf("outcome %+v", o)
				}
			}},
		{"C07c_empty_reason_is_noop", "PreToolUse", `echo '{"reason": ""}'`, "pre_tool_call", hermesTerminal,
			func(t *testing.T, o protocol.Outcome) {
				if o.Decision != protocol.DecisionNone || o.Hooks[0].Contribution != nil {
					t.Fatalf("outcome %+v", o)
				}
			}},
		{"C09_never_reads_stdin", "UserPromptSubmit",
			`cat <<'JSON'
{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"house rules apply"}}
JSON`, "pre_llm_call", map[string]any{"user_message": strings.Repeat("long prompt ", 200000), "session_id": "s1"},
			func(t *testing.T, o protocol.Outcome) {
				r := o.Hooks[0]
				if o.Context != "house rules apply" || r.ExitCode == nil || *r.ExitCode != 0 || r.Error != "" {
					t.Fatalf("outcome %+v", o)
				}
			}},
		{"C10_plain_stdout_is_context_on_user_prompt_submit", "UserPromptSubmit", `echo "Remember: tests first."`, "pre_llm_call",
			map[string]any{"user_message": "hi"},
			func(t *testing.T, o protocol.Outcome) {
				if o.Context != "Remember: tests first." {
					t.Fatalf("outcome %+v", o)
				}
			}},
		{"C10b_plain_stdout_is_context_on_session_start", "SessionStart", `echo "branch: main"`, "on_session_start", map[string]any{},
			func(t *testing.T, o protocol.Outcome) {
				if o.Context != "branch: main" {
					t.Fatalf("outcome %+v", o)
				}
			}},
		{"C10c_plain_stdout_ignored_elsewhere", "PreToolUse", `echo "just chatter"`, "pre_tool_call", hermesTerminal,
			func(t *testing.T, o protocol.Outcome) {
				if o.Decision != protocol.DecisionNone || o.Context != "" {
					t.Fatalf("outcome %+v", o)
				}
			}},
		{"C12_inline_env_prefix_and_shell_form", "PreToolUse",
			`MODE=ask sh -c 'printf "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"%s\",\"permissionDecisionReason\":\"confirm\"}}" "$MODE"'`,
			"pre_tool_call", hermesTerminal,
			func(t *testing.T, o protocol.Outcome) {
				if o.Decision != protocol.DecisionAsk || o.Message != "confirm" {
					t.Fatalf("outcome %+v", o)
				}
			}},
		{"C14_two_json_objects_are_invalid", "PreToolUse",
			`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}'; echo '{"continue":true}'`,
			"pre_tool_call", hermesTerminal,
			func(t *testing.T, o protocol.Outcome) {
				if o.Decision != protocol.DecisionNone || !strings.Contains(o.Hooks[0].Note, "not valid JSON") {
					t.Fatalf("outcome %+v", o)
				}
			}},
		{"exit2_empty_stderr_blocks_with_default", "PreToolUse", `exit 2`, "pre_tool_call", hermesTerminal,
			func(t *testing.T, o protocol.Outcome) {
				if !o.Blocked() || o.Message != protocol.ClaudeExit2NoStderr {
					t.Fatalf("outcome %+v", o)
				}
			}},
		{"exit1_does_not_block", "PreToolUse", `echo nope >&2; exit 1`, "pre_tool_call", hermesTerminal,
			func(t *testing.T, o protocol.Outcome) {
				if o.Decision != protocol.DecisionNone || !strings.Contains(o.Hooks[0].Note, "non-blocking status code 1: nope") {
					t.Fatalf("outcome %+v", o)
				}
			}},
		{"updated_input_replaces_args", "PreToolUse",
			`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"rm -rf ./build"}}}'`,
			"pre_tool_call", hermesTerminal,
			func(t *testing.T, o protocol.Outcome) {
				if o.Decision != protocol.DecisionAllow || len(o.Args) != 1 || o.Args["command"] != "rm -rf ./build" {
					t.Fatalf("outcome %+v", o)
				}
			}},
		{"continue_false_stops", "PostToolUse", `echo '{"continue":false,"stopReason":"budget exhausted"}'`, "post_tool_call", hermesTerminal,
			func(t *testing.T, o protocol.Outcome) {
				if !o.Stop || o.StopReason != "budget exhausted" {
					t.Fatalf("outcome %+v", o)
				}
			}},
		{"stop_block_keeps_agent_going", "Stop", `echo '{"decision":"block","reason":"run the tests first"}'`, "pre_verify",
			map[string]any{"session_id": "s1", "final_response": "done"},
			func(t *testing.T, o protocol.Outcome) {
				if !o.Blocked() || o.Message != "run the tests first" {
					t.Fatalf("outcome %+v", o)
				}
				if w := string(pyjson.Encode(o.HermesWire(), pyjson.Compact)); w != `{"action":"continue","message":"run the tests first"}` {
					t.Fatalf("wire %s", w)
				}
			}},
		{"posttooluse_block_is_feedback", "PostToolUse", `echo '{"decision":"block","reason":"lint failed: 3 errors"}'`, "post_tool_call", hermesTerminal,
			func(t *testing.T, o protocol.Outcome) {
				if !o.Blocked() || o.Message != "lint failed: 3 errors" {
					t.Fatalf("outcome %+v", o)
				}
				if w := string(pyjson.Encode(o.HermesWire(), pyjson.Compact)); w != `{"context":"lint failed: 3 errors"}` {
					t.Fatalf("wire %s", w)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := newClaudeEnv(t)
			s := env.script("hook.sh", c.body)
			env.config(claudeHook(c.event, "", s))
			c.check(t, env.dispatch(c.fire, c.fields))
		})
	}
}

// C11: relative script paths run from the session's cwd, and
// CLAUDE_PROJECT_DIR is the project root.
func TestClaudeCompat_C11_RelativePathsRunInSessionCwd(t *testing.T) {
	env := newClaudeEnv(t)
	proj := filepath.Join(env.dir, "proj")
	env.script("proj/.claude/hooks/ctx.sh", `echo "{\"hookSpecificOutput\":{\"hookEventName\":\"UserPromptSubmit\",\"additionalContext\":\"pwd=$(pwd) project=$CLAUDE_PROJECT_DIR\"}}"; mkdir -p logs; cat > logs/prompt.json`)
	env.config(claudeHook("UserPromptSubmit", "", "sh .claude/hooks/ctx.sh"))
	o := env.dispatch("pre_llm_call", map[string]any{"cwd": proj, "user_message": "hello"})
	if o.Context != "pwd="+proj+" project="+proj {
		t.Fatalf("outcome %+v", o)
	}
	raw, err := os.ReadFile(filepath.Join(proj, "logs", "prompt.json"))
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	if p["hook_event_name"] != "UserPromptSubmit" || p["prompt"] != "hello" || p["cwd"] != proj || !bytes.HasSuffix(raw, []byte("}\n")) {
		t.Fatalf("Claude payload %s", raw)
	}
}

// C13: a script with a long-running child is killed with its whole group at
// its timeout.
func TestClaudeCompat_C13_LongRunningChildKilled(t *testing.T) {
	env := newClaudeEnv(t)
	s := env.script("tts.sh", `sleep 3600 & wait`)
	env.config(claudeHook("Stop", "", s) + "      timeout: 1\n")
	o := env.dispatch("pre_verify", map[string]any{"session_id": "s"})
	if r := o.Hooks[0]; !r.TimedOut || o.Decision != protocol.DecisionNone {
		t.Fatalf("outcome %+v", o)
	}
}

// Claude scripts see Claude's names even when a Hermes host fires the event.
func TestClaudePayloadFromHermesHost(t *testing.T) {
	env := newClaudeEnv(t)
	capture := filepath.Join(env.dir, "stdin.json")
	s := env.script("cap.sh", "cat > "+capture)
	env.config(claudeHook("PreToolUse", "Bash", s))
	env.dispatch("pre_tool_call", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"}, "session_id": "s9", "tool_call_id": "c1"})
	raw, _ := os.ReadFile(capture)
	var p map[string]any
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	if p["hook_event_name"] != "PreToolUse" || p["tool_name"] != "Bash" || p["session_id"] != "s9" || p["tool_use_id"] != "c1" || p["permission_mode"] != "default" {
		t.Fatalf("payload %s", raw)
	}
	if ti, _ := p["tool_input"].(map[string]any); ti["command"] != "ls" {
		t.Fatalf("payload %s", raw)
	}
}

// The matcher edge cases of the Claude reference §9 item 10, through
// dispatch: does the hook run for this tool?
func TestClaudeMatcherThroughDispatch(t *testing.T) {
	cases := []struct {
		matcher, tool string
		runs          bool
	}{
		{"Edit", "Edit", true}, {"Edit", "NotebookEdit", false}, {"Edit.*", "NotebookEdit", true},
		{"mcp__memory", "mcp__memory__create_entities", false}, {"mcp__memory__.*", "mcp__memory__create_entities", true},
		{"mcp__*", "mcp__memory__create_entities", true}, {"Edit | Write", "Write", true},
		{"Bash,PowerShell", "PowerShell", true}, {"code-reviewer", "code-reviewer-v2", false},
		{"[", "[", false}, {"Bash", "terminal", true},
	}
	for _, c := range cases {
		t.Run(c.matcher+"_"+c.tool, func(t *testing.T) {
			env := newClaudeEnv(t)
			s := env.script("h.sh", `echo '{"decision":"block","reason":"ran"}'`)
			env.config(claudeHook("PreToolUse", c.matcher, s))
			o := env.dispatch("PreToolUse", map[string]any{"tool_name": c.tool, "tool_input": map[string]any{}})
			if ran := len(o.Hooks) == 1 && o.Hooks[0].Ran; ran != c.runs {
				t.Fatalf("matcher %q tool %q: ran=%v want %v (%+v)", c.matcher, c.tool, ran, c.runs, o)
			}
		})
	}
}
