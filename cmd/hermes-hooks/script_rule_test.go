package main

import (
	"os"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// big-payload FILE N writes a pre_tool_call payload whose terminal command
// is N bytes, for the scripts that feed a rule a hostile payload
// (rule_attack.txtar).
func init() {
	scriptCmds["big-payload"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: big-payload FILE N")
		}
		n, err := strconv.Atoi(args[1])
		if err != nil {
			ts.Fatalf("big-payload: %v", err)
		}
		body := `{"tool_name":"terminal","session_id":"s1","args":{"command":"` + strings.Repeat("rm -rf / ", n/9) + `"}}`
		ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(body), 0o644))
	}
	// deep-payload FILE DEPTH writes a pre_tool_call payload of the
	// command ls with a list nested DEPTH levels beside it.
	scriptCmds["deep-payload"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: deep-payload FILE DEPTH")
		}
		n, err := strconv.Atoi(args[1])
		if err != nil {
			ts.Fatalf("deep-payload: %v", err)
		}
		body := `{"tool_name":"terminal","session_id":"s1","args":{"command":"ls","x":` +
			strings.Repeat("[", n) + strings.Repeat("]", n) + `}}`
		ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(body), 0o644))
	}
}
