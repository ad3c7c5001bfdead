package rule

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// The guard types the strict reads it puts in instead of checking the
// tree again: every program must be the one a second check gives, for
// rules that read members at every depth, in predicates, by index and
// through $env, and the same errors where there are any.
func TestStrictReadNeedsNoRecheck(t *testing.T) {
	corpus := append([]string{
		`any(split(args.command, " "), # == "--force")`, `payload.hook_event_name == "PreToolUse"`,
		`args.a.b.c == 1`, `all(args.list, #.x == 1)`, `len(args.list) > 0 && args.list[0].name == "x"`,
		`args["x"] == nil`, `filter(values(args), #?.y != nil) == []`, `args.n + 1 > 2`, `int(args.n) > 1`,
		`fromJSON(args.j).k == 2`, `$env.args.x == 1`, `lower(args.p) startsWith "/etc"`, `args.x.y`,
		`tool.x == 1`, `args.command matches args.pattern`, `args.n > 2 ? args.a == 1 : args.b == 2`,
	}, twentyRules...)
	defer func() { recheckStrict = false }()
	for _, src := range corpus {
		recheckStrict = true
		want, wantErr := Compile(src)
		recheckStrict = false
		got, err := Compile(src)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Errorf("%s: err = %v; with a second check %v", src, err, wantErr)
			continue
		}
		if err != nil {
			continue
		}
		if g, w := got.prog.Disassemble(), want.prog.Disassemble(); g != w {
			t.Errorf("%s compiles to\n%s\nwith a second check to\n%s", src, g, w)
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
