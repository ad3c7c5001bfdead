package permrule

import (
	"fmt"
	"math/rand"
	"path"
	"strings"
	"testing"
	"time"
)

// A path rule's ** segments and a tool call's file path are both hostile:
// the rule is a repository's `if`, the path what a model chose. Matching
// tried every split of the path for every ** in turn, for every prefix of
// the path: Read(/**/a/**/a/**/a/**/a/b) on a path of 200 a/ segments took
// 49 s, and each further ** multiplied that by the path's length. It is
// linear in the pattern's segments times the path's now. The bound is a
// hang guard: the match takes milliseconds.
func TestPathRuleManyDoubleStarsOnALongPath(t *testing.T) {
	r, err := ParseIfRule("Read(/" + strings.Repeat("**/a/", 8) + "b)")
	if err != nil {
		t.Fatal(err)
	}
	file := "/p/" + strings.Repeat("a/", 400) + "c"
	done := make(chan bool, 1)
	start := time.Now()
	go func() {
		ok, _ := r.Match("Read", map[string]any{"file_path": file}, RuleContext{Cwd: "/p", ProjectDir: "/p", Home: "/h"})
		done <- ok
	}()
	select {
	case ok := <-done:
		if ok {
			t.Fatal("a path without b matched")
		}
		t.Logf("8 ** against 401 segments: %v", time.Since(start))
	case <-time.After(20 * time.Second):
		t.Fatal("matching 8 ** against a path of 401 segments has not ended after 20 s")
	}
}

// matchSegmentsByTrial is how path rules were matched before: the
// reference the linear matcher must agree with on every pattern and path.
func matchSegmentsByTrial(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			if len(pat) == 1 {
				return len(name) > 0
			}
			for i := 0; i <= len(name); i++ {
				if matchSegmentsByTrial(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

func TestPrefixMatchesAgreesWithTrial(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	pick := func(from []string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = from[rng.Intn(len(from))]
		}
		return out
	}
	for range 20000 {
		pat := pick([]string{"**", "a", "b", "*", "?", "[ab]"}, 1+rng.Intn(5))
		// compilePathPattern never leaves two ** side by side.
		for i := len(pat) - 1; i > 0; i-- {
			if pat[i] == "**" && pat[i-1] == "**" {
				pat = append(pat[:i], pat[i+1:]...)
			}
		}
		name := pick([]string{"a", "b", "c", "ab"}, rng.Intn(7))
		got := prefixMatches(pat, name)
		for n := 0; n <= len(name); n++ {
			if want := matchSegmentsByTrial(pat, name[:n]); got[n] != want {
				t.Fatalf("%q against %q: %v, by trial %v", pat, name[:n], got[n], want)
			}
		}
	}
}

// A command's $(…) nested deep (an agent's payload, under maxShellCommand)
// made every enclosing command a form holding the rest of the line: 63 KB
// of `echo $($($(…` kept 660 MB of forms and took 0.4 s, for each `if`
// rule of each entry. Nesting past maxNesting is not parsed at all (the
// parser's own recursion took a second and 250 MB), and what the forms of
// a line within it hold together is bounded; past either bound the
// analysis cannot tell, and the hook runs.
func TestNestedSubstitutionsBoundTheForms(t *testing.T) {
	deep := (maxShellCommand - 20) / 3
	wide := maxNesting - 1
	for _, cmd := range []string{
		"echo " + strings.Repeat("$(", deep) + "git push" + strings.Repeat(")", deep),
		"echo " + strings.Repeat("$(", wide) + "git push " + strings.Repeat("x", maxShellCommand-3*wide-20) + strings.Repeat(")", wide),
	} {
		runs, err := analyzeRuns(cmd)
		if err == nil {
			total := 0
			for _, f := range runs.forms {
				total += len(f)
			}
			if total > maxFormBytes+maxShellCommand {
				t.Fatalf("the forms of a %d-byte command hold %d bytes", len(cmd), total)
			}
			if runs.lost == "" {
				t.Fatalf("%d forms of %d bytes, and nothing lost", len(runs.forms), total)
			}
		}
		for _, rule := range []string{"Bash(git push:*)", "Bash(rm:*)", "Bash(git * --force*)"} {
			r, err := ParseIfRule(rule)
			if err != nil {
				t.Fatal(err)
			}
			if ok, why := r.Match("Bash", map[string]any{"command": cmd}, RuleContext{Cwd: "/p"}); !ok {
				t.Fatalf("%s: %v %s, want the hook to run", rule, ok, why)
			}
		}
	}
}

// A firing's Bash command is matched against the `if` rule of every entry
// in turn: a long command (up to maxShellCommand; $(…) nested 20,000 deep
// is 0.15 s of parsing) was parsed again for each, 256 entries of a
// repository making one dispatch take most of a minute. The analysis of a
// long command is reused by the next rule that matches the same command.
func TestLongCommandAnalysedOncePerFiring(t *testing.T) {
	n := (maxShellCommand - 20) / 3
	cmd := "echo " + strings.Repeat("$(", n) + "git push" + strings.Repeat(")", n)
	before := analyses.Load()
	var memo Memo
	for i := range 256 {
		r, err := ParseIfRule(fmt.Sprintf("Bash(git push %d:*)", i))
		if err != nil {
			t.Fatal(err)
		}
		r.Match("Bash", map[string]any{"command": cmd}, RuleContext{Cwd: "/p", Memo: &memo})
	}
	if got := analyses.Load() - before; got > 2 {
		t.Fatalf("256 rules on one %d-byte command analysed it %d times", len(cmd), got)
	}
}

// An analysis its Stop ends lets the rule match, as a command that cannot
// be read does (the hook runs and decides), and the firing's Memo keeps
// that answer for the rules after it: they share its bound.
func TestStoppedAnalysisMatches(t *testing.T) {
	r, err := ParseIfRule("Bash(git push:*)")
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"ls -la", "echo " + strings.Repeat("x ", reuseFrom)} {
		ok, why := r.Match("Bash", map[string]any{"command": cmd}, RuleContext{Cwd: "/p"})
		if ok {
			t.Fatalf("%.20q, not stopped: matched (%s)", cmd, why)
		}
		var memo Memo
		stops := 0
		stop := func() bool { stops++; return true }
		for range 2 {
			ok, why = r.Match("Bash", map[string]any{"command": cmd}, RuleContext{Cwd: "/p", Memo: &memo, Stop: stop})
			if !ok || !strings.Contains(why, "stopped") {
				t.Fatalf("%.20q, stopped: %v (%s); want a match", cmd, ok, why)
			}
		}
		if len(cmd) >= reuseFrom && stops != 1 {
			t.Errorf("a long command's stopped analysis was made %d times for two rules", stops)
		}
	}
}
