package rule

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
)

// exprCompile is the rule compiled by expr.Compile with the guard as a
// Patch visitor (expr then checks the tree three times and compiles each
// constant pattern in its checker and again in its compiler): the
// pipeline Compile replaces, and what its programs and errors must equal.
func exprCompile(src string) (*vm.Program, error) {
	// Compile checks before its guard, as expr.Compile does not (its
	// patch visitors run on a tree whose check failed, and the guard's
	// bounded `+` and `matches` take any operands): a rule that does not
	// check is refused for that first.
	if _, err := expr.Compile(src, options()...); err != nil {
		return nil, asError(err)
	}
	g := &guard{src: src}
	prog, err := expr.Compile(src, append(options(), expr.Patch(g))...)
	if err != nil {
		return nil, asError(err)
	}
	if err := g.result(); err != nil {
		return nil, err
	}
	return prog, nil
}

// Compile's pipeline (one check, the guard typing the strict reads it
// puts in, constant patterns compiled once, on a configuration and
// checker every Compile shares) must give the program expr.Compile gives,
// for rules that read members at every depth, in predicates, by index and
// through $env, match constant and computed patterns; and the same error,
// at the same place, where there is one. Rules that fail come before rules
// that compile, in one process: a hostile rule that fails to compile must
// leave nothing behind for the next.
func TestCompileAsExprCompiles(t *testing.T) {
	corpus := append([]string{
		`any(split(args.command, " "), # == "--force")`, `payload.hook_event_name == "PreToolUse"`,
		`args.a.b.c == 1`, `all(args.list, #.x == 1)`, `len(args.list) > 0 && args.list[0].name == "x"`,
		`args["x"] == nil`, `filter(values(args), #?.y != nil) == []`, `args.n + 1 > 2`, `int(args.n) > 1`,
		`fromJSON(args.j).k == 2`, `$env.args.x == 1`, `lower(args.p) startsWith "/etc"`, `args.x.y`,
		`tool.x == 1`, `args.command matches args.pattern`, `args.n > 2 ? args.a == 1 : args.b == 2`,
		`any(split(args.c, ";"), # matches "^\\s*rm")`, `tool matches "a" && tool_name matches "b"`,
		`args.command matches "("`, "tool == \"x\" &&\n  args.command matches \"[a-\"", `args.c matches "a{2,1}"`,
		`1 matches "a"`, `args.c matches "(?P<n>x"`, `"abc" matches "b" == true`, `not (args.c matches "x")`,
		// A rule that fails inside a predicate, then rules with
		// predicates: the shared checker must start each clean.
		`any(1..3, # matches 1)`, `all(args.list, #.x == 1)`, `any(1..3, all(1..2, true))`, `none(1..3, # > 2)`,
		// The guard's bounded `+` and `matches`, and the refusals in loops.
		`args.a + "/" + args.b == cwd`, `trimSuffix(cwd, "/") + "/" == args.p`, `"a" + "b" == tool`, `args.n + 1 > 2`,
		`1 + 2 > 2`, `tool + "x" == "y"`, `args.a matches args.b`, `not (args.a matches tool)`, `"a" + 1 == "a1"`,
		`any(args.list, # + "x" == "y")`, `any(args.list, upper(#) == "X")`, `any(args.list, # matches args.p)`,
		`any(args.list, int(#) + 1 > 2)`, `any(args.list, # matches "^x")`, `len(split(args.c, " ")) > 1`,
		`toJSON(toJSON(args)) != ""`, `len(splitAfter(args.c, ",", 2)) == 2`,
		// commands(), which the guard makes stoppable (#commands).
		`any(commands(args.command), # matches "^rm\\s")`, `len(commands(args.command)) > 1`,
		`commands(args.command)[0] == "ls"`, `"ls" in commands(args.command)`, `any(commands(args.c), len(#) > 3)`,
	}, twentyRules...)
	for _, src := range corpus {
		want, wantErr := exprCompile(src)
		got, err := Compile(src)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Errorf("%q: err = %v; expr.Compile: %v", src, err, wantErr)
			continue
		}
		if err != nil {
			continue
		}
		prog, err := got.program()
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if g, w := prog.Disassemble(), want.Disassemble(); g != w {
			t.Errorf("%s compiles to\n%s\nexpr.Compile to\n%s", src, g, w)
		}
	}
}

// Compiles share one expr configuration (its type caches fill in as rules
// are checked): rules compiled and evaluated from many goroutines at once
// must decide as one compiled alone does. Run with -race.
func TestCompileConcurrently(t *testing.T) {
	in := &Input{Tool: "terminal", Args: map[string]any{"command": "rm -rf /", "path": "/srv/app/.env"},
		Payload: map[string]any{"hook_event_name": "PreToolUse"}}
	want := map[string]bool{}
	for _, src := range twentyRules {
		r, err := Compile(src)
		if err != nil {
			t.Fatal(err)
		}
		if want[src], err = r.Eval(context.Background(), in); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8*len(twentyRules))
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, src := range twentyRules {
				r, err := Compile(src)
				if err != nil {
					errs <- err
					return
				}
				got, err := r.Eval(context.Background(), in)
				if err != nil || got != want[src] {
					errs <- fmt.Errorf("%s = %v, %v; want %v", src, got, err, want[src])
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
