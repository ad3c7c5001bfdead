package protocol

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

var update = flag.Bool("update", false, "rewrite the golden payload files under testdata/payloads")

// goldenDir is the repository's shared payload fixture folder.
const goldenDir = "../testdata/payloads"

// weird is a value encoding/json refuses whose string form is known, like
// the Python object of Hermes checklist B22.
type weird chan int

func (weird) String() string { return "<weird>" }

// hermesEnv is a Hermes host's: Hermes sends its active profile ("default"
// outside profiles), so the payload has Hermes' seven keys.
var hermesEnv = PayloadEnv{Cwd: "/home/u/project", Profile: "default"}

// payloadGoldens are the host firings whose encoded payloads are pinned byte
// for byte in testdata/payloads/<name>.json.
var payloadGoldens = []struct {
	name    string
	dialect Dialect
	event   string
	fields  map[string]any
	env     PayloadEnv
}{
	{"hermes_pre_tool_call", Hermes, "pre_tool_call", map[string]any{
		"tool_name": "terminal", "args": map[string]any{"command": "ls"}, "session_id": "sess-1",
		"task_id": "t-1", "tool_call_id": "c-1"}, hermesEnv},
	{"hermes_pre_tool_call_list_args", Hermes, "pre_tool_call", map[string]any{
		"tool_name": "terminal", "args": []any{"ls", "-la"}, "session_id": "sess-1"}, hermesEnv},
	{"hermes_pre_tool_call_claude_tool_name", Hermes, "pre_tool_call", map[string]any{
		"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /tmp/x", "timeout": json.Number("120000")},
		"session_id": "s"}, PayloadEnv{Cwd: "/w", Profile: "work"}},
	{"hermes_post_tool_call", Hermes, "post_tool_call", map[string]any{
		"tool_name": "write_file", "args": map[string]any{"path": "/tmp/a.txt", "content": "héllo"},
		"result": `{"success": true}`, "task_id": "t-2", "tool_call_id": "c-2", "duration_ms": json.Number("12.5"),
		"session_id": "sess-2", "middleware_trace": []any{}}, hermesEnv},
	{"hermes_pre_llm_call", Hermes, "pre_llm_call", map[string]any{
		"session_id":           "",
		"parent_session_id":    "parent-1",
		"user_message":         "Grüße, 世界 😀\n\t\"quoted\" \\ back\u0001",
		"is_first_turn":        true,
		"conversation_history": []any{map[string]any{"role": "user", "content": "hi"}},
		"model":                "m",
		"platform":             "cli",
	}, hermesEnv},
	{"hermes_subagent_stop", Hermes, "subagent_stop", map[string]any{
		"parent_session_id": "parent-sess", "child_role": "leaf", "child_summary": "done",
		"child_status": "completed", "duration_ms": json.Number("3")}, hermesEnv},
	{"hermes_pre_verify", Hermes, "pre_verify", map[string]any{
		"session_id": "sess-3", "final_response": "All tests pass.", "attempt": json.Number("1"), "coding": true,
		"changed_paths": []any{"a.go", "b.go"}, "cwd": "/repo", "profile": "night"}, hermesEnv},
	{"hermes_extra_weird_object", Hermes, "on_session_start", map[string]any{
		"session_id": "s", "gateway": weird(nil), "model": nil}, hermesEnv},
	{"claude_pre_tool_call", Claude, "pre_tool_call", map[string]any{
		"tool_name": "terminal", "args": map[string]any{"command": "ls"}, "session_id": "sess-1",
		"task_id": "t-1", "tool_call_id": "c-1"}, hermesEnv},
	{"claude_pre_tool_call_write_file", Claude, "pre_tool_call", map[string]any{
		"tool_name": "write_file", "args": map[string]any{"path": "/repo/a.txt", "content": "x"},
		"session_id": "sess-1", "tool_call_id": "c-2"}, hermesEnv},
	{"claude_post_tool_call", Claude, "post_tool_call", map[string]any{
		"tool_name": "terminal", "args": map[string]any{"command": "echo hi"}, "session_id": "sess-1",
		"result": `{"stdout": "hi\n", "stderr": "", "interrupted": false}`, "tool_call_id": "c-9",
		"duration_ms": json.Number("7")}, hermesEnv},
	{"claude_pre_llm_call", Claude, "pre_llm_call", map[string]any{
		"user_message": []any{map[string]any{"type": "text", "text": "first part"}, "second part",
			map[string]any{"type": "image", "url": "x"}},
		"parent_session_id": "p-1", "platform": "cli"}, hermesEnv},
	{"claude_pre_verify", Claude, "pre_verify", map[string]any{
		"session_id": "sess-3", "final_response": "All tests pass. ✅", "attempt": json.Number("2")}, hermesEnv},
	{"claude_subagent_stop", Claude, "subagent_stop", map[string]any{
		"session_id": "parent", "child_session_id": "child-1", "child_role": "reviewer",
		"child_summary": "LGTM", "transcript_path": "/t.jsonl", "permission_mode": "plan"}, hermesEnv},
	{"claude_on_session_start", Claude, "on_session_start", map[string]any{
		"session_id": "s", "model": "m", "platform": "cli"}, hermesEnv},
	{"claude_on_session_end", Claude, "on_session_end", map[string]any{
		"session_id": "s", "turn_exit_reason": "prompt_input_exit", "completed": true}, hermesEnv},
	{"claude_native_pre_tool_use", Claude, "PreToolUse", map[string]any{
		"session_id":      "abc",
		"transcript_path": "/home/u/.claude/t.jsonl",
		"cwd":             "/repo",
		"permission_mode": "acceptEdits",
		"tool_name":       "Bash",
		"tool_input":      map[string]any{"command": "npm test", "description": "run tests"},
		"tool_use_id":     "toolu_01",
	}, hermesEnv},
}

func TestPayloadGoldens(t *testing.T) {
	if *update {
		if err := os.MkdirAll(goldenDir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range payloadGoldens {
		t.Run(g.name, func(t *testing.T) {
			got := BuildPayload(g.dialect, ev(g.event), g.fields, g.env)
			path := filepath.Join(goldenDir, g.name+".json")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./protocol/ -run TestPayloadGoldens -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("payload differs from %s\n got  %s\n want %s", path, got, want)
			}
			if !json.Valid(got) {
				t.Errorf("payload is not valid JSON: %s", got)
			}
			checkFraming(t, g.dialect, got)
			var compact bytes.Buffer
			if err := json.Compact(&compact, got); err != nil {
				t.Fatal(err)
			}
			if isCompact := compact.String() == strings.TrimSuffix(string(got), "\n"); isCompact != (g.dialect == Claude) {
				t.Errorf("compact = %v for dialect %s", isCompact, g.dialect)
			}
			if g.dialect == Hermes {
				if keys := topLevelKeys(t, got); !reflect.DeepEqual(keys, hermesKeys) {
					t.Errorf("Hermes keys = %v, want %v", keys, hermesKeys)
				}
			} else {
				if keys := topLevelKeys(t, got); len(keys) < 5 || !reflect.DeepEqual(keys[:5], claudeCommonKeys) {
					t.Errorf("Claude keys = %v, want to start with %v", keys, claudeCommonKeys)
				}
			}
		})
	}
}

// Every golden file under testdata/payloads must belong to a case, so a
// renamed case cannot leave a stale fixture behind.
func TestPayloadGoldensHaveCases(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, g := range payloadGoldens {
		known[g.name+".json"] = true
	}
	for _, f := range files {
		if !known[filepath.Base(f)] {
			t.Errorf("stale golden file %s", f)
		}
	}
}

var (
	hermesKeys       = []string{"hook_event_name", "tool_name", "tool_input", "session_id", "cwd", "profile", "extra"}
	claudeCommonKeys = []string{"session_id", "transcript_path", "cwd", "permission_mode", "hook_event_name"}
)

// checkFraming: Hermes writes Python json.dumps output without a trailing
// newline (§2.2); Claude Code writes JSON.stringify output plus one "\n"
// (Claude §3.1).
func checkFraming(t *testing.T, d Dialect, b []byte) {
	t.Helper()
	if d == Hermes {
		if bytes.HasSuffix(b, []byte("\n")) {
			t.Errorf("Hermes payload ends with a newline")
		}
		return
	}
	if !bytes.HasSuffix(b, []byte("}\n")) || bytes.HasSuffix(b, []byte("\n\n")) {
		t.Errorf("Claude payload must end with exactly one newline: %q", b[max(0, len(b)-10):])
	}
	if bytes.Count(b, []byte("\n")) != 1 {
		t.Errorf("Claude payload must be one line: %q", b)
	}
}

// §2.2's own example, byte for byte.
func TestHermesPayloadSpecExample(t *testing.T) {
	got := string(BuildPayload(Hermes, ev("pre_tool_call"), map[string]any{
		"tool_name": "terminal", "args": map[string]any{"command": "ls"}, "session_id": "sess-1",
		"task_id": "t-1", "tool_call_id": "c-1"}, hermesEnv))
	want := `{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "ls"}, ` +
		`"session_id": "sess-1", "cwd": "/home/u/project", "profile": "default", ` +
		`"extra": {"task_id": "t-1", "tool_call_id": "c-1"}}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func hermesPayload(t *testing.T, event string, fields map[string]any) map[string]any {
	t.Helper()
	b := BuildPayload(Hermes, ev(event), fields, hermesEnv)
	if keys := topLevelKeys(t, b); !reflect.DeepEqual(keys, hermesKeys) {
		t.Fatalf("keys = %v, want %v", keys, hermesKeys)
	}
	return decodeObject(t, b)
}

// Checklist B19.
func TestB19HermesPayloadFields(t *testing.T) {
	p := hermesPayload(t, "pre_tool_call", map[string]any{"tool_name": "terminal",
		"args": map[string]any{"command": "ls"}, "session_id": "sess-1", "task_id": "t-1", "tool_call_id": "c-1"})
	if p["hook_event_name"] != "pre_tool_call" || p["tool_name"] != "terminal" || p["session_id"] != "sess-1" {
		t.Errorf("payload = %v", p)
	}
	if !reflect.DeepEqual(p["tool_input"], map[string]any{"command": "ls"}) {
		t.Errorf("tool_input = %v", p["tool_input"])
	}
	if _, ok := p["cwd"].(string); !ok {
		t.Errorf("cwd missing")
	}
	if !reflect.DeepEqual(p["extra"], map[string]any{"task_id": "t-1", "tool_call_id": "c-1"}) {
		t.Errorf("extra = %v", p["extra"])
	}
}

// Checklist B20: tool_input is the args only when they are a mapping.
func TestB20ListArgsGiveNullToolInput(t *testing.T) {
	for _, args := range []any{[]any{"a", "b"}, "ls", json.Number("1"), nil, true} {
		p := hermesPayload(t, "pre_tool_call", map[string]any{"tool_name": "terminal", "args": args})
		if v, ok := p["tool_input"]; !ok || v != nil {
			t.Errorf("args %#v: tool_input = %#v, want null", args, v)
		}
		if _, ok := p["extra"].(map[string]any)["args"]; ok {
			t.Errorf("args %#v leaked into extra", args)
		}
	}
	// The tool_input alias is accepted when args is absent.
	p := hermesPayload(t, "pre_tool_call", map[string]any{"tool_input": map[string]any{"a": "b"}})
	if !reflect.DeepEqual(p["tool_input"], map[string]any{"a": "b"}) {
		t.Errorf("tool_input alias: %v", p["tool_input"])
	}
	if len(p["extra"].(map[string]any)) != 0 {
		t.Errorf("extra = %v, want {}", p["extra"])
	}
}

// Checklist B21 and §2.2's session_id rule.
func TestB21SessionIDFallsBackToParent(t *testing.T) {
	cases := []struct {
		fields map[string]any
		want   any
	}{
		{map[string]any{"parent_session_id": "p-1"}, "p-1"},
		{map[string]any{"session_id": "", "parent_session_id": "p-1"}, "p-1"},
		{map[string]any{"session_id": nil, "parent_session_id": "p-1"}, "p-1"},
		{map[string]any{"session_id": "s-1", "parent_session_id": "p-1"}, "s-1"},
		{map[string]any{"session_id": ""}, ""},
		{map[string]any{}, ""},
		{map[string]any{"parent_session_id": ""}, ""},
	}
	for _, tc := range cases {
		p := hermesPayload(t, "subagent_stop", tc.fields)
		if p["session_id"] != tc.want {
			t.Errorf("%v: session_id = %#v, want %#v", tc.fields, p["session_id"], tc.want)
		}
		extra := p["extra"].(map[string]any)
		for _, k := range []string{"parent_session_id", "session_id"} {
			if _, ok := extra[k]; ok {
				t.Errorf("%v: %s leaked into extra", tc.fields, k)
			}
		}
	}
}

// Checklist B22: values JSON cannot encode are stringified.
func TestB22UnserialisableValuesStringified(t *testing.T) {
	ch := make(chan int)
	fn := func() {}
	b := BuildPayload(Hermes, ev("pre_gateway_dispatch"), map[string]any{
		"gateway": weird(nil), "event": ch, "callback": fn, "err": os.ErrNotExist,
		"nested": map[string]any{"deep": []any{weird(nil)}}}, hermesEnv)
	if !json.Valid(b) {
		t.Fatalf("payload not valid JSON: %s", b)
	}
	extra := decodeObject(t, b)["extra"].(map[string]any)
	if extra["gateway"] != "<weird>" {
		t.Errorf("gateway = %#v, want \"<weird>\"", extra["gateway"])
	}
	for _, k := range []string{"event", "callback"} {
		s, ok := extra[k].(string)
		if !ok || s == "" {
			t.Errorf("%s = %#v, want its string form", k, extra[k])
		}
	}
	if extra["err"] != "file does not exist" {
		t.Errorf("err = %#v, want the error text", extra["err"])
	}
	if !reflect.DeepEqual(extra["nested"], map[string]any{"deep": []any{"<weird>"}}) {
		t.Errorf("nested = %#v", extra["nested"])
	}
}

// Checklist B23: a subagent_stop firing with only parent_session_id has the
// seven keys, session_id from the parent, no parent_session_id in extra,
// null tool fields.
func TestB23SubagentStopPayloadShape(t *testing.T) {
	b := BuildPayload(Hermes, ev("subagent_stop"), map[string]any{"parent_session_id": "parent-sess",
		"child_role": "leaf"}, hermesEnv)
	if keys := topLevelKeys(t, b); !reflect.DeepEqual(keys, hermesKeys) {
		t.Fatalf("keys = %v, want exactly %v", keys, hermesKeys)
	}
	p := decodeObject(t, b)
	if p["session_id"] != "parent-sess" || p["tool_name"] != nil || p["tool_input"] != nil {
		t.Errorf("payload = %v", p)
	}
	if _, ok := p["extra"].(map[string]any)["parent_session_id"]; ok {
		t.Error("parent_session_id in extra")
	}
}

func TestHermesPayloadPythonSeparatorsAndRawUnicode(t *testing.T) {
	b := BuildPayload(Hermes, ev("pre_llm_call"), map[string]any{"user_message": "Grüße 😀", "n": []any{json.Number("1"), json.Number("2")}}, hermesEnv)
	s := string(b)
	if !strings.Contains(s, `"user_message": "Grüße 😀"`) {
		t.Errorf("non-ASCII must be raw with \": \": %s", s)
	}
	if !strings.Contains(s, `"n": [1, 2]`) {
		t.Errorf("arrays use \", \": %s", s)
	}
	if strings.Contains(s, `\u00fc`) || strings.Contains(s, `\ud83d`) {
		t.Errorf("non-ASCII escaped: %s", s)
	}
	if strings.HasSuffix(s, "\n") {
		t.Error("trailing newline")
	}
	// Python's json.dumps escapes control characters and leaves "/" alone.
	b = BuildPayload(Hermes, ev("pre_llm_call"), map[string]any{"m": "a/b\x01\x7f<&>\u2028"}, hermesEnv)
	if !strings.Contains(string(b), `"m": "a/b\u0001`+"\x7f"+`<&>`+"\u2028"+`"`) {
		t.Errorf("escaping differs from json.dumps(ensure_ascii=False): %s", b)
	}
}

func TestHermesPayloadCwdProfileAndToolName(t *testing.T) {
	// A host with no profile (not Hermes, or an older Hermes) gets no
	// profile key: the payload has exactly the keys such a Hermes sends
	// (issue 13, item 1).
	b := BuildPayload(Hermes, ev("pre_tool_call"), map[string]any{"tool_name": "Bash"}, PayloadEnv{Cwd: "/env", Profile: ""})
	p := decodeObject(t, b)
	if _, has := p["profile"]; has || p["cwd"] != "/env" || p["tool_name"] != "terminal" {
		t.Errorf("defaults: %v", p)
	}
	if keys := topLevelKeys(t, b); !reflect.DeepEqual(keys, []string{"hook_event_name", "tool_name", "tool_input", "session_id", "cwd", "extra"}) {
		t.Errorf("keys without a profile: %v", keys)
	}
	p = decodeObject(t, BuildPayload(Hermes, ev("pre_tool_call"), map[string]any{"profile": "p3"}, PayloadEnv{Cwd: "/env"}))
	if p["profile"] != "p3" {
		t.Errorf("a host's profile is sent: %v", p)
	}
	p = decodeObject(t, BuildPayload(Hermes, ev("pre_tool_call"), map[string]any{"cwd": "/host", "profile": "p2"},
		PayloadEnv{Cwd: "/env", Profile: "work"}))
	if p["cwd"] != "/host" || p["profile"] != "p2" || len(p["extra"].(map[string]any)) != 0 {
		t.Errorf("host cwd/profile are promoted: %v", p)
	}
	p = decodeObject(t, BuildPayload(Hermes, ev("pre_tool_call"), map[string]any{"cwd": json.Number("1")},
		PayloadEnv{Cwd: "/env", Profile: "work"}))
	if p["cwd"] != "/env" || p["profile"] != "work" || p["extra"].(map[string]any)["cwd"] != json.Number("1") {
		t.Errorf("non-string cwd stays in extra: %v", p)
	}
	// A table override renames the tool back to the Hermes side.
	tools := NewToolTable(map[string]string{"shell": "Bash", "terminal": ""})
	p = decodeObject(t, BuildPayload(Hermes, ev("pre_tool_call"), map[string]any{"tool_name": "Bash"},
		PayloadEnv{Tools: tools}))
	if p["tool_name"] != "shell" {
		t.Errorf("override: tool_name = %v, want shell", p["tool_name"])
	}
}

func claudePayload(t *testing.T, event string, fields map[string]any) (map[string]any, []string) {
	t.Helper()
	b := BuildPayload(Claude, ev(event), fields, hermesEnv)
	checkFraming(t, Claude, b)
	var compact bytes.Buffer
	if err := json.Compact(&compact, b); err != nil || compact.String() != strings.TrimSuffix(string(b), "\n") {
		t.Errorf("Claude payload is not compact JSON: %s", b)
	}
	return decodeObject(t, b), topLevelKeys(t, b)
}

func TestClaudePayloadPreToolUse(t *testing.T) {
	p, keys := claudePayload(t, "pre_tool_call", map[string]any{"tool_name": "terminal",
		"args": map[string]any{"command": "ls"}, "session_id": "sess-1", "tool_call_id": "c-1", "task_id": "t"})
	wantKeys := []string{"session_id", "transcript_path", "cwd", "permission_mode", "hook_event_name",
		"tool_name", "tool_input", "tool_use_id", "task_id", "tool_call_id"}
	if !reflect.DeepEqual(keys, wantKeys) {
		t.Errorf("keys = %v\nwant %v", keys, wantKeys)
	}
	want := map[string]any{"session_id": "sess-1", "transcript_path": "", "cwd": "/home/u/project",
		"permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": "ls"}, "tool_use_id": "c-1", "task_id": "t", "tool_call_id": "c-1"}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("payload = %v\nwant %v", p, want)
	}
	b := BuildPayload(Claude, ev("pre_tool_call"), map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"}}, hermesEnv)
	if !bytes.HasPrefix(b, []byte(`{"session_id":"","transcript_path":"","cwd":"/home/u/project","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`)) {
		t.Errorf("compact encoding: %s", b)
	}
}

func TestClaudePayloadToolNameTranslation(t *testing.T) {
	for hermes, claude := range map[string]string{"terminal": "Bash", "read_file": "Read", "write_file": "Write",
		"patch": "Edit", "web_search": "WebSearch", "web_extract": "WebFetch", "delegate_task": "Task",
		"Bash": "Bash", "mcp__x__y": "mcp__x__y"} {
		p, _ := claudePayload(t, "pre_tool_call", map[string]any{"tool_name": hermes})
		if p["tool_name"] != claude {
			t.Errorf("tool %s → %v, want %s", hermes, p["tool_name"], claude)
		}
	}
	// Args that are not a mapping become {} (Claude's tool_input is always an object).
	p, _ := claudePayload(t, "pre_tool_call", map[string]any{"tool_name": "terminal", "args": []any{"x"}})
	if !reflect.DeepEqual(p["tool_input"], map[string]any{}) {
		t.Errorf("tool_input = %#v, want {}", p["tool_input"])
	}
}

func TestClaudePayloadPostToolUseResult(t *testing.T) {
	p, _ := claudePayload(t, "post_tool_call", map[string]any{"tool_name": "terminal",
		"result": `{"stdout":"hi","exit_code":0}`})
	if p["hook_event_name"] != "PostToolUse" {
		t.Errorf("hook_event_name = %v", p["hook_event_name"])
	}
	if !reflect.DeepEqual(p["tool_response"], map[string]any{"stdout": "hi", "exit_code": json.Number("0")}) {
		t.Errorf("tool_response = %#v, want the decoded JSON object", p["tool_response"])
	}
	p, _ = claudePayload(t, "post_tool_call", map[string]any{"tool_name": "terminal", "result": "plain text"})
	if p["tool_response"] != "plain text" {
		t.Errorf("non-JSON result: tool_response = %#v", p["tool_response"])
	}
	p, _ = claudePayload(t, "post_tool_call", map[string]any{"tool_name": "terminal", "tool_response": map[string]any{"a": "b"},
		"result": `{"x":1}`})
	if !reflect.DeepEqual(p["tool_response"], map[string]any{"a": "b"}) {
		t.Errorf("host tool_response must win: %#v", p["tool_response"])
	}
}

func TestClaudePayloadUserPromptSubmit(t *testing.T) {
	p, keys := claudePayload(t, "pre_llm_call", map[string]any{"user_message": "fix the bug", "session_id": "s"})
	if p["hook_event_name"] != "UserPromptSubmit" || p["prompt"] != "fix the bug" {
		t.Errorf("payload = %v", p)
	}
	if contains(keys, "tool_name") || contains(keys, "tool_input") {
		t.Errorf("non-tool event has tool keys: %v", keys)
	}
	p, _ = claudePayload(t, "pre_llm_call", map[string]any{"user_message": []any{
		map[string]any{"type": "text", "text": "a"}, "b", map[string]any{"type": "image"}}})
	if p["prompt"] != "a\nb" {
		t.Errorf("parts: prompt = %#v, want \"a\\nb\"", p["prompt"])
	}
	p, _ = claudePayload(t, "UserPromptSubmit", map[string]any{"prompt": "native", "user_message": "hermes"})
	if p["prompt"] != "native" {
		t.Errorf("host prompt must win: %#v", p["prompt"])
	}
}

func TestClaudePayloadStopAndSubagentStop(t *testing.T) {
	p, _ := claudePayload(t, "pre_verify", map[string]any{"final_response": "done!"})
	if p["hook_event_name"] != "Stop" || p["last_assistant_message"] != "done!" || p["stop_hook_active"] != false {
		t.Errorf("Stop payload = %v", p)
	}
	p, _ = claudePayload(t, "subagent_stop", map[string]any{"child_summary": "ok", "child_role": "reviewer",
		"child_subagent_id": "a-1", "child_session_id": "cs-1"})
	if p["hook_event_name"] != "SubagentStop" || p["last_assistant_message"] != "ok" ||
		p["agent_type"] != "reviewer" || p["agent_id"] != "a-1" || p["stop_hook_active"] != false {
		t.Errorf("SubagentStop payload = %v", p)
	}
	p, _ = claudePayload(t, "subagent_start", map[string]any{"child_role": "r", "child_session_id": "cs-2"})
	if p["hook_event_name"] != "SubagentStart" || p["agent_type"] != "r" || p["agent_id"] != "cs-2" {
		t.Errorf("SubagentStart payload = %v", p)
	}
}

func TestClaudePayloadSessionEvents(t *testing.T) {
	p, _ := claudePayload(t, "on_session_start", map[string]any{})
	if p["hook_event_name"] != "SessionStart" || p["source"] != "startup" {
		t.Errorf("SessionStart payload = %v", p)
	}
	p, _ = claudePayload(t, "on_session_start", map[string]any{"source": "resume"})
	if p["source"] != "resume" {
		t.Errorf("host source must win: %v", p)
	}
	p, _ = claudePayload(t, "on_session_end", map[string]any{})
	if p["hook_event_name"] != "SessionEnd" || p["reason"] != "other" {
		t.Errorf("SessionEnd payload = %v", p)
	}
	p, _ = claudePayload(t, "on_session_end", map[string]any{"turn_exit_reason": "clear"})
	if p["reason"] != "clear" {
		t.Errorf("turn_exit_reason → reason: %v", p)
	}
}

func TestClaudePayloadNativeFieldsPassThrough(t *testing.T) {
	p, _ := claudePayload(t, "PreToolUse", map[string]any{"session_id": "abc", "transcript_path": "/t.jsonl",
		"cwd": "/repo", "permission_mode": "plan", "tool_name": "Bash", "tool_input": map[string]any{"command": "x"},
		"tool_use_id": "toolu_1", "effort": map[string]any{"level": "high"}})
	want := map[string]any{"session_id": "abc", "transcript_path": "/t.jsonl", "cwd": "/repo", "permission_mode": "plan",
		"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": "x"},
		"tool_use_id": "toolu_1", "effort": map[string]any{"level": "high"}}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("payload = %v\nwant %v", p, want)
	}
	p, _ = claudePayload(t, "Notification", map[string]any{"message": "m", "notification_type": "idle_prompt"})
	if p["hook_event_name"] != "Notification" || p["message"] != "m" {
		t.Errorf("Notification payload = %v", p)
	}
}

// Claude reference §2.2: the match query per event.
func TestClaudeMatchQuery(t *testing.T) {
	cases := []struct {
		event  string
		fields map[string]any
		want   string
		ok     bool
	}{
		{"pre_tool_call", map[string]any{"tool_name": "terminal"}, "Bash", true},
		{"PreToolUse", map[string]any{"tool_name": "Bash"}, "Bash", true},
		{"post_tool_call", map[string]any{"tool_name": "read_file"}, "Read", true},
		{"pre_tool_call", map[string]any{"tool_name": "mcp__memory__save"}, "mcp__memory__save", true},
		{"pre_tool_call", map[string]any{}, "", true},
		{"PermissionRequest", map[string]any{"tool_name": "write_file"}, "Write", true},
		{"on_session_start", map[string]any{}, "startup", true},
		{"on_session_start", map[string]any{"source": "compact"}, "compact", true},
		{"on_session_end", map[string]any{}, "other", true},
		{"on_session_end", map[string]any{"turn_exit_reason": "logout"}, "logout", true},
		{"on_session_end", map[string]any{"reason": "clear", "turn_exit_reason": "logout"}, "clear", true},
		{"subagent_stop", map[string]any{"child_role": "code-reviewer"}, "code-reviewer", true},
		{"subagent_start", map[string]any{"agent_type": "Explore"}, "Explore", true},
		{"FileChanged", map[string]any{"file_path": "/repo/src/.env.local"}, ".env.local", true},
		{"FileChanged", map[string]any{}, "", true},
		{"Notification", map[string]any{"notification_type": "idle_prompt"}, "idle_prompt", true},
		{"PreCompact", map[string]any{"trigger": "auto"}, "auto", true},
		{"Setup", map[string]any{"trigger": 3}, "", true},
		{"pre_llm_call", map[string]any{"prompt": "x"}, "", false},
		{"pre_verify", map[string]any{}, "", false},
		{"TaskCompleted", map[string]any{}, "", false},
		{"CwdChanged", map[string]any{}, "", false},
	}
	for _, tc := range cases {
		got, ok := ClaudeMatchQuery(ev(tc.event), tc.fields, nil)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ClaudeMatchQuery(%s, %v) = %q, %v; want %q, %v", tc.event, tc.fields, got, ok, tc.want, tc.ok)
		}
	}
	tools := NewToolTable(map[string]string{"terminal": "Shell"})
	if got, _ := ClaudeMatchQuery(ev("pre_tool_call"), map[string]any{"tool_name": "terminal"}, tools); got != "Shell" {
		t.Errorf("override: %q, want Shell", got)
	}
}

func TestToolTable(t *testing.T) {
	tt := DefaultTools()
	if tt.Claude("terminal") != "Bash" || tt.Hermes("Bash") != "terminal" || tt.Hermes("terminal") != "terminal" ||
		tt.Claude("Bash") != "Bash" || tt.Claude("unknown") != "unknown" || tt.Hermes("Unknown") != "Unknown" {
		t.Error("default table translates wrongly")
	}
	var nilTable *ToolTable
	if nilTable.Claude("patch") != "Edit" || nilTable.Hermes("Edit") != "patch" {
		t.Error("nil table must use the defaults")
	}
	// Two Hermes names for one Claude name: the lexically first maps back.
	two := NewToolTable(map[string]string{"shell": "Bash"})
	if two.Hermes("Bash") != "shell" || two.Claude("terminal") != "Bash" || two.Claude("shell") != "Bash" {
		t.Errorf("shared Claude name: Hermes(Bash) = %q", two.Hermes("Bash"))
	}
	removed := NewToolTable(map[string]string{"terminal": ""})
	if removed.Claude("terminal") != "terminal" || removed.Hermes("Bash") != "Bash" {
		t.Error("an empty override must remove the pair")
	}
	if _, ok := removed.Pairs()["terminal"]; ok {
		t.Error("Pairs lists a removed pair")
	}
	if !reflect.DeepEqual(DefaultTools().Pairs(), DefaultToolAliases) {
		t.Error("Pairs of the default table differ from DefaultToolAliases")
	}
	if got := ClaudeToolNames("Task"); !reflect.DeepEqual(got, []string{"Task", "Agent"}) {
		t.Errorf("ClaudeToolNames(Task) = %v", got)
	}
	if got := ClaudeToolNames("Agent"); !reflect.DeepEqual(got, []string{"Agent", "Task"}) {
		t.Errorf("ClaudeToolNames(Agent) = %v", got)
	}
	if got := ClaudeToolNames("Bash"); !reflect.DeepEqual(got, []string{"Bash"}) {
		t.Errorf("ClaudeToolNames(Bash) = %v", got)
	}
	// Claude Code's other editors and shells have their base's Hermes
	// twin, and follow an override of it; Claude names stay.
	for variant, want := range map[string]string{"MultiEdit": "patch", "NotebookEdit": "patch", "PowerShell": "terminal", "Agent": "delegate_task"} {
		if got := tt.Hermes(variant); got != want {
			t.Errorf("Hermes(%s) = %q, want %q", variant, got, want)
		}
		if got := tt.Claude(variant); got != variant {
			t.Errorf("Claude(%s) = %q, want it unchanged", variant, got)
		}
	}
	if got := NewToolTable(map[string]string{"edit_file": "Edit"}).Hermes("MultiEdit"); got != "edit_file" {
		t.Errorf("override: Hermes(MultiEdit) = %q, want edit_file", got)
	}
	if got := NewToolTable(map[string]string{"patch": ""}).Hermes("MultiEdit"); got != "MultiEdit" {
		t.Errorf("removed pair: Hermes(MultiEdit) = %q, want MultiEdit", got)
	}
}

func TestMCPToolNames(t *testing.T) {
	cases := []struct {
		name string
		want []string
	}{
		{"mcp__github__create_issue", []string{"mcp__github__create_issue", "mcp_github_create_issue"}},
		{"mcp__brave-search__web.search", []string{"mcp__brave-search__web.search", "mcp_brave_search_web_search"}},
		{"mcp__plugin_p_s__t", []string{"mcp__plugin_p_s__t", "mcp_plugin_p_s_t"}},
		{"mcp__a__b__c", []string{"mcp__a__b__c", "mcp_a_b__c"}},
		{"mcp_github_create_issue", []string{"mcp_github_create_issue", "mcp__github__create_issue", "mcp__github_create__issue"}},
		{"mcp_s_t", []string{"mcp_s_t", "mcp__s__t"}},
		{"mcp_github", nil},
		{"mcp__github", nil},
		{"mcp____x", nil},
		{"mcp__x__", nil},
		{"mcp_", nil},
		{"mcp_x", nil},
		{"mcp__", nil},
		{"mcp_a__b", nil},
		{"Bash", nil},
		{"MCP:create_issue", nil},
		{"", nil},
	}
	for _, c := range cases {
		got := MCPToolNames(c.name)
		if len(c.want) == 0 && len(got) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("MCPToolNames(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

// FuzzMCPToolNames: any name gives nil, or the name first and then other
// spellings, each an MCP tool name (mcp_…) that differs from it.
func FuzzMCPToolNames(f *testing.F) {
	for _, s := range []string{"mcp__github__create_issue", "mcp_github_create_issue", "mcp__a-b__c.d", "mcp_", "mcp__x", "Bash", "mcp_a__b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		got := MCPToolNames(name)
		if got == nil {
			return
		}
		if len(got) < 2 || got[0] != name {
			t.Fatalf("MCPToolNames(%q) = %q: want the name first and another spelling", name, got)
		}
		for _, other := range got[1:] {
			if other == name || !strings.HasPrefix(other, "mcp_") {
				t.Fatalf("MCPToolNames(%q) gives %q, no MCP name of the other spelling", name, other)
			}
		}
	})
}

// The payload builders must not modify the host's fields.
func TestPayloadDoesNotMutateFields(t *testing.T) {
	fields := map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"},
		"parent_session_id": "p", "result": `{"a":1}`, "user_message": "u"}
	before := string(pyjson.Encode(fields, pyjson.Compact))
	for _, e := range Events() {
		BuildPayload(Hermes, e, fields, hermesEnv)
		BuildPayload(Claude, e, fields, hermesEnv)
	}
	if after := string(pyjson.Encode(fields, pyjson.Compact)); after != before {
		t.Fatalf("fields changed:\n%s\n%s", before, after)
	}
}

func TestEncodePayloadFraming(t *testing.T) {
	obj := Object{{"a", "é"}, {"b", []any{json.Number("1"), nil}}}
	if got := string(EncodePayload(Hermes, obj)); got != `{"a": "é", "b": [1, null]}` {
		t.Errorf("Hermes: %q", got)
	}
	if got := string(EncodePayload(Claude, obj)); got != "{\"a\":\"é\",\"b\":[1,null]}\n" {
		t.Errorf("Claude: %q", got)
	}
}

// Claude scripts read tool_input.file_path where Hermes' file tools say
// "path" (Claude reference §3.2: Write/Edit/Read take file_path): the Claude
// payload adds file_path and keeps path.
func TestClaudePayloadFileToolsGetFilePath(t *testing.T) {
	for _, tool := range []string{"write_file", "read_file", "patch", "Write", "MultiEdit"} {
		p, _ := claudePayload(t, "pre_tool_call", map[string]any{"tool_name": tool,
			"args": map[string]any{"path": "/repo/a.go", "content": "x"}})
		want := map[string]any{"path": "/repo/a.go", "file_path": "/repo/a.go", "content": "x"}
		if !reflect.DeepEqual(p["tool_input"], want) {
			t.Errorf("%s: tool_input = %v, want %v", tool, p["tool_input"], want)
		}
	}
	// A host that already says file_path, a tool that is not a file tool,
	// and args without path are left alone.
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"write_file", map[string]any{"path": "/a", "file_path": "/b"}},
		{"terminal", map[string]any{"path": "/a"}},
		{"web_search", map[string]any{"path": "/a"}},
		{"write_file", map[string]any{"content": "x"}},
	} {
		p, _ := claudePayload(t, "pre_tool_call", map[string]any{"tool_name": tc.tool, "args": tc.args})
		if !reflect.DeepEqual(p["tool_input"], tc.args) {
			t.Errorf("%s %v: tool_input = %v, want unchanged", tc.tool, tc.args, p["tool_input"])
		}
	}
	// The host's map is not modified, and the Hermes payload is untouched.
	args := map[string]any{"path": "/a"}
	BuildPayload(Claude, ev("pre_tool_call"), map[string]any{"tool_name": "write_file", "args": args}, hermesEnv)
	if !reflect.DeepEqual(args, map[string]any{"path": "/a"}) {
		t.Errorf("host args modified: %v", args)
	}
	p := decodeObject(t, BuildPayload(Hermes, ev("pre_tool_call"), map[string]any{"tool_name": "write_file", "args": args}, hermesEnv))
	if !reflect.DeepEqual(p["tool_input"], map[string]any{"path": "/a"}) {
		t.Errorf("Hermes tool_input = %v", p["tool_input"])
	}
}

func TestHostArgs(t *testing.T) {
	cases := []struct {
		name     string
		original any
		updated  map[string]any
		want     map[string]any
	}{
		{"hermes_host_path_restored", map[string]any{"path": "/a", "content": "x"},
			map[string]any{"file_path": "/b", "content": "y"}, map[string]any{"path": "/b", "content": "y"}},
		{"echoed_path_and_new_file_path", map[string]any{"path": "/a"},
			map[string]any{"path": "/a", "file_path": "/b"}, map[string]any{"path": "/b"}},
		{"claude_host_keeps_file_path", map[string]any{"file_path": "/a"},
			map[string]any{"file_path": "/b"}, map[string]any{"file_path": "/b"}},
		{"host_with_both_keeps_update", map[string]any{"path": "/a", "file_path": "/a"},
			map[string]any{"file_path": "/b"}, map[string]any{"file_path": "/b"}},
		{"update_without_file_path", map[string]any{"path": "/a"},
			map[string]any{"content": "y"}, map[string]any{"content": "y"}},
		{"original_not_a_map", nil, map[string]any{"file_path": "/b"}, map[string]any{"file_path": "/b"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := string(pyjson.Encode(tc.updated, pyjson.Compact))
			if got := HostArgs(tc.original, tc.updated); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("HostArgs = %v, want %v", got, tc.want)
			}
			if after := string(pyjson.Encode(tc.updated, pyjson.Compact)); after != before {
				t.Errorf("HostArgs modified its input: %s → %s", before, after)
			}
		})
	}
}

// Claude reference §2.1: renamed tools are matched under both names —
// Agent/Task, KillShell→TaskStop, AgentOutputTool/BashOutputTool→TaskOutput.
func TestClaudeToolNamesLegacyPairs(t *testing.T) {
	ok := true
	for name, want := range map[string]string{
		"Task": "Agent", "Agent": "Task", "KillShell": "TaskStop", "TaskStop": "KillShell",
		"TaskOutput": "AgentOutputTool",
	} {
		if !contains(ClaudeToolNames(name), want) {
			t.Errorf("ClaudeToolNames(%s) = %v, want it to include %s", name, ClaudeToolNames(name), want)
		}
	}
	if !contains(ClaudeToolNames("TaskOutput"), "BashOutputTool") {
		t.Errorf("ClaudeToolNames(TaskOutput) = %v, want BashOutputTool too", ClaudeToolNames("TaskOutput"))
	}
	var missing []string
	for _, legacy := range []string{"AgentOutputTool", "BashOutputTool"} {
		if !contains(ClaudeToolNames(legacy), "TaskOutput") {
			missing = append(missing, legacy)
			ok = false
		}
	}
	if !ok {
		t.Fatalf("regression: ClaudeToolNames(%v) lacks TaskOutput; tools.go keys the reverse pair as \"AgentOutput\" and has none for BashOutputTool (Claude ref §2.1: matched under both names)", missing)
	}
}

// What a Claude hook writes to CLAUDE_ENV_FILE: export lines are read, the
// rest (commands, substitutions) is left out and noted.
func TestParseEnvFile(t *testing.T) {
	vars, note := ParseEnvFile([]byte("export NODE_ENV=production\nexport A='x y' B=\"$A!\"\nexport PATH=\"$PATH:/opt/bin\"\necho hi\nexport C=$(whoami)\n"))
	want := map[string]string{"NODE_ENV": "production", "A": "x y", "B": "x y!"}
	if !reflect.DeepEqual(vars, want) || !strings.Contains(note, "3 statement(s)") {
		t.Fatalf("vars %v note %q", vars, note)
	}
	if vars, note := ParseEnvFile([]byte("export X=1 &&")); vars != nil || note == "" {
		t.Fatalf("invalid shell: %v %q", vars, note)
	}
}

func FuzzParseEnvFile(f *testing.F) {
	f.Add([]byte("export A=1\nexport B=\"$A\"\n"))
	f.Add([]byte("export A=$(rm -rf /)\n"))
	f.Fuzz(func(t *testing.T, data []byte) { ParseEnvFile(data) })
}

// AppendEnvExports writes exports that ParseEnvFile (and a shell) reads
// back exactly, whatever the values hold; names that are not shell
// identifiers are left out.
func TestAppendEnvExports(t *testing.T) {
	vars := map[string]string{"B": "it's $(rm -rf x) `y`", "A": "a\nb", "_1": "", "1X": "no", "X-Y": "no", "Z": "nul\x00"}
	got := string(AppendEnvExports(nil, vars))
	want := "export A='a\nb'\nexport B='it'\\''s $(rm -rf x) `y`'\nexport _1=''\n"
	if got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	back, note := ParseEnvFile([]byte(got))
	if note != "" || !reflect.DeepEqual(back, map[string]string{"A": "a\nb", "B": "it's $(rm -rf x) `y`", "_1": ""}) {
		t.Fatalf("read back %v (%s)", back, note)
	}
}

func FuzzAppendEnvExports(f *testing.F) {
	f.Add("NAME", "it's $(x)")
	f.Fuzz(func(t *testing.T, name, value string) {
		out := AppendEnvExports(nil, map[string]string{name: value})
		if len(out) == 0 {
			return
		}
		back, note := ParseEnvFile(out)
		if note != "" || back[name] != value || len(back) != 1 {
			t.Fatalf("%q=%q wrote %q, read back %v (%s)", name, value, out, back, note)
		}
	})
}

// Claude payload fields a host provides — prompt_id, effort,
// transcript_path, tool_use_id (from Hermes' tool_call_id too) — reach
// Claude hooks under Claude's names (issue 13, item 7).
func TestClaudePayloadNewerFields(t *testing.T) {
	p := decodeObject(t, BuildPayload(Claude, ev("pre_tool_call"), map[string]any{
		"tool_name": "terminal", "tool_call_id": "c-7", "prompt_id": "p-1",
		"effort": map[string]any{"level": "high"}, "transcript_path": "/t/s.jsonl",
	}, hermesEnv))
	if p["prompt_id"] != "p-1" || p["tool_use_id"] != "c-7" || p["transcript_path"] != "/t/s.jsonl" {
		t.Fatalf("payload %v", p)
	}
	if e, _ := p["effort"].(map[string]any); e["level"] != "high" {
		t.Fatalf("effort %v", p["effort"])
	}
	keys := topLevelKeys(t, BuildPayload(Claude, ev("pre_tool_call"), map[string]any{"prompt_id": "p", "tool_name": "Bash"}, hermesEnv))
	if keys[5] != "prompt_id" {
		t.Fatalf("prompt_id follows the common fields: %v", keys)
	}
}

// A Claude Code host's payload reaches its Claude-dialect hooks with the
// fields Claude Code sent, not the Hermes names `hook claude`'s decode
// adds beside them for Hermes-dialect hooks (user_message beside prompt,
// final_response or child_summary beside last_assistant_message): a
// Stop hook's stdin carried the last assistant message twice, and every
// script a key Claude Code never sends. A Hermes host's own field with
// another value than the Claude one stays, as it did.
func TestClaudePayloadLeavesOutDecodeAliases(t *testing.T) {
	cases := []struct {
		event  string
		fields map[string]any
		gone   string
		kept   string
	}{
		{"UserPromptSubmit", map[string]any{"prompt": "fix it", "user_message": "fix it"}, "user_message", "prompt"},
		{"Stop", map[string]any{"last_assistant_message": "done", "final_response": "done"}, "final_response", "last_assistant_message"},
		{"SubagentStop", map[string]any{"last_assistant_message": "ok", "child_summary": "ok", "agent_type": "r"}, "child_summary", "last_assistant_message"},
	}
	for _, c := range cases {
		p, keys := claudePayload(t, c.event, c.fields)
		if contains(keys, c.gone) || p[c.kept] != c.fields[c.kept] {
			t.Errorf("%s: keys %v, %s = %#v", c.event, keys, c.kept, p[c.kept])
		}
	}
	p, _ := claudePayload(t, "UserPromptSubmit", map[string]any{"prompt": "native", "user_message": "hermes"})
	if p["prompt"] != "native" || p["user_message"] != "hermes" {
		t.Errorf("a host field of its own must stay: %v", p)
	}
}
