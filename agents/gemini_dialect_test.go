package agents

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// TestGeminiPayload: what a Gemini hook read by hermes-hooks gets, for a
// Hermes host's fields: Gemini's event and tool names and fields, byte for
// byte; and it decodes back to the same event.
func TestGeminiPayload(t *testing.T) {
	env := protocol.PayloadEnv{Cwd: "/w"}
	for _, tc := range []struct {
		declared string
		fields   string
		want     string
	}{
		{"BeforeTool", `{"tool_name":"terminal","args":{"command":"rm -rf /"},"session_id":"s1","task_id":"t"}`,
			`{"session_id":"s1","transcript_path":"","cwd":"/w","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"rm -rf /"},"task_id":"t"}`},
		{"BeforeTool", `{"tool_name":"write_file","args":{"path":"a","content":"x"},"session_id":"s1"}`,
			`{"session_id":"s1","transcript_path":"","cwd":"/w","hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"content":"x","file_path":"a","path":"a"}}`},
		{"AfterTool", `{"tool_name":"Bash","tool_input":{"command":"ls"},"result":"a b","session_id":"s1","cwd":"/p"}`,
			`{"session_id":"s1","transcript_path":"","cwd":"/p","hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"ls"},"tool_response":{"llmContent":"a b","returnDisplay":"a b"},"result":"a b"}`},
		{"BeforeAgent", `{"user_message":"deploy it","session_id":"s1"}`,
			`{"session_id":"s1","transcript_path":"","cwd":"/w","hook_event_name":"BeforeAgent","prompt":"deploy it","user_message":"deploy it"}`},
		{"AfterAgent", `{"final_response":"done","session_id":"s1"}`,
			`{"session_id":"s1","transcript_path":"","cwd":"/w","hook_event_name":"AfterAgent","prompt":"","prompt_response":"done","stop_hook_active":false,"final_response":"done"}`},
		{"SessionStart", `{"session_id":"s1","timestamp":"2026-11-25T10:00:00.000Z"}`,
			`{"session_id":"s1","transcript_path":"","cwd":"/w","hook_event_name":"SessionStart","timestamp":"2026-11-25T10:00:00.000Z","source":"startup"}`},
		{"BeforeModel", `{"session_id":"s1","model":"m"}`,
			`{"session_id":"s1","transcript_path":"","cwd":"/w","hook_event_name":"BeforeModel","llm_request":{"config":{},"messages":[],"model":"m"},"model":"m"}`},
	} {
		t.Run(tc.declared, func(t *testing.T) {
			v, err := pyjson.Decode([]byte(tc.fields))
			if err != nil {
				t.Fatal(err)
			}
			ev, _ := gemini.Canonical(tc.declared)
			got := string(geminiCodec{}.Payload(tc.declared, ev, v.(map[string]any), env))
			if got != tc.want {
				t.Errorf("payload\n got %s\nwant %s", got, tc.want)
			}
			c, err := gemini.Decode([]byte(got), "")
			if err != nil || c.Event != ev {
				t.Errorf("the payload decodes to %+v, %v", c, err)
			}
		})
	}
}

// TestGeminiParseReply: a Gemini hook's reply read as Gemini CLI 0.61's
// code reads it (its hookRunner and the event's consumer), where its
// documentation says otherwise too.
func TestGeminiParseReply(t *testing.T) {
	type want struct {
		decision protocol.Decision
		message  string
		context  string
		args     string
		stop     string
		sys      string
	}
	for _, tc := range []struct {
		name, event    string
		exit           int
		stdout, stderr string
		timedOut       bool
		failClosed     bool
		want           *want
		note           string
	}{
		{name: "deny", event: "BeforeTool", stdout: `{"decision":"deny","reason":"no"}`, want: &want{decision: protocol.DecisionBlock, message: "no"}},
		{name: "block is deny", event: "BeforeTool", stdout: `{"decision":"block"}`, want: &want{decision: protocol.DecisionBlock, message: "No reason provided"}},
		{name: "stopReason is the reason", event: "BeforeTool", stdout: `{"decision":"deny","reason":"r","stopReason":"s"}`, want: &want{decision: protocol.DecisionBlock, message: "s"}},
		{name: "ask shows the system message", event: "BeforeTool", stdout: `{"decision":"ask","systemMessage":"sure?"}`, want: &want{decision: protocol.DecisionAsk, message: "sure?", sys: "sure?"}},
		// Gemini's code does nothing for allow: it must not pre-approve here.
		{name: "allow approves nothing", event: "BeforeTool", stdout: `{"decision":"allow"}`},
		{name: "tool_input replaces the arguments", event: "BeforeTool", stdout: `{"hookSpecificOutput":{"tool_input":{"command":"ls"}}}`, want: &want{args: `{"command":"ls"}`}},
		{name: "context is not read before a tool", event: "BeforeTool", stdout: `{"hookSpecificOutput":{"additionalContext":"x"}}`, note: "additionalContext has no effect on BeforeTool"},
		{name: "continue false stops", event: "BeforeTool", stdout: `{"continue":false,"reason":"why"}`, want: &want{stop: "why"}},
		// JSON is read whatever the exit code: exit 2 without a decision does not block.
		{name: "exit 2 with JSON", event: "BeforeTool", exit: 2, stdout: `{"systemMessage":"hi"}`, stderr: "ignored", want: &want{sys: "hi"}},
		{name: "exit 2 with text on stderr", event: "BeforeTool", exit: 2, stderr: "nope\n", want: &want{decision: protocol.DecisionBlock, message: "nope"}},
		// Documented as a warning; any exit but 0 and 1 with text denies.
		{name: "exit 3 with text denies", event: "BeforeTool", exit: 3, stdout: "not here", stderr: "other", want: &want{decision: protocol.DecisionBlock, message: "not here"}},
		{name: "exit 127 denies", event: "BeforeTool", exit: 127, stderr: "sh: 1: ./g.sh: not found", want: &want{decision: protocol.DecisionBlock, message: "sh: 1: ./g.sh: not found"}},
		{name: "exit 1 warns", event: "BeforeTool", exit: 1, stderr: "careful", want: &want{sys: "Warning: careful"}},
		{name: "exit 0 text is a message", event: "BeforeTool", stdout: "hello", want: &want{sys: "hello"}},
		{name: "exit 2 with nothing", event: "BeforeTool", exit: 2, note: "exited with status 2 with no output"},
		{name: "JSON in a string", event: "BeforeTool", stdout: `"{\"decision\":\"deny\",\"reason\":\"q\"}"`, want: &want{decision: protocol.DecisionBlock, message: "q"}},
		{name: "JSON that is not an object", event: "BeforeTool", exit: 3, stdout: `[1]`, note: "not an object"},
		{name: "JSON on stderr", event: "BeforeTool", stderr: `{"decision":"deny","reason":"e"}`, want: &want{decision: protocol.DecisionBlock, message: "e"}},
		// Gemini reads stdout.trim(): JavaScript's trim() removes a byte
		// order mark (U+FEFF) and U+2028, U+00A0 before JSON.parse, but not
		// U+0085, which Go's TrimSpace would.
		{name: "byte order mark", event: "BeforeTool", stdout: "\uFEFF{\"decision\":\"deny\",\"reason\":\"bom\"}\r\n", want: &want{decision: protocol.DecisionBlock, message: "bom"}},
		{name: "byte order mark on stderr", event: "BeforeTool", stdout: "\uFEFF \n", stderr: "\uFEFF{\"decision\":\"deny\",\"reason\":\"e\"}", want: &want{decision: protocol.DecisionBlock, message: "e"}},
		{name: "JavaScript white space", event: "BeforeTool", stdout: "\u00A0\u2028{\"decision\":\"deny\",\"reason\":\"ws\"}\u2029", want: &want{decision: protocol.DecisionBlock, message: "ws"}},
		{name: "next line is not trimmed", event: "BeforeTool", stdout: "\u0085{\"decision\":\"deny\"}", want: &want{sys: "\u0085{\"decision\":\"deny\"}"}},
		{name: "timeout lets through", event: "BeforeTool", timedOut: true},
		{name: "fail-closed timeout blocks", event: "BeforeTool", timedOut: true, failClosed: true, want: &want{decision: protocol.DecisionBlock, message: "hook g failed closed: timed out after 60s"}},
		{name: "after tool context", event: "AfterTool", stdout: `{"hookSpecificOutput":{"additionalContext":"see log"}}`, want: &want{context: "see log"}},
		{name: "after tool deny", event: "AfterTool", stdout: `{"decision":"deny","reason":"hidden"}`, want: &want{decision: protocol.DecisionBlock, message: "hidden"}},
		{name: "prompt deny", event: "BeforeAgent", stdout: `{"decision":"deny","reason":"no"}`, want: &want{decision: protocol.DecisionBlock, message: "no"}},
		{name: "prompt context", event: "BeforeAgent", stdout: `{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"ctx"}}`, want: &want{context: "ctx"}},
		{name: "after agent retries", event: "AfterAgent", stdout: `{"decision":"deny","reason":"run the tests"}`, want: &want{decision: protocol.DecisionBlock, message: "run the tests"}},
		{name: "session start context", event: "SessionStart", stdout: `{"hookSpecificOutput":{"additionalContext":"branch"},"decision":"deny"}`, want: &want{context: "branch"}, note: `decision "deny" has no effect on SessionStart`},
		// A member named twice is text that is not JSON: exit 2 still
		// refuses, exit 0 decides nothing.
		{name: "duplicate decision", event: "BeforeTool", stdout: `{"decision":"deny","decision":"allow"}`, note: `"decision" appears twice`,
			want: &want{sys: `{"decision":"deny","decision":"allow"}`}},
		{name: "duplicate decision exit 2", event: "BeforeTool", exit: 2, stdout: `{"decision":"allow","decision":"allow"}`,
			want: &want{decision: protocol.DecisionBlock, message: `{"decision":"allow","decision":"allow"}`}},
		{name: "before model cannot refuse here", event: "BeforeModel", stdout: `{"decision":"deny","hookSpecificOutput":{"llm_response":{}}}`, note: "only observes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev, _ := gemini.Canonical(tc.event)
			c, note := parseReply(geminiCodec{}, tc.event, protocol.Reply{Dialect: "gemini", Event: ev, Command: "g",
				ExitCode: tc.exit, Stdout: []byte(tc.stdout), Stderr: []byte(tc.stderr), TimedOut: tc.timedOut, Timeout: 60, FailClosed: tc.failClosed})
			if tc.note != "" && !strings.Contains(note, tc.note) {
				t.Errorf("note %q lacks %q", note, tc.note)
			}
			if tc.want == nil {
				if c != nil {
					t.Fatalf("contribution %+v, want none (note %q)", c, note)
				}
				return
			}
			if c == nil {
				t.Fatalf("no contribution (note %q)", note)
			}
			args := ""
			if c.Args != nil {
				args = string(pyjson.Encode(c.Args, pyjson.Compact))
				if !c.ReplaceArgs {
					t.Error("tool_input merged; Gemini 0.61 replaces the arguments")
				}
			}
			got := want{c.Decision, c.Message, c.Context, args, c.StopReason, c.SystemMessage}
			if got != *tc.want {
				t.Errorf("got %+v\nwant %+v", got, *tc.want)
			}
		})
	}
}

func TestGeminiMatcher(t *testing.T) {
	for _, tc := range []struct{ event, in, want string }{
		{"BeforeTool", "", ""},
		{"BeforeTool", " * ", "*"},
		// A regex, not a list of exact names: write matches write_file.
		{"BeforeTool", "write|replace", "(?:write|replace)"},
		{"BeforeTool", "run_shell_command", "(?:run_shell_command)"},
		{"BeforeTool", "read_.*", "read_.*"},
		// Not a valid regex: Gemini compares the names.
		{"AfterTool", "(read", `^\(read$`},
		{"SessionStart", "startup", "startup"},
		{"SessionStart", "start.*", `^start\.\*$`},
		{"PreCompress", "auto|manual", `^auto\|manual$`},
		{"BeforeAgent", "x", "x"},
	} {
		if got := geminiMatcher(tc.event, tc.in); got != tc.want {
			t.Errorf("geminiMatcher(%s, %q) = %q, want %q", tc.event, tc.in, got, tc.want)
		}
	}
}

func TestGeminiMatchSubject(t *testing.T) {
	pre, _ := gemini.Canonical("BeforeTool")
	start, _ := gemini.Canonical("SessionStart")
	note, _ := gemini.Canonical("Notification")
	for _, tc := range []struct {
		declared string
		ev       *protocol.Event
		fields   map[string]any
		want     string
		ok       bool
	}{
		{"BeforeTool", pre, map[string]any{"tool_name": "terminal"}, "run_shell_command", true},
		{"BeforeTool", pre, map[string]any{"tool_name": "Edit"}, "replace", true},
		{"BeforeTool", pre, map[string]any{"tool_name": "mcp_gh_x"}, "mcp_gh_x", true},
		{"SessionStart", start, map[string]any{}, "startup", true},
		{"SessionStart", start, map[string]any{"source": "resume"}, "resume", true},
		// Gemini ignores the matcher here.
		{"Notification", note, map[string]any{"notification_type": "ToolPermission"}, "", false},
	} {
		got, ok := geminiCodec{}.MatchSubject(tc.declared, tc.ev, tc.fields, nil)
		if got != tc.want || ok != tc.ok {
			t.Errorf("MatchSubject(%s, %v) = %q, %v; want %q, %v", tc.declared, tc.fields, got, ok, tc.want, tc.ok)
		}
	}
}

func TestGeminiHandler(t *testing.T) {
	for _, tc := range []struct {
		in, want, warn string
	}{
		{`{"type":"command","command":"./g.sh","timeout":5000,"name":"guard","description":"d"}`, `{"command":"./g.sh","timeout":5,"type":"command"}`, ""},
		{`{"type":"command","command":"./g.sh"}`, `{"command":"./g.sh","timeout":60,"type":"command"}`, ""},
		{`{"type":"command","command":"./g.sh","timeout":250}`, `{"command":"./g.sh","timeout":1,"type":"command"}`, "250 ms"},
		{`{"type":"command","command":"./g.sh","timeout":1500}`, `{"command":"./g.sh","timeout":1.5,"type":"command"}`, ""},
		{`{"type":"command","command":"./g.sh","timeout":"5"}`, `{"command":"./g.sh","timeout":"5","type":"command"}`, ""},
		// Claude's keys mean nothing to Gemini: they must change nothing.
		{`{"type":"command","command":"./g.sh","async":true,"if":"Bash(rm *)","env":{"A":"1"}}`, `{"command":"./g.sh","timeout":60,"type":"command"}`, ""},
		{`{"command":"./g.sh"}`, `null`, "has no type"},
		// A guard's author asking to fail closed is told it does not: a
		// key dropped in silence let a failing guard's call through.
		{`{"type":"command","command":"./g.sh","failClosed":true}`, `{"command":"./g.sh","timeout":60,"type":"command"}`, "cannot fail closed"},
		{`{"type":"command","command":"./g.sh","fail_closed":true}`, `{"command":"./g.sh","timeout":60,"type":"command"}`, ".fail_closed is ignored"},
		{`{"type":"command","command":"./g.sh","onFailure":"block"}`, `{"command":"./g.sh","timeout":60,"type":"command"}`, ".onFailure is ignored"},
	} {
		v, _ := pyjson.Decode([]byte(tc.in))
		var warns []string
		got := geminiHandler("BeforeTool", v.(map[string]any), func(s string) { warns = append(warns, s) })
		var enc string
		if got == nil {
			enc = "null"
		} else {
			enc = string(pyjson.Encode(got, pyjson.Compact))
		}
		if enc != tc.want {
			t.Errorf("geminiHandler(%s) = %s, want %s", tc.in, enc, tc.want)
		}
		if all := strings.Join(warns, "|"); (tc.warn == "") != (all == "") || !strings.Contains(all, tc.warn) {
			t.Errorf("geminiHandler(%s) warned %q, want %q", tc.in, all, tc.warn)
		}
	}
}

func TestGeminiDocument(t *testing.T) {
	doc := func(s string) map[string]any {
		v, err := pyjson.Decode([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return v.(map[string]any)
	}
	hooks := `"hooks":{"enabled":true,"BeforeTool":[{"matcher":"x","hooks":[{"type":"command","command":"./a.sh"},{"type":"command","command":"./b.sh","name":"b"}]}]}`
	for _, tc := range []struct{ name, in, want, warn string }{
		{"as it is", `{` + hooks + `}`, `{"hooks":{"BeforeTool":[{"hooks":[{"command":"./a.sh","type":"command"},{"command":"./b.sh","name":"b","type":"command"}],"matcher":"x"}]}}`, ""},
		{"disabled by name or command", `{"hooksConfig":{"disabled":["b","./a.sh"]},` + hooks + `}`,
			`{"hooks":{"BeforeTool":[{"hooks":[{"hermes-hooks: disabled by hooksConfig":true},{"hermes-hooks: disabled by hooksConfig":true}],"matcher":"x"}]},"hooksConfig":{"disabled":["b","./a.sh"]}}`, "hooks.BeforeTool[0].hooks[1]: is disabled by hooksConfig.disabled"},
		{"all off", `{"hooksConfig":{"enabled":false},` + hooks + `}`, `{"hooksConfig":{"enabled":false}}`, "hooksConfig.enabled: is false"},
		// What Gemini CLI reads as false turns its hooks off too, as doctor
		// reads it (geminiEnabledValues): "false" in any case, 0, "".
		{"all off by a string", `{"hooksConfig":{"enabled":"False"},` + hooks + `}`, `{"hooksConfig":{"enabled":"False"}}`, "hooksConfig.enabled: is \"False\""},
		{"all off by 0", `{"hooksConfig":{"enabled":0},` + hooks + `}`, `{"hooksConfig":{"enabled":0}}`, "hooksConfig.enabled: is 0"},
		{"all off by an empty string", `{"hooksConfig":{"enabled":""},` + hooks + `}`, `{"hooksConfig":{"enabled":""}}`, "hooksConfig.enabled: is \"\""},
		{"null keeps them on", `{"hooksConfig":{"enabled":null},"hooks":{"BeforeTool":[]}}`, `{"hooks":{"BeforeTool":[]},"hooksConfig":{"enabled":null}}`, ""},
		{"a truthy string keeps them on", `{"hooksConfig":{"enabled":"no"},"hooks":{"BeforeTool":[]}}`, `{"hooks":{"BeforeTool":[]},"hooksConfig":{"enabled":"no"}}`, ""},
		{"no hooks", `{"model":{"name":"x"}}`, `{"model":{"name":"x"}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := doc(tc.in)
			before := string(pyjson.Encode(in, pyjson.Compact))
			var warns []string
			got := geminiDocument(in, func(p, m string) { warns = append(warns, p+": "+m) })
			if s := string(pyjson.Encode(got, pyjson.Compact)); s != tc.want {
				t.Errorf("got  %s\nwant %s", s, tc.want)
			}
			if after := string(pyjson.Encode(in, pyjson.Compact)); after != before {
				t.Errorf("the document was modified: %s", after)
			}
			if all := strings.Join(warns, "|"); (tc.warn == "") != (all == "") || !strings.Contains(all, tc.warn) {
				t.Errorf("warned %q, want %q", all, tc.warn)
			}
		})
	}
}

// FuzzGeminiPayload: any host fields give a JSON object for every Gemini
// event, which decodes back to that event.
func FuzzGeminiPayload(f *testing.F) {
	f.Add("BeforeTool", `{"tool_name":"terminal","args":{"command":"ls"}}`)
	f.Add("AfterTool", `{"tool_name":"patch","args":7,"result":{"a":1},"tool_response":{"llmContent":[{"text":1}]}}`)
	f.Add("AfterAgent", `{"final_response":[1],"prompt":null}`)
	f.Add("BeforeModel", `{"llm_request":"x","model":3}`)
	f.Fuzz(func(t *testing.T, event, fields string) {
		ev, ok := gemini.Canonical(event)
		if !ok {
			return
		}
		v, err := pyjson.Decode([]byte(fields))
		m, isObj := v.(map[string]any)
		if err != nil || !isObj {
			return
		}
		out := geminiCodec{}.Payload(event, ev, m, protocol.PayloadEnv{Cwd: "/w"})
		c, err := gemini.Decode(out, "")
		if err != nil || c.AgentEvent != event {
			t.Fatalf("payload %s does not decode back to %s: %v", out, event, err)
		}
	})
}

// FuzzParseGeminiReply: any reply parses without panicking; a fail-closed
// hook that timed out on an event that can refuse blocks; a deny Gemini
// would honour on BeforeTool is never lost.
func FuzzParseGeminiReply(f *testing.F) {
	f.Add("BeforeTool", 0, `{"decision":"deny","reason":"x"}`, "", false)
	f.Add("AfterAgent", 2, `"{\"decision\":\"block\"}"`, "why", false)
	f.Add("BeforeTool", 3, `plain`, "err", true)
	f.Add("SessionStart", 0, `{"hookSpecificOutput":{"additionalContext":3,"tool_input":[1]}}`, "", false)
	f.Fuzz(func(t *testing.T, event string, exit int, stdout, stderr string, timedOut bool) {
		ev, ok := gemini.Canonical(event)
		if !ok {
			return
		}
		c, _ := parseReply(geminiCodec{}, event, protocol.Reply{Dialect: "gemini", Event: ev, Command: "g",
			ExitCode: exit, Stdout: []byte(stdout), Stderr: []byte(stderr), TimedOut: timedOut, FailClosed: true})
		blocks := c != nil && c.Decision == protocol.DecisionBlock
		if timedOut && ev.Can(protocol.CapBlock|protocol.CapContinue) && !blocks {
			t.Fatalf("a fail-closed %s hook timed out and contributed %+v", event, c)
		}
		text := strings.TrimSpace(stdout)
		if text == "" {
			text = strings.TrimSpace(stderr)
		}
		if !timedOut && event == "BeforeTool" && text != "" && exit != 0 && exit != 1 {
			if _, err := pyjson.Decode([]byte(text)); err != nil && !blocks {
				t.Fatalf("exit %d with text %q on BeforeTool contributed %+v, want a block", exit, text, c)
			}
		}
	})
}
