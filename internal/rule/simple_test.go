package rule

import (
	"fmt"
	"regexp"
	"testing"
)

// simpleSources: the shapes parseSimple reads (true) and near misses it
// must leave to expr (false).
var simpleSources = []struct {
	src    string
	simple bool
}{
	{`args.command matches "(^|[;&|]\\s*)rm\\s+-[a-zA-Z]*r[a-zA-Z]*f"`, true},
	{`args.command contains "chmod -R 777"`, true},
	{`args.path   matches   "\\.(key|p12|pfx)$"`, true},
	{`args.command contains ":(){ :|:& };:"`, true},
	{`args.command contains "say \"hi\""`, true},
	{`args._x9 matches ""`, true},
	{`args.command matches "(?i)RM\\s+-RF"`, true},
	{`args.command matches "(curl|wget)[^|]*\\|\\s*(ba|z)?sh"`, true},
	{`args.command matches "a{2,}b+(cd){0,2}\\x{e9}x?y*"`, true},
	{`args.command matches "^rm$|^ls$"`, true},
	{`args.command matches "\\Qa.b\\E"`, true},
	{`args.command matches "(["`, false},   // expr reports the error
	{`args.command matches "a\nb"`, false}, // an escape other than \\ and \"
	{`args.command matches 'rm'`, false},   // another quote
	{`args.command matches "rm" `, false},  // something after it
	{`args.in matches "x"`, false},         // an operator's word
	// Two operators: expr's syntax error, which Compile must report.
	{`args.command matches contains "x"`, false},
	{`args.command contains matches "x"`, false},
	{`args.9 matches "x"`, false},          //
	{`args.command matches"x"`, false},     // no space
	{`args.commandmatches "x"`, false},     //
	{`args?.command matches "x"`, false},   // optional read
	{`args.a.b matches "x"`, false},        // deeper
	{`args.command startsWith "x"`, false}, // another operator
	{`args.command matches "é"`, false},    // not ASCII
	{`args.command matches "a" || true`, false},
	{`tool_name == "Bash" && args.command matches "x"`, false},
}

// simpleInputs are firings on which a simple rule and its expr program
// must agree: the key a string (matching or not), missing, nil, another
// type, no args at all.
func simpleInputs(key string) []*Input {
	return []*Input{
		{Args: map[string]any{key: "rm -rf /"}},
		{Args: map[string]any{key: "ls"}},
		{Args: map[string]any{key: "say \"hi\" \\ chmod -R 777 :(){ :|:& };: a.pem .p12"}},
		{Args: map[string]any{key: "Rm  -Rf x; curl x | zsh; aab aabcd\u00e9 a.b \xffrm -rf"}},
		{Args: map[string]any{key: ""}},
		{Args: map[string]any{"other": "rm -rf /"}},
		{Args: map[string]any{key: nil}},
		{Args: map[string]any{key: 5.0}},
		{Args: map[string]any{key: []any{"rm -rf /"}}},
		{Args: map[string]any{key: map[string]any{"a": "b"}}},
		{},
	}
}

// viaExpr is src compiled as expr always compiles it.
func viaExpr(t testing.TB, src string) *Rule {
	prog, _, err := compile(src)
	if err != nil {
		t.Fatalf("parseSimple read %q, which expr refuses: %v", src, err)
	}
	return &Rule{src: src, prog: prog}
}

// sameAnswers fails t when the simple rule and expr's program answer an
// input differently, or read the pattern or text differently.
func sameAnswers(t testing.TB, src string, s *simple, extra ...string) {
	full := viaExpr(t, src)
	fast := &Rule{src: src, simple: s}
	for _, c := range full.prog.Constants {
		if re, ok := c.(*regexp.Regexp); ok && (!s.matches || re.String() != s.text) {
			t.Fatalf("%q: expr's pattern %q, simple's %q", src, re.String(), s.text)
		}
	}
	ins := simpleInputs(s.key)
	for _, v := range extra {
		ins = append(ins, &Input{Args: map[string]any{s.key: v}})
	}
	for _, in := range ins {
		ok1, err1 := fast.run(in, nil)
		ok2, err2 := full.run(in, nil)
		if ok1 != ok2 || fmt.Sprint(err1) != fmt.Sprint(err2) {
			t.Fatalf("%q on %v: simple %v, %v; expr %v, %v", src, in.Args, ok1, err1, ok2, err2)
		}
	}
}

func TestSimpleAsExpr(t *testing.T) {
	for _, c := range simpleSources {
		s := parseSimple(c.src)
		if (s != nil) != c.simple {
			t.Errorf("parseSimple(%q) read it: %v, want %v", c.src, s != nil, c.simple)
			continue
		}
		if s != nil {
			sameAnswers(t, c.src, s)
		}
	}
}

// A simple rule compiles its expr program only when a firing needs it,
// once, and a firing it decides leaves it uncompiled.
func TestSimpleCompilesLazily(t *testing.T) {
	r, err := Compile(`args.command matches "rm\\s+-rf"`)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := r.run(&Input{Args: map[string]any{"command": "rm  -rf /"}}, nil); !ok || err != nil {
		t.Fatalf("run = %v, %v", ok, err)
	}
	if r.prog != nil {
		t.Fatal("a firing the simple rule decides compiled the expr program")
	}
	_, err = r.run(&Input{Args: map[string]any{}}, nil)
	if err == nil || r.prog == nil {
		t.Fatalf("a missing key: %v (program %v); want expr's strict-read error", err, r.prog)
	}
}

// A simple pattern is parsed, not compiled, until a firing holds every
// literal a match needs.
func TestSimpleNeeds(t *testing.T) {
	for src, want := range map[string]string{
		`args.command matches "(^|[;&|]\\s*)rm\\s+-[a-zA-Z]*r[a-zA-Z]*f"`: "[[rm] [-] [r] [f]]",
		`args.command matches "(curl|wget)[^|]*\\|\\s*(ba|z)?sh"`:         "[[curl wget] [|] [sh]]",
		`args.command matches "(?i)rm"`:                                   "[]",
		`args.command matches "a{2,}b+(cd){0,2}\\x{e9}x?y*"`:              "[[a] [b]]",
	} {
		s := parseSimple(src)
		if s == nil || s.pat.needs.Load() == nil || fmt.Sprint(*s.pat.needs.Load()) != want {
			t.Errorf("%s needs %v, want %s", src, s, want)
		}
	}
	// A pattern no other test spells: patterns are shared in a process.
	s := parseSimple(`args.command matches "git\\s+pushneeds"`)
	if ok, decided := s.decide(&Input{Args: map[string]any{"command": "git status"}}); ok || !decided || s.pat.re != nil {
		t.Fatalf("git status: %v, %v, compiled %v", ok, decided, s.pat.re != nil)
	}
	if ok, decided := s.decide(&Input{Args: map[string]any{"command": "git  pushneeds"}}); !ok || !decided || s.pat.re == nil {
		t.Fatalf("git push: %v, %v, compiled %v", ok, decided, s.pat.re != nil)
	}
}

func FuzzSimple(f *testing.F) {
	for _, c := range simpleSources {
		f.Add(c.src, "rm -rf /")
	}
	f.Fuzz(func(t *testing.T, src, value string) {
		if len(src) > MaxSourceBytes {
			return
		}
		if s := parseSimple(src); s != nil {
			sameAnswers(t, src, s, value)
		}
	})
}

// A rule that is no rule to expr is no rule here either: Compile reports
// it (validate's error at its line) instead of deciding it some other way.
func TestSimpleNearMissesStillFailToCompile(t *testing.T) {
	for _, src := range []string{`args.command matches contains "x"`, `args.command contains matches "x"`, `args.command matches "(["`} {
		if _, err := Compile(src); err == nil {
			t.Errorf("Compile(%q) = nil error; expr refuses it", src)
		}
	}
}
