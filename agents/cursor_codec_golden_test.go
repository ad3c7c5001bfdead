package agents

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

var updateCursorGolden = flag.Bool("update-cursor-golden", false, "rewrite testdata/cursor_codec.golden.json from the current code")

// The golden file was written by the Cursor dialect's functions as they
// were in package protocol, before they became cursorCodec; the codec an
// entry carries must give byte-identical payloads, the same contributions
// and notes, the same firings covered, matcher subjects and fail-closed
// events, so that moving the dialect changed no behaviour. One change was
// made since, on purpose: a refusal in words Cursor does not read on the
// event (continue:false before a tool, permission before a prompt) is
// unreadable, as for every dialect (protocol.CodecRead): a fail_closed
// guard refuses and the note says why.
type cursorGoldenOps struct {
	payload func(declared string, ev *protocol.Event, fields map[string]any, env protocol.PayloadEnv) []byte
	reply   func(declared string, r protocol.Reply) (*protocol.Contribution, string)
	covers  func(declared string, fields map[string]any, tools *protocol.ToolTable) bool
	subject func(declared string, ev *protocol.Event, fields map[string]any, tools *protocol.ToolTable) (string, bool)
	refuses func(declared string) bool
}

// codecOps are the Cursor codec's, as an entry of a Cursor hooks.json
// carries it (the registry's Source.Codec).
func codecOps(t *testing.T) cursorGoldenOps {
	c := cursor.Source.Codec
	rules, ok := c.(protocol.EventRules)
	if !ok {
		t.Fatalf("the Cursor codec %T does not implement protocol.EventRules", c)
	}
	return cursorGoldenOps{payload: c.Payload, reply: func(declared string, r protocol.Reply) (*protocol.Contribution, string) {
		return parseReply(c, declared, r)
	}, covers: rules.Covers, subject: c.MatchSubject, refuses: rules.Refuses}
}

// cursorGoldenFields are host fields of every shape a Cursor hook can be
// fed from: a Hermes host, Claude Code, Cursor itself, and odd values.
var cursorGoldenFields = []string{
	`{}`,
	`{"tool_name":"terminal","args":{"command":"ls -l"},"session_id":"s1","cwd":"/w","result":"out"}`,
	`{"tool_name":"Bash","tool_input":{"command":"rm -rf /"},"session_id":"s2","tool_response":{"stdout":"x"}}`,
	`{"tool_name":"read_file","args":{"path":"/etc/hosts"}}`,
	`{"tool_name":"Read","tool_input":{"file_path":"/w/a"}}`,
	`{"tool_name":"patch","args":{"path":"f","old_string":"a","new_string":"b"}}`,
	`{"tool_name":"write_file","args":{"path":"g","edits":[{"old_string":"","new_string":"x"}]}}`,
	`{"tool_name":"mcp__db__query","args":{"q":1},"result":"{\"rows\":[]}"}`,
	`{"tool_name":"MCP:query","tool_input":{"q":2}}`,
	`{"tool_name":"Grep","tool_input":{"pattern":"x"},"conversation_id":"c","workspace_roots":["/r1","/r2"]}`,
	`{"user_message":"hi","prompt":"hello","session_id":7}`,
	`{"stop_hook_active":true,"status":"aborted","loop_count":3,"transcript_path":"/t"}`,
	`{"stop_hook_active":true,"extra":{"k":[1,2.5,null,"\u2028"]},"cwd":"/c"}`,
	`{"tool_name":null,"args":"not an object","conversation_id":null}`,
}

// cursorGoldenReplies are hook runs of every kind ReadReply tells apart.
var cursorGoldenReplies = []protocol.Reply{
	{Stdout: []byte(`{"permission":"deny","user_message":"u","agent_message":"a"}`)},
	{Stdout: []byte(`{"permission":"deny"}`)},
	{Stdout: []byte(`{"permission":"allow"}`)},
	{Stdout: []byte(`{"permission":"ask","user_message":"sure?"}`)},
	{Stdout: []byte(`{"permission":"maybe"}`)},
	{Stdout: []byte(`{"updated_input":{"command":"ls"}}`)},
	{Stdout: []byte(`{"updated_input":"ls"}`)},
	{Stdout: []byte(`{"continue":false,"user_message":"not that"}`)},
	{Stdout: []byte(`{"continue":"no"}`)},
	{Stdout: []byte(`{"followup_message":"run the tests"}`)},
	{Stdout: []byte(`{"additional_context":"note","env":{"A":"1","B":2}}`)},
	{Stdout: []byte(`not json`)},
	{Stdout: []byte(`[1,2]`)},
	{Stdout: []byte("  \n")},
	{ExitCode: 2, Stderr: []byte("refused here\nsecond line")},
	{ExitCode: 2, Stdout: []byte(`{"agent_message":"why"}`)},
	{ExitCode: 1, Stderr: []byte("boom\nmore")},
	{ExitCode: -9},
	{ExitCode: 3, Stdout: []byte(`not json`)},
	{TimedOut: true, Timeout: 2.5},
	{SpawnError: "exec: no such file"},
	{Stdout: []byte("\xff\xfe{")},
}

type cursorGoldenRecord struct {
	Kind    string                 `json:"kind"`
	Event   string                 `json:"event"`
	Case    int                    `json:"case"`
	Closed  bool                   `json:"fail_closed,omitempty"`
	Payload string                 `json:"payload,omitempty"`
	Contrib *protocol.Contribution `json:"contribution,omitempty"`
	Note    string                 `json:"note,omitempty"`
	Bool    bool                   `json:"bool,omitempty"`
	Subject string                 `json:"subject,omitempty"`
}

// cursorGoldenRecords runs ops over every Cursor event and the tables above.
func cursorGoldenRecords(t *testing.T, ops cursorGoldenOps) []cursorGoldenRecord {
	t.Helper()
	events := make([]string, 0, len(cursor.Events))
	for name := range cursor.Events {
		events = append(events, name)
	}
	sort.Strings(events)
	tools := protocol.DefaultTools()
	env := protocol.PayloadEnv{Cwd: "/dispatch", Profile: "p", Tools: tools}
	var out []cursorGoldenRecord
	for _, name := range events {
		canon := ev(t, cursor.Events[name])
		out = append(out, cursorGoldenRecord{Kind: "refuses", Event: name, Bool: ops.refuses(name)})
		for i, src := range cursorGoldenFields {
			v, err := pyjson.Decode([]byte(src))
			if err != nil {
				t.Fatalf("fields %d: %v", i, err)
			}
			fields := v.(map[string]any)
			subject, ok := ops.subject(name, canon, fields, tools)
			out = append(out,
				cursorGoldenRecord{Kind: "payload", Event: name, Case: i, Payload: string(ops.payload(name, canon, fields, env))},
				cursorGoldenRecord{Kind: "covers", Event: name, Case: i, Bool: ops.covers(name, fields, tools)},
				cursorGoldenRecord{Kind: "subject", Event: name, Case: i, Subject: subject, Bool: ok})
		}
		for i, r := range cursorGoldenReplies {
			for _, closed := range []bool{false, true} {
				r.Event, r.Command, r.FailClosed = canon, "./guard.sh", closed
				c, note := ops.reply(name, r)
				out = append(out, cursorGoldenRecord{Kind: "reply", Event: name, Case: i, Closed: closed, Contrib: c, Note: note})
			}
		}
	}
	return out
}

// TestCursorCodecGolden: the Cursor codec gives what the Cursor dialect gave
// before it moved (payload bytes, contributions, notes) for every Cursor
// event over a table of host fields and hook runs.
func TestCursorCodecGolden(t *testing.T) {
	var buf bytes.Buffer
	for _, r := range cursorGoldenRecords(t, codecOps(t)) {
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	path := filepath.Join("testdata", "cursor_codec.golden.jsonl")
	if *updateCursorGolden {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := bytes.Split(buf.Bytes(), []byte("\n"))
	for i, w := range bytes.Split(want, []byte("\n")) {
		if i >= len(got) || !bytes.Equal(got[i], w) {
			var g []byte
			if i < len(got) {
				g = got[i]
			}
			t.Fatalf("line %d differs from the golden:\n got %s\nwant %s", i+1, g, w)
		}
	}
	if len(got) != len(bytes.Split(want, []byte("\n"))) {
		t.Fatalf("%d lines, the golden has %d", len(got), len(bytes.Split(want, []byte("\n"))))
	}
}
