package rule

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// FuzzCompileEval: no source crashes Compile or Eval, every compiled
// rule decides or errs, and a rule with loops decides as it did before
// the guard put the stop check in their bodies (stop.go): the same
// answer, or the same error.
func FuzzCompileEval(f *testing.F) {
	for _, s := range []string{rmRF, `tool == "terminal"`, `any(split(args.command, " "), # == "-f")`,
		`"a" in args`, `len(keys(payload)) > 2`, `1..3 == [1,2,3]`, `args?.x?.y == nil`,
		`args.command + "x" == args.n + 1`, `args.command matches args.command`, `len(split(args.command, "", 3)) > 1`,
		`count(args.list, # + 1 > 1) > 0`, `sum(args.list, # == 1 ? 2 : 0) == 2`, `map(1..3, # * 2)[0] + 1 == 3`,
		`find(args.list, # == 1) == 1`, `map(filter(args.list, # != 1), #) == ["a"]`, `any(args.list, #)`} {
		f.Add(s, "rm -rf /")
	}
	f.Fuzz(func(t *testing.T, src, command string) {
		r, err := Compile(src)
		if err != nil {
			return
		}
		in := &Input{Tool: "terminal", Args: map[string]any{"command": command, "n": 3, "list": []any{"a", 1}},
			Payload: map[string]any{"tool_input": map[string]any{"command": command}}}
		ok, err := r.Eval(context.Background(), in)
		// run recovers a panic of its own code as an evaluation error (a
		// bug must not take the dispatcher down): still a bug to find.
		if e := (*Error)(nil); errors.As(err, &e) && strings.HasPrefix(e.Msg, "rule failed: ") {
			t.Fatalf("%q on %q panicked: %v", src, command, err)
		}
		if !r.steps {
			return
		}
		prog, _, perr := compileWith(src, true)
		if perr != nil {
			t.Fatalf("%q compiles with the stop check but not without: %v", src, perr)
		}
		plain := &Rule{src: src, prog: prog}
		pok, perr := plain.Eval(context.Background(), in)
		if errors.Is(err, ErrTimeout) || errors.Is(perr, ErrTimeout) {
			return // a runaway on a busy machine: nothing to compare
		}
		if ok != pok || fmt.Sprint(err) != fmt.Sprint(perr) {
			t.Fatalf("%q on %q = %v, %v; without the stop check %v, %v", src, command, ok, err, pok, perr)
		}
	})
}
