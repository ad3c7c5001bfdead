package agents

import (
	"testing"
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
