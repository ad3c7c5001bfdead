package permrule

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// fill repeats unit (numbered) up to 64 KiB, then tail: the largest line a
// hostile payload can give Commands.
func fill(unit func(i int) string, tail string) string {
	var b strings.Builder
	for i := 0; ; i++ {
		u := unit(i)
		if b.Len()+len(u)+len(tail) > maxShellCommand {
			break
		}
		b.WriteString(u)
	}
	return b.String() + tail
}

// TestCommandsBoundedOnManyStrings: lines of thousands of command strings
// or array assignments — what a payload can send — are read, or refused,
// at once. Each took minutes (a line of evals merged every command's last
// argument into every string's values: 135 s) or gigabytes (a[0]=x;
// a[1]=x; … made an array of every length on the way: 1 GB in 60 s); the
// bound here only catches such a hang, on a loaded machine under -race.
func TestCommandsBoundedOnManyStrings(t *testing.T) {
	for _, tc := range []struct {
		name, line, err string
	}{
		{"evals", fill(func(i int) string { return fmt.Sprintf("eval 'echo a%d'; ", i) }, "rm -rf x"), ""},
		{"command strings", fill(func(i int) string { return fmt.Sprintf("echo a%d; sh -c 'true'; ", i) }, ""), ""},
		{"arrays", fill(func(i int) string { return fmt.Sprintf("a[%d]=x; ", i) }, `rm "${a[@]}"`), "the variable a may hold values"},
		{"evals of values", fill(func(i int) string { return fmt.Sprintf("X%d=a; eval echo $X%d; ", i, i) }, ""), "command strings read more of the line's values"},
		{"command strings of values", fill(func(i int) string { return fmt.Sprintf("V%d=x; sh -c 'echo $V%d'; ", i, i) }, ""), "command strings read more of the line's values"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			got, err := Commands(tc.line)
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("took %s", d)
			}
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("error %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("%d commands, error %v; want an error with %q", len(got), err, tc.err)
			}
		})
	}
}

// Lines people write stay within the bounds above: loops that run a
// command string per value, a git alias beside them (which reads the
// line twice), a few hundred appends to an array.
func TestCommandsOrdinaryLinesWithinBounds(t *testing.T) {
	evals := make([]string, 0, 500)
	for i := range 250 {
		evals = append(evals, fmt.Sprintf("V%d=v;", i))
	}
	for i := range 250 {
		evals = append(evals, fmt.Sprintf(`eval "echo %d";`, i))
	}
	var appends strings.Builder
	appends.WriteString("a=(); ")
	for i := range 180 {
		fmt.Fprintf(&appends, "a+=(f%d); ", i)
	}
	for _, tc := range []struct{ line, want string }{
		{`for i in {1..600}; do sh -c "echo $i"; done`, "echo 600"},
		{`for i in {1..1000}; do eval "echo $i"; done; rm -rf /tmp/v`, "rm -rf /tmp/v"},
		{`git config alias.st status; for i in {1..400}; do eval "echo $i"; done; rm -rf /tmp/v`, "echo 400"},
		{strings.Join(evals, " ") + " rm -rf /tmp/v", "rm -rf /tmp/v"},
		{appends.String() + `rm -rf "${a[@]}"`, "rm -rf f0 f1 f2"},
	} {
		got, err := Commands(tc.line)
		if err != nil {
			t.Errorf("%.80q: %v", tc.line, err)
			continue
		}
		if !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, tc.want) }) {
			t.Errorf("%.80q: does not list %q", tc.line, tc.want)
		}
	}
}

// A few arrays and command strings on a line people write stay within
// the bounds above: nothing real is refused by them.
func TestCommandsArraysAndStringsWithinBounds(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "a[%d]=-r; V%d=x; sh -c 'echo $V%d'; ", i, i, i)
	}
	b.WriteString(`a[40]=-f; rm "${a[@]}" /tmp/v`)
	got, err := Commands(b.String())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(got, "\n"), "rm -r -r") {
		t.Errorf("the array's elements are not listed: %.300q", got)
	}
}

// CommandsUntil ends the analysis once its caller's stop says so, within
// a check or two of it (a rule whose time bound passed must not leave it
// running on), and with a stop that never fires lists what Commands does.
func TestCommandsUntilStops(t *testing.T) {
	line := fill(func(i int) string { return fmt.Sprintf("eval 'echo a%d'; ", i) }, "X=-rf; rm $X x")
	for _, after := range []int{0, 1, 10, 100} {
		calls := 0
		got, err := CommandsUntil(line, func() bool { calls++; return calls > after })
		if err == nil || !strings.Contains(err.Error(), "time bound") {
			t.Fatalf("stopped after %d checks: %d commands, %v; want the time bound's error", after, len(got), err)
		}
		if calls > after+3 {
			t.Errorf("stopped after %d checks: checked %d times in all; it ran on", after, calls)
		}
	}
	for _, l := range []string{
		line, "X=-rf; eval 'rm $X y'", "git -c alias.p='push -f' p", "git status --short && git diff HEAD~1 -- src/",
		`for f in *.go; do gofmt -l "$f"; done`, "a=(-r -f); rm \"${a[@]}\" y; sh -c 'rm -rf z'", "rm -rf / (",
	} {
		want, werr := Commands(l)
		calls := 0
		got, err := CommandsUntil(l, func() bool { calls++; return false })
		if fmt.Sprint(err) != fmt.Sprint(werr) || strings.Join(got, "\n") != strings.Join(want, "\n") || calls == 0 && werr == nil {
			t.Errorf("%.60q, a stop that never fires: %d commands (want %d), %v (want %v), %d checks", l, len(got), len(want), err, werr, calls)
		}
	}
}

// Arrays made of thousands of values, appended to or set an element of,
// and arrays of up to 32,768 elements that thousands of command strings
// take from their line: each took seconds (the appends compared every
// array made with every other, 9 s for 78 bytes, and the element sets 17
// s and 8 GB; each string rebuilt the arrays' keys, 20 s), and the
// appends did not heed the caller's stop. Each is read, or refused,
// within a bound that only catches such a hang, and its stop is heeded.
func TestCommandsBoundedOnLargeArrays(t *testing.T) {
	doubled := "X=x;" + strings.Repeat(`X="$X $X";`, 15) + "a0=($X);"
	for _, tc := range []struct{ name, line string }{
		{"appends", "for X in {1..4000}; do :; done; a=($X); a+=(y); a+=(y); a+=(y); a+=(y); a+=(y)"},
		{"appends then rm", "for X in {1..4000}; do :; done; a=($X); a+=(y); a+=(y); a+=(y); a+=(y); a+=(y); rm -rf /"},
		{"element sets", "for X in {1..4000}; do :; done; a=($X); " + strings.Repeat("a[5]=y; ", 2000) + "rm -rf /"},
		{"strings of a large array", doubled + strings.Repeat("eval :;", (maxShellCommand-len(doubled)-8)/7) + "rm -rf /"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			got, err := Commands(tc.line)
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %s", d)
			}
			if strings.HasSuffix(tc.line, "rm -rf /") && err == nil && !slices.Contains(got, "rm -rf /") {
				t.Errorf("%d commands, no error, and rm -rf / is not listed", len(got))
			}
			start = time.Now()
			_, err = CommandsUntil(tc.line, func() bool { return time.Since(start) > 100*time.Millisecond })
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("a stop at 100 ms: took %s (%v)", d, err)
			}
		})
	}
}

// Thousands of `set --` are read again at every round of the line's
// values, and heeded no stop: 1.3 s past it (5 s under -race). The bound
// here only catches one that runs on.
func TestPositionalsHeedTheStop(t *testing.T) {
	line := fill(func(int) string { return `set -- "$@" "$@"; ` }, `"$@"`)
	start := time.Now()
	_, err := CommandsUntil(line, func() bool { return time.Since(start) > 100*time.Millisecond })
	if d := time.Since(start); d > 2*time.Second || err == nil {
		t.Errorf("a stop at 100 ms: took %s (%v)", d, err)
	}
}

// $_'s values are one set for the line and its command strings, of at
// most maxVarValues (as _'s own values are). Each command's last argument
// was looked up in a list copied into each string: 64 KiB of `eval 'echo
// aN';` took 0.3 s, past a rule's 0.5 s bound on a loaded machine; and a
// bound of 256 refused `cd "$_"` after 300 commands. Past the bound a
// word that reads $_ cannot be read; a line whose words do not read it is
// read as before.
func TestCommandsLastArgsBounded(t *testing.T) {
	for _, unit := range []func(i int) string{
		func(i int) string { return fmt.Sprintf("echo a%d; ", i) },
		func(i int) string { return fmt.Sprintf("eval 'echo a%d'; ", i) },
	} {
		line := fill(unit, "rm -rf x")
		f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
		if err != nil {
			t.Fatal(err)
		}
		if v := valuesOf(f, line, nil); v.shared == nil || len(v.shared.last) > maxVarValues || !v.shared.lastOver {
			t.Errorf("%.30q…: last arguments kept past %d, or not over", line, maxVarValues)
		}
		if got, err := Commands(line); err != nil || got[len(got)-1] != "rm -rf x" {
			t.Errorf("%.30q…: %v, last of %d: %q", line, err, len(got), got[len(got)-1])
		}
		reads := fill(unit, "rm $_")
		if got, err := Commands(reads); err == nil || !strings.Contains(err.Error(), "variable _ may hold") {
			t.Errorf("%.30q… rm $_: %d commands, %v; want $_ refused", reads, len(got), err)
		}
	}
	var steps strings.Builder
	for i := range 300 {
		fmt.Fprintf(&steps, "echo step%d; ", i)
	}
	checkCommands(t, []commandsCase{
		{line: ": -rf; eval 'echo a'; rm $_ x", want: []string{"rm a x"}},
		{line: steps.String() + `mkdir -p build && cd "$_" && make`, want: []string{"cd build"}},
		{line: `sh -c 'echo rm'; $_ -rf /`, want: []string{"echo rm -rf /"}},
	})
}
