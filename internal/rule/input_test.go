package rule

import (
	"context"
	"maps"
	"reflect"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// A firing's numbers are read from the host's JSON as json.Number (so a
// payload passed on keeps its bytes); a rule sees them as numbers, as
// Python's json and a rule's examples (YAML) give them: an integer as an
// int, anything else as a float. As json.Number, `args.timeout > 600` was
// an evaluation error and `args.timeout == 601` quietly false.
func TestInputNumbers(t *testing.T) {
	v, err := pyjson.Decode([]byte(`{"tool_name":"terminal","session_id":"s",
		"args":{"command":"ls","timeout":601,"f":1.5,"e":1e3,"big":123456789012345678901,"list":[1,{"n":2}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	pre, _ := protocol.Lookup("pre_tool_call")
	f := protocol.NewFiring(pre, "", v.(map[string]any))
	in := InputOf(&f, "")
	for _, src := range []string{
		`args.timeout > 600`,
		`args.timeout == 601`,
		`type(args.timeout) == "int"`,
		`args.f == 1.5 && args.f + args.timeout == 602.5`,
		`args.e == 1000 && type(args.e) == "float"`,
		`args.big > 1e20`,
		`args.list[0] == 1 && args.list[1].n == 2`,
		`payload.args.timeout == 601 && payload.args.list[1].n == 2`,
		`any(args.list, # == 1)`,
	} {
		r, err := Compile(src)
		if err != nil {
			t.Fatalf("Compile(%s): %v", src, err)
		}
		if ok, err := r.Eval(context.Background(), in); !ok || err != nil {
			t.Errorf("%s = %v, %v; want true", src, ok, err)
		}
	}
	// args is the payload's copy, not a second one.
	if pa, ok := in.Payload["args"].(map[string]any); !ok || reflect.ValueOf(pa).UnsafePointer() != reflect.ValueOf(in.Args).UnsafePointer() {
		t.Error("args was copied apart from the payload's args")
	}
	// The host's fields keep their json.Number: what is passed on is
	// what the host sent.
	if _, ok := f.ArgsMap()["timeout"].(interface{ String() string }); !ok {
		t.Errorf("the firing's args changed: %T", f.ArgsMap()["timeout"])
	}
}

// With gives what InputOf gives for the fields with the key set (a later
// priority tier's metadata), and leaves the Input it was made from as it
// was.
func TestInputWith(t *testing.T) {
	v, err := pyjson.Decode([]byte(`{"tool_name":"terminal","args":{"command":"ls","timeout":601}}`))
	if err != nil {
		t.Fatal(err)
	}
	fields := v.(map[string]any)
	meta, err := pyjson.Decode([]byte(`{"strict":true,"level":3}`))
	if err != nil {
		t.Fatal(err)
	}
	pre, _ := protocol.Lookup("pre_tool_call")
	f := protocol.NewFiring(pre, "", fields)
	in := InputOf(&f, "claude")
	withMeta := maps.Clone(fields)
	withMeta["metadata"] = meta
	f2 := protocol.NewFiring(pre, "", withMeta)
	if got, want := in.With("metadata", meta), InputOf(&f2, "claude"); !reflect.DeepEqual(got, want) {
		t.Errorf("With:\n%+v\nwant\n%+v", got, want)
	}
	if _, ok := in.Payload["metadata"]; ok {
		t.Error("With changed the Input it was made from")
	}
}

// An agent's call shows tool_name as Claude Code names the tool, whatever
// spelling its adapter gave (Cursor's, Windsurf's and Cline's give Hermes'
// terminal); dispatch (no agent) shows it as sent.
func TestInputToolNameOfAgents(t *testing.T) {
	for _, c := range []struct{ agent, sent, want string }{
		{"cursor", "terminal", "Bash"}, {"windsurf", "patch", "Edit"}, {"gemini", "Bash", "Bash"},
		{"cline", "mcp__s__t", "mcp__s__t"}, {"", "terminal", "terminal"},
	} {
		pre, _ := protocol.Lookup("pre_tool_call")
		f := protocol.NewFiring(pre, "", map[string]any{"tool_name": c.sent})
		f.Bind(nil, "/", nil)
		if got := InputOf(&f, c.agent).ToolName; got != c.want {
			t.Errorf("%s %s: tool_name %q, want %q", c.agent, c.sent, got, c.want)
		}
	}
}
