package agents

import (
	"errors"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// golden is one agent round trip: the agent's payload in, the event and
// host fields it decodes to, an outcome, and the exact reply bytes.
type golden struct {
	name    string
	payload string
	event   string // command-line EVENT argument
	// canon is the canonical event expected ("" for an event not served).
	canon string
	// fields are host fields the decoded call must carry (a subset).
	fields  map[string]any
	outcome protocol.Outcome
	stdout  string
	exit    int
}

func runGolden(t *testing.T, a *Agent, cases []golden) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := a.Decode([]byte(tc.payload), tc.event)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			got := ""
			if c.Event != nil {
				got = c.Event.Name
			}
			if got != tc.canon {
				t.Fatalf("event = %q, want %q", got, tc.canon)
			}
			for k, want := range tc.fields {
				if g := pyjson.Encode(c.Fields[k], pyjson.Compact); string(g) != string(pyjson.Encode(want, pyjson.Compact)) {
					t.Errorf("field %s = %s, want %s", k, g, pyjson.Encode(want, pyjson.Compact))
				}
			}
			o := tc.outcome
			r := a.Encode(c, &o)
			if string(r.Stdout) != tc.stdout || r.Exit != tc.exit || len(r.Stderr) != 0 {
				t.Errorf("reply = exit %d stdout %q stderr %q\nwant    exit %d stdout %q", r.Exit, r.Stdout, r.Stderr, tc.exit, tc.stdout)
			}
		})
	}
}

func TestRegistry(t *testing.T) {
	for _, n := range Names() {
		a, ok := Lookup(n)
		if !ok || a.Name != n || a.Title == "" {
			t.Fatalf("Lookup(%q) = %v, %v", n, a, ok)
		}
		for ae, canon := range a.Events {
			if _, ok := protocol.Lookup(canon); !ok {
				t.Errorf("%s: event %s maps to %q, not a catalog event", n, ae, canon)
			}
		}
	}
	if _, ok := Lookup("vim"); ok {
		t.Fatal("Lookup(vim) found an agent")
	}
}

func TestDecodeUnreadablePayload(t *testing.T) {
	for _, n := range Names() {
		a, _ := Lookup(n)
		for _, p := range []string{"", "not json", "[1,2]", `"str"`, `{"a":1} trailing`} {
			c, err := a.Decode([]byte(p), "")
			if !errors.Is(err, ErrNotJSON) {
				t.Errorf("%s: Decode(%q) err = %v, want ErrNotJSON", n, p, err)
			}
			if c == nil || c.Event != nil {
				t.Errorf("%s: Decode(%q) call = %+v, want a call without event", n, p, c)
			}
			if r := a.Deny(c, "x"); len(r.Stdout) != 0 || r.Exit != 0 {
				t.Errorf("%s: Deny without an event = %+v, want Quiet", n, r)
			}
		}
	}
}

// An empty stdin (hook run by hand at a terminal, or an agent that sent
// nothing) is said to be empty, not Go's bare "EOF".
func TestDecodeEmptyPayloadSaysSo(t *testing.T) {
	a, _ := Lookup("claude")
	for _, p := range []string{"", " \n"} {
		_, err := a.Decode([]byte(p), "PreToolUse")
		if err == nil || !strings.Contains(err.Error(), "stdin is empty") || strings.HasSuffix(err.Error(), "EOF") {
			t.Errorf("Decode(%q) err = %v, want it to say stdin is empty", p, err)
		}
	}
}

func TestEncodeNothingIsQuiet(t *testing.T) {
	for _, n := range Names() {
		a, _ := Lookup(n)
		for _, ae := range a.AgentEvents() {
			c, err := a.Decode([]byte(`{}`), ae)
			if err != nil || c.Event == nil {
				t.Fatalf("%s %s: Decode = %+v, %v", n, ae, c, err)
			}
			r := a.Encode(c, &protocol.Outcome{Event: c.Event.Name, Decision: protocol.DecisionNone})
			if len(r.Stdout) != 0 || r.Exit != 0 || len(r.Stderr) != 0 {
				t.Errorf("%s %s: empty outcome encodes to %+v, want Quiet", n, ae, r)
			}
		}
	}
}

// FuzzDecode: any payload decodes without panicking, to a call whose
// reply for any decision is well-formed JSON (or nothing) and exit 0 or 2.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"Stop","last_assistant_message":"done","stop_hook_active":true}`,
		`{"hook_event_name":"UserPromptSubmit","prompt":"hi"}`,
		`{"hook_event_name":"preToolUse","tool_name":"Shell","tool_input":"{\"command\":\"ls\"}"}`,
		`{"hook_event_name":"beforeShellExecution","command":"rm -rf /"}`,
		`{"hook_event_name":"stop","loop_count":1}`,
		`{"hook_event_name":"afterFileEdit","file_path":"a","edits":[{"old_string":"a","new_string":"b"}]}`,
		`{"hook_event_name":"preToolUse","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}`,
		`{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"AfterTool","tool_name":"read_file","tool_response":{"llmContent":[{"text":"a"}]}}`,
		`{"hook_event_name":"AfterAgent","prompt_response":"done","stop_hook_active":true}`,
		`{"hook_event_name":"BeforeModel","llm_request":{"model":7}}`,
		`{"agent_action_name":"pre_run_command","tool_info":{"command_line":"ls","cwd":7}}`,
		`{"agent_action_name":"post_mcp_tool_use","tool_info":{"mcp_tool_arguments":"{\"a\":1}","mcp_result":[1]}}`,
		`{"hookName":"PreToolUse","preToolUse":{"toolName":"use_mcp_tool","parameters":{"arguments":"[1]"}}}`,
		`{"hookName":"tool_call","tool_call":{"name":"x","input":"{"}}`,
		`{"hook_event_name":"preToolUse","tool_name":"fs_write","tool_input":{"command":"str_replace","path":"a","old_str":"x","new_str":"y"}}`,
		`{"hook_event_name":"postToolUse","tool_name":"execute_bash","tool_input":{"command":"ls"},"tool_response":{"success":true,"result":["a"]}}`,
		`{"hook_event_name":"userPromptSubmit","cwd":"/p","prompt":"hi"}`,
		`{"hookEventName":"PreToolUse","sessionId":"s","tool_name":"run_in_terminal","tool_input":{"command":"ls"}}`,
		`{"hookEventName":"Stop","stop_hook_active":false}`, `{"hookEventName":"SessionStart","source":"new"}`,
		`{"hook_event_name":"PreSkillShellCommand","tool_name":"Bash","tool_input":{"command":"ls"},"command_name":"x","invoked_by":"user"}`,
		`not json`, `[]`, `{"hook_event_name":7}`, `{"hookEventName":7}`,
	} {
		for _, n := range Names() {
			f.Add(n, s)
		}
	}
	f.Fuzz(func(t *testing.T, agent, payload string) {
		a, ok := Lookup(agent)
		if !ok {
			return
		}
		c, err := a.Decode([]byte(payload), "")
		if err != nil {
			// A payload that is no object, or a call whose arguments are
			// text that is none (its event known, to refuse it by).
			if c == nil || !errors.Is(err, ErrNotJSON) && !(errors.Is(err, ErrArgsNotJSON) && c.Event != nil) {
				t.Fatalf("Decode error %v, call %v", err, c)
			}
			return
		}
		if c.Event == nil {
			return
		}
		for _, d := range []protocol.Decision{protocol.DecisionNone, protocol.DecisionBlock, protocol.DecisionAsk, protocol.DecisionAllow} {
			res := "out"
			o := &protocol.Outcome{Event: c.Event.Name, Decision: d, Message: "m", Context: "c", Args: map[string]any{"command": "x"}, Result: &res, Stop: d == protocol.DecisionAsk}
			for _, r := range []Reply{a.Encode(c, o), a.Deny(c, "r")} {
				if r.Exit != 0 && r.Exit != 2 && !(a.textReplies && r.Exit == 1) {
					t.Fatalf("exit %d", r.Exit)
				}
				if len(r.Stdout) > 0 && !a.textReplies {
					if _, err := pyjson.Decode(r.Stdout); err != nil {
						t.Fatalf("stdout %q is not JSON: %v", r.Stdout, err)
					}
				}
			}
		}
	})
}
