package rule

import (
	"context"
	"testing"
)

// FuzzCompileEval: no source crashes Compile or Eval, and every compiled
// rule decides or errs.
func FuzzCompileEval(f *testing.F) {
	for _, s := range []string{rmRF, `tool == "terminal"`, `any(split(args.command, " "), # == "-f")`,
		`"a" in args`, `len(keys(payload)) > 2`, `1..3 == [1,2,3]`, `args?.x?.y == nil`,
		`args.command + "x" == args.n + 1`, `args.command matches args.command`, `len(split(args.command, "", 3)) > 1`,
		`count(args.list, # + 1 > 1) > 0`} {
		f.Add(s, "rm -rf /")
	}
	f.Fuzz(func(t *testing.T, src, command string) {
		r, err := Compile(src)
		if err != nil {
			return
		}
		in := &Input{Tool: "terminal", Args: map[string]any{"command": command, "n": 3, "list": []any{"a", 1}},
			Payload: map[string]any{"tool_input": map[string]any{"command": command}}}
		_, _ = r.Eval(context.Background(), in)
	})
}
