package agents

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Every shape cline 3's run_commands runs reaches a terminal guard as its
// command text (seen against @cline/core 0.0.86's createShellTool, which
// ran rm -rf for each of these).
func TestClineShellShapes(t *testing.T) {
	cline, _ := Lookup("cline")
	for _, c := range []struct{ input, want string }{
		{`{"commands":["rm -rf /tmp/x"]}`, "rm -rf /tmp/x"},
		{`{"commands":["ls","rm -rf x"]}`, "ls\nrm -rf x"},
		{`{"commands":"rm -rf /tmp/x"}`, "rm -rf /tmp/x"},
		{`{"command":"rm -rf /tmp/x"}`, "rm -rf /tmp/x"},
		{`{"cmd":"rm -rf /tmp/x"}`, "rm -rf /tmp/x"},
		{`"rm -rf /tmp/x"`, "rm -rf /tmp/x"},
		{`["rm -rf /tmp/x"]`, "rm -rf /tmp/x"},
		{`{"commands":[{"command":"rm","args":["-rf","/tmp/x y"]}]}`, "rm -rf '/tmp/x y'"},
		{`{"commands":{"command":"rm -rf /tmp/x"}}`, "rm -rf /tmp/x"},
		{`[{"command":"rm","args":["-rf","/"]},"ls"]`, "rm -rf /\nls"},
		{`"{\"commands\":[\"rm -rf /\"]}"`, "rm -rf /"}, // the input as JSON text
		// No shape the SDK knows: its JSON text, never "".
		{`{"shell":"rm -rf /"}`, `{"shell":"rm -rf /"}`},
		{`[1,{"x":"rm -rf /"}]`, "1\n{\"x\":\"rm -rf /\"}"},
		{`{"commands":[]}`, ""},
	} {
		payload := `{"hookName":"tool_call","taskId":"t1","tool_call":{"name":"run_commands","input":` + c.input + `}}`
		call, err := cline.Decode([]byte(payload), "")
		if err != nil {
			t.Fatalf("%s: %v", c.input, err)
		}
		args, _ := call.Fields["args"].(map[string]any)
		if call.Fields["tool_name"] != "terminal" || args["command"] != c.want {
			t.Errorf("%s: tool %v, command %q, want %q", c.input, call.Fields["tool_name"], args["command"], c.want)
		}
	}
}

// cline 3's editor, apply_patch and fetch_web_content are the canonical
// patch and web_extract, so a write_file|patch or web_extract guard sees
// them (they kept the SDK's names, which no matcher of the docs selects).
func TestClineSDKFileAndWebTools(t *testing.T) {
	cline, _ := Lookup("cline")
	for _, c := range []struct {
		name, input, tool string
		want              map[string]any
	}{
		{"editor", `{"path":"/p/a.txt","old_text":"x","new_text":"EVIL"}`, "patch",
			map[string]any{"path": "/p/a.txt", "file_path": "/p/a.txt", "old_text": "x", "old_string": "x", "new_text": "EVIL", "new_string": "EVIL"}},
		{"editor", `{"path":"/p/a.txt","new_text":"EVIL","insert_line":3}`, "patch",
			map[string]any{"path": "/p/a.txt", "file_path": "/p/a.txt", "new_text": "EVIL", "new_string": "EVIL", "insert_line": json.Number("3")}},
		{"apply_patch", `{"input":"*** Begin Patch\n*** Add File: a.txt\n+EVIL\n*** End Patch"}`, "patch",
			map[string]any{"input": "*** Begin Patch\n*** Add File: a.txt\n+EVIL\n*** End Patch", "mode": "patch", "patch": "*** Begin Patch\n*** Add File: a.txt\n+EVIL\n*** End Patch"}},
		// What the SDK applies is its input: a patch beside it is the model's.
		{"apply_patch", `{"input":"+EVIL","patch":"ok"}`, "patch", map[string]any{"input": "+EVIL", "mode": "patch", "patch": "+EVIL"}},
		// The editor writes its new_text, whatever new_string says.
		{"editor", `{"path":"/p/.env","file_path":"/p/ok","new_text":"EVIL","new_string":"ok"}`, "patch",
			map[string]any{"path": "/p/.env", "file_path": "/p/.env", "new_text": "EVIL", "new_string": "EVIL"}},
		{"apply_patch", `"*** Begin Patch\n+EVIL"`, "patch", map[string]any{"mode": "patch", "patch": "*** Begin Patch\n+EVIL"}},
		{"fetch_web_content", `{"requests":[{"url":"https://a.example","prompt":"x"},{"url":"https://evil.example","prompt":"y"}]}`, "web_extract", nil},
	} {
		payload := `{"hookName":"tool_call","taskId":"t1","tool_call":{"name":"` + c.name + `","input":` + c.input + `}}`
		call, err := cline.Decode([]byte(payload), "")
		if err != nil {
			t.Fatalf("%s: %v", c.input, err)
		}
		args, _ := call.Fields["args"].(map[string]any)
		if call.Fields["tool_name"] != c.tool {
			t.Errorf("%s %s: tool %v", c.name, c.input, call.Fields["tool_name"])
		}
		if c.want != nil && fmt.Sprint(args) != fmt.Sprint(c.want) {
			t.Errorf("%s %s: args %v, want %v", c.name, c.input, args, c.want)
		}
		if c.name == "fetch_web_content" && args["url"] != "https://a.example\nhttps://evil.example" {
			t.Errorf("fetch_web_content: url %q", args["url"])
		}
	}
}

// A rewrite goes back in the SDK tool's own input: run_commands'
// commands, apply_patch's input.
func TestClineSDKRewriteInput(t *testing.T) {
	cline, _ := Lookup("cline")
	for _, c := range []struct{ name, input, want string }{
		{"run_commands", `{"commands":"ls"}`, `{"overrideInput":{"commands":["echo hi"]}}`},
		{"apply_patch", `{"input":"p"}`, `{"overrideInput":{"input":"*** Begin Patch"}}`},
	} {
		call, err := cline.Decode([]byte(`{"hookName":"tool_call","taskId":"t1","tool_call":{"name":"`+c.name+`","input":`+c.input+`}}`), "")
		if err != nil {
			t.Fatal(err)
		}
		args := map[string]any{"command": "echo hi"}
		if c.name == "apply_patch" {
			args = map[string]any{"mode": "patch", "patch": "*** Begin Patch"}
		}
		r := cline.Encode(call, &protocol.Outcome{Decision: protocol.DecisionNone, Args: args})
		if got := strings.TrimSpace(string(r.Stdout)); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// cline 3's read_files is the canonical read_file, its paths from every
// input shape @cline/core 0.0.86 takes (its dU union: a path, a list of
// paths or of {path|file_path|filePath, start_line, end_line}, or an
// object whose files, file_paths or paths holds one): it kept the SDK's
// name, which no read_file or Read guard selects, and cline 3 read
// ~/.ssh/id_rsa past a guard written for either.
func TestClineSDKReadFiles(t *testing.T) {
	cline, _ := Lookup("cline")
	for _, c := range []struct {
		input string
		paths []any
	}{
		{`{"files":[{"path":"/h/.ssh/id_rsa","start_line":1,"end_line":3}]}`, []any{"/h/.ssh/id_rsa"}},
		{`{"files":[{"path":"/p/a"},{"file_path":"/h/.env"}]}`, []any{"/p/a", "/h/.env"}},
		{`"/h/.env"`, []any{"/h/.env"}},
		{`["/p/a","/h/.env"]`, []any{"/p/a", "/h/.env"}},
		{`[{"filePath":"/h/.env"}]`, []any{"/h/.env"}},
		{`{"path":"/h/.env"}`, []any{"/h/.env"}},
		{`{"files":"/h/.env"}`, []any{"/h/.env"}},
		{`{"files":{"path":"/h/.env"}}`, []any{"/h/.env"}},
		{`{"file_paths":["/p/a","/h/.env"]}`, []any{"/p/a", "/h/.env"}},
		{`{"file_paths":"/h/.env"}`, []any{"/h/.env"}},
		{`{"paths":["/h/.env",{"path":"/p/a"}]}`, []any{"/h/.env", "/p/a"}},
		{`{"paths":"/h/.env"}`, []any{"/h/.env"}},
		{`"{\"files\":[{\"path\":\"/h/.env\"}]}"`, []any{"/h/.env"}},
	} {
		payload := `{"hookName":"tool_call","taskId":"t1","tool_call":{"name":"read_files","input":` + c.input + `}}`
		call, err := cline.Decode([]byte(payload), "")
		if err != nil {
			t.Fatalf("%s: %v", c.input, err)
		}
		args, _ := call.Fields["args"].(map[string]any)
		if call.Fields["tool_name"] != "read_file" || fmt.Sprint(args["paths"]) != fmt.Sprint(c.paths) {
			t.Errorf("%s: tool %v, paths %v, want read_file %v", c.input, call.Fields["tool_name"], args["paths"], c.paths)
		}
		if one := len(c.paths) == 1; one && (args["path"] != c.paths[0] || args["file_path"] != c.paths[0]) || !one && args["path"] != nil {
			t.Errorf("%s: path %v, file_path %v", c.input, args["path"], args["file_path"])
		}
	}
	// A rewrite goes back as the files the SDK reads.
	call, err := cline.Decode([]byte(`{"hookName":"tool_call","taskId":"t1","tool_call":{"name":"read_files","input":"/h/.env"}}`), "")
	if err != nil {
		t.Fatal(err)
	}
	r := cline.Encode(call, &protocol.Outcome{Decision: protocol.DecisionNone,
		Args: map[string]any{"path": "/p/ok", "file_path": "/p/ok", "paths": []any{"/h/.env"}}})
	if got, want := strings.TrimSpace(string(r.Stdout)), `{"overrideInput":{"files":[{"path":"/p/ok"}]}}`; got != want {
		t.Errorf("rewrite: %s, want %s", got, want)
	}
}
