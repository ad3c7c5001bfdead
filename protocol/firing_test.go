package protocol

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// NewFiring reads each typed field by one rule: the tool when tool_name is
// a string, args else tool_input, session_id when truthy else
// parent_session_id, each only when a string, the cwd when a non-empty
// string.
func TestNewFiringReadsTheHostFields(t *testing.T) {
	cases := []struct {
		name   string
		fields map[string]any
		want   Firing // Event, Name and Fields not compared
	}{
		{"nothing", nil, Firing{}},
		{"tool and args", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"}},
			Firing{HostTool: "terminal", HasTool: true, Tool: "terminal", ClaudeTool: "terminal", Args: map[string]any{"command": "ls"}, HasArgs: true, argsSent: true}},
		{"empty tool name is a name", map[string]any{"tool_name": ""}, Firing{HasTool: true}},
		{"non-string tool name", map[string]any{"tool_name": 5}, Firing{}},
		{"tool_input when no args", map[string]any{"tool_input": map[string]any{"file_path": "/a"}},
			Firing{Args: map[string]any{"file_path": "/a"}, HasArgs: true, inputSent: true}},
		{"args win over tool_input", map[string]any{"args": "x", "tool_input": map[string]any{}}, Firing{Args: "x", HasArgs: true, argsSent: true, inputSent: true}},
		{"null args are sent", map[string]any{"args": nil}, Firing{HasArgs: true, argsSent: true}},
		{"session", map[string]any{"session_id": "s1", "parent_session_id": "p"}, Firing{Session: "s1"}},
		{"parent session when none", map[string]any{"session_id": "", "parent_session_id": "p"}, Firing{Session: "p"}},
		{"a numeric session is no string", map[string]any{"session_id": json.Number("7"), "parent_session_id": "p"}, Firing{}},
		{"cwd", map[string]any{"cwd": "/w"}, Firing{HostCwd: "/w"}},
		{"empty cwd", map[string]any{"cwd": ""}, Firing{}},
		{"non-string cwd", map[string]any{"cwd": []any{"/w"}}, Firing{}},
	}
	pre := ev("pre_tool_call")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := NewFiring(pre, "", c.fields)
			if f.Event != pre || f.Name != pre.Name {
				t.Fatalf("event %v, name %q", f.Event, f.Name)
			}
			f.Event, f.Name, f.Fields = nil, "", nil
			if !reflect.DeepEqual(f, c.want) {
				t.Fatalf("NewFiring(%v) =\n %+v, want\n %+v", c.fields, f, c.want)
			}
		})
	}
}

// WithArgs: the rewrite under the key the host sent, the host's map left
// as it was, "args" when the host sent none.
func TestFiringWithArgs(t *testing.T) {
	pre := ev("pre_tool_call")
	rw := map[string]any{"command": "rm -rf /"}
	for _, c := range []struct {
		name   string
		fields map[string]any
		key    string
	}{
		{"args", map[string]any{"args": map[string]any{"command": "ls"}, "session_id": "s"}, "args"},
		{"tool_input", map[string]any{"tool_input": map[string]any{"command": "ls"}, "session_id": "s"}, "tool_input"},
		{"none", map[string]any{"session_id": "s"}, "args"},
		{"nil fields", nil, "args"},
		// Cursor: its tool_input as sent, and the args read from it.
		{"both", map[string]any{"args": map[string]any{"command": "ls"}, "tool_input": map[string]any{"command": "ls"}, "session_id": "s"}, "args,tool_input"},
	} {
		f := NewFiring(pre, "", c.fields)
		before := fmt.Sprint(c.fields)
		got := f.WithArgs(rw)
		for _, key := range strings.Split(c.key, ",") {
			if !reflect.DeepEqual(got[key], rw) || fmt.Sprint(c.fields) != before {
				t.Errorf("%s: %s is %v (host's map now %v)", c.name, key, got, c.fields)
			}
		}
		if c.fields != nil && got["session_id"] != "s" {
			t.Errorf("%s: the other fields are lost: %v", c.name, got)
		}
		if g := NewFiring(pre, "", got); !reflect.DeepEqual(g.Args, rw) {
			t.Errorf("%s: the rewritten firing reads %v", c.name, g.Args)
		}
	}
	// tool_input sent as text, and no args: the rewrite is also under
	// args, which NewFiring reads first, so the rules read the object.
	fields := map[string]any{"tool_input": `{"command":"ls"}`}
	f := NewFiring(pre, "", fields)
	got := f.WithArgs(rw)
	if g := NewFiring(pre, "", got); !reflect.DeepEqual(g.Args, rw) || got["tool_input"] != `{"command":"rm -rf /"}` {
		t.Errorf("text tool_input alone: rewritten %v, read back as %v", got, g.Args)
	}
	// Copilot CLI: its toolArgs beside the tool_input decoded from it;
	// Cursor's MCP events: tool_input as text beside the args read from
	// it. Each rewritten in the form it came in (JSON text, or an object).
	for _, key := range []string{"toolArgs", "tool_input"} {
		for _, sent := range []any{`{"command":"ls"}`, map[string]any{"command": "ls"}} {
			fields := map[string]any{"args": map[string]any{"command": "ls"}, key: sent}
			f := NewFiring(pre, "", fields)
			got := f.WithArgs(rw)
			want := any(rw)
			if _, text := sent.(string); text {
				want = `{"command":"rm -rf /"}`
			}
			if !reflect.DeepEqual(got[key], want) || !reflect.DeepEqual(got["args"], rw) || !reflect.DeepEqual(fields[key], sent) {
				t.Errorf("%s sent as %T: rewritten %v", key, sent, got)
			}
		}
	}
}

// A gateway member fired without its field (command:model) is the
// family's event, with the member's field set in the firing's Fields only.
func TestNewFiringGatewayMember(t *testing.T) {
	e, ok := Lookup("command:model")
	if !ok {
		t.Fatal("command:model unknown")
	}
	host := map[string]any{"session_id": "s"}
	f := NewFiring(e, "command:model", host)
	if f.Name != "command:model" || f.Fields[e.FamilyField] != "model" {
		t.Fatalf("name %q, fields %v", f.Name, f.Fields)
	}
	if _, set := host[e.FamilyField]; set {
		t.Fatal("the host's map was written")
	}
}

// Bind: the tool's names under the table, and the one cwd rule: the
// host's cwd when it names a directory, else the fallback; a firing
// without a cwd asks nothing.
func TestFiringBind(t *testing.T) {
	dirs := map[string]bool{"/proj": true}
	cases := []struct {
		name     string
		fields   map[string]any
		wantCwd  string
		wantAsks int
	}{
		{"a directory", map[string]any{"cwd": "/proj"}, "/proj", 1},
		{"no such directory", map[string]any{"cwd": "/gone"}, "/fallback", 1},
		{"no cwd", map[string]any{}, "/fallback", 0},
		{"empty cwd", map[string]any{"cwd": ""}, "/fallback", 0},
		{"not a string", map[string]any{"cwd": 1}, "/fallback", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			asks := 0
			f := NewFiring(ev("pre_tool_call"), "", c.fields)
			f.Bind(nil, "/fallback", func(p string) bool { asks++; return dirs[p] })
			if f.Cwd != c.wantCwd || asks != c.wantAsks {
				t.Fatalf("cwd %q after %d asks, want %q after %d", f.Cwd, asks, c.wantCwd, c.wantAsks)
			}
		})
	}
	f := NewFiring(ev("pre_tool_call"), "", map[string]any{"tool_name": "Bash", "cwd": "/proj"})
	f.Bind(NewToolTable(nil), "/fallback", nil)
	if f.Tool != "terminal" || f.ClaudeTool != "Bash" || f.HostTool != "Bash" {
		t.Fatalf("tool %q, Claude %q, host %q", f.Tool, f.ClaudeTool, f.HostTool)
	}
	if f.Cwd != "/fallback" {
		t.Fatalf("without isDir the host's cwd was trusted: %q", f.Cwd)
	}
}

// Building a firing allocates nothing: it is on the no-match path of every
// dispatch.
func TestNewFiringAllocatesNothing(t *testing.T) {
	fields := map[string]any{"tool_name": "terminal", "args": map[string]any{}, "session_id": "s", "cwd": "/w"}
	pre := ev("pre_tool_call")
	tools := DefaultTools()
	if n := testing.AllocsPerRun(100, func() {
		f := NewFiring(pre, "", fields)
		f.Bind(tools, "/d", nil)
	}); n != 0 {
		t.Fatalf("NewFiring allocated %v times", n)
	}
}

// FuzzNewFiring: any host object reads into a firing without panicking,
// without writing the host's map, and by the rules above.
func FuzzNewFiring(f *testing.F) {
	f.Add([]byte(`{"tool_name":"Bash","args":[1,2],"session_id":0,"parent_session_id":{"a":[]},"cwd":5}`), uint8(0))
	f.Add([]byte(`{"tool_input":{"file_path":"/a"},"session_id":"s","cwd":"/w"}`), eventIndex("PreToolUse"))
	f.Add([]byte(`{"tool_name":"","args":null,"parent_session_id":"p","cwd":""}`), eventIndex("command:*"))
	f.Fuzz(func(t *testing.T, data []byte, evIdx uint8) {
		fields, ok := fuzzFields(data)
		if !ok {
			return
		}
		e := eventAt(evIdx)
		before := string(pyjson.Encode(fields, pyjson.Compact))
		fr := NewFiring(e, "", fields)
		fr.Bind(nil, "/fallback", func(p string) bool { return p == "/w" })
		if after := string(pyjson.Encode(fields, pyjson.Compact)); after != before {
			t.Fatal("NewFiring modified the fields")
		}
		if s, isStr := fields["tool_name"].(string); isStr != fr.HasTool || isStr && s != fr.HostTool {
			t.Fatalf("tool %q/%v from %v", fr.HostTool, fr.HasTool, fields["tool_name"])
		}
		if fr.Session != SessionID(fields) {
			t.Fatalf("session %q, SessionID %q", fr.Session, SessionID(fields))
		}
		if fr.Cwd != "/fallback" && fr.Cwd != "/w" || fr.Cwd == "/w" && fields["cwd"] != "/w" {
			t.Fatalf("cwd %q from %v", fr.Cwd, fields["cwd"])
		}
		_, hasArgs := fields["args"]
		_, hasInput := fields["tool_input"]
		if fr.HasArgs != (hasArgs || hasInput) {
			t.Fatalf("HasArgs %v from %v", fr.HasArgs, fields)
		}
	})
}

// MergeFields reads a tool_input without args as the call's arguments, and
// leaves args the arguments where both are given.
func TestMergeFieldsToolInputAsArgs(t *testing.T) {
	into := map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "echo hello"}}
	if !MergeFields(into, map[string]any{"tool_input": map[string]any{"command": "rm -rf /"}}) {
		t.Fatal("tool_input alone: not read as args")
	}
	if f := NewFiring(nil, "", into); f.ArgsMap()["command"] != "rm -rf /" {
		t.Fatalf("args %v; want the tool_input's", f.Args)
	}
	into = map[string]any{"args": map[string]any{"command": "echo hello"}}
	if MergeFields(into, map[string]any{"args": map[string]any{"command": "ls"}, "tool_input": map[string]any{"command": "rm -rf /"}}) {
		t.Fatal("args and tool_input: tool_input read as args")
	}
	if f := NewFiring(nil, "", into); f.ArgsMap()["command"] != "ls" {
		t.Fatalf("args %v; want ls", f.Args)
	}
}
