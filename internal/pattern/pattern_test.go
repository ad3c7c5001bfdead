package pattern

import (
	"strings"
	"testing"
)

// matchCase is a pattern on one input: the match wanted, or an error
// (the dialect rejects the pattern).
type matchCase struct {
	pattern, input string
	want, wantErr  bool
}

func runMatchCases(t *testing.T, dialect string, compile func(string) (*Regex, error), cases []matchCase) {
	t.Helper()
	for _, c := range cases {
		r, err := compile(c.pattern)
		if (err != nil) != c.wantErr {
			t.Errorf("%s %q: error %v, want error %v", dialect, c.pattern, err, c.wantErr)
			continue
		}
		if err != nil {
			continue
		}
		got, done := r.Match(c.input, nil)
		if !done || got != c.want {
			t.Errorf("%s %q on %q = %v (done %v), want %v", dialect, c.pattern, c.input, got, done, c.want)
		}
	}
}

// Python re constructs RE2 lacks are honoured (re.fullmatch); constructs
// Python rejects are errors, whatever RE2 would have made of them.
func TestPythonSemantics(t *testing.T) {
	runMatchCases(t, "Python", CompilePython, []matchCase{
		{`terminal`, "terminal", true, false},
		{`term`, "terminal", false, false}, // the whole input
		{`terminal|file`, "file", true, false},
		{`write_.*`, "write_file", true, false},
		{`(?!web_).*`, "terminal", true, false},
		{`(?!web_).*`, "web_search", false, false},
		{`(terminal)\1`, "terminalterminal", true, false},
		{`(terminal)\1`, "terminal", false, false},
		{`(?i)TERMINAL`, "terminal", true, false},
		{`(?i)TERMINAL`, "Terminal", true, false},
		{`(?P<t>term)inal`, "terminal", true, false},
		{`(?P<t>a)(?P=t)`, "aa", true, false},
		{`(?P<t>a)(?P=t)`, "ab", false, false},
		{`term(?=inal)inal`, "terminal", true, false},
		{`web_(?<=web_)search`, "web_search", true, false},
		{`(?<=x)terminal`, "terminal", false, false},
		{`(?x) termi nal  # the shell`, "terminal", true, false},
		{`termi{,1}nal`, "terminal", true, false},
		{`termi{,1}nal`, "termnal", true, false},
		{`terminal\Z`, "terminal", true, false},
		{`(?>term)inal`, "terminal", true, false},
		{`ter*+minal`, "terminal", true, false},
		{`(?#the shell)terminal`, "terminal", true, false},
		{`(?i:TERM)inal`, "TERMinal", true, false},
		{`(?i:TERM)inal`, "terminAL", false, false},
		{`(?s).*`, "terminal", true, false},
		{`\d+`, "123", true, false},
		{`\d+`, "١٢٣", true, false},      // Python's \d is Unicode; RE2's is ASCII
		{`\w+`, "tërminal", true, false}, // so is \w
		{`[\w-]+`, "mcp-tool_1", true, false},
		{`(?a)\d+`, "١٢٣", false, false}, // unless (?a)
		{`mcp__.*`, "mcp__fs__read", true, false},
		{`terminal$`, "terminal\n", false, false}, // $ before a final \n, but fullmatch
		// Python rejects these.
		{`terminal(?i)`, "", false, true}, // global flags not at the start (3.11+)
		{`\p{L}+`, "", false, true},       // RE2 accepts it
		{`(?<name>terminal)`, "", false, true},
		{`terminal\z`, "", false, true},
		{`(?U)terminal`, "", false, true},
		{`\1(a)`, "", false, true},
		{`*terminal`, "", false, true},
		{`^*terminal`, "", false, true},
		{`foo[bar`, "", false, true},
	})
}

// JavaScript RegExp semantics: new RegExp(pattern), no flags, a search.
func TestJSSemantics(t *testing.T) {
	runMatchCases(t, "JavaScript", CompileJS, []matchCase{
		{`Edit.*`, "NotebookEdit", true, false}, // unanchored
		{`^Edit$`, "NotebookEdit", false, false},
		{`mcp__*`, "mcp__memory__create", true, false},
		{`Ba(?=sh)`, "Bash", true, false},
		{`Ba(?=sh)`, "Bad", false, false},
		{`Bash(?=$)`, "Bash", true, false},
		{`(?<!Web)Fetch$`, "WebFetch", false, false},
		{`(?<!Web)Fetch$`, "Fetch", true, false},
		{`^Tool\d$`, "Tool1", true, false},
		{`^Tool\d$`, "Tool١", false, false}, // JavaScript's \d is ASCII
		{`^Tool\s`, "Tool\u00a0x", true, false},
		{`(?<t>Ba)sh\k<t>`, "BashBa", true, false},
		{`(?<$t>Ba)sh\k<$t>`, "BashBa", true, false},
		{`\p{L}`, "Bash", false, false}, // \p is p without the u flag; RE2 matched any letter
		{`^\p{L}$`, "p{L}", true, false},
		{`Bash\z`, "Bash", false, false}, // \z is z
		{`Bash\z`, "Bashz", true, false},
		{`^[^]+$`, "Bash", true, false},
		{`^[]$`, "Bash", false, false},
		{`Bash{,1}`, "Bash", false, false}, // {,1} is literal text in JavaScript
		{`^Bash{1,2}$`, "Bashh", true, false},
		{`^\x42ash$`, "Bash", true, false},
		{`^\u0042ash$`, "Bash", true, false},
		{`^[\d-z]+$`, "-z9", true, false},
		{`(?i:bash)`, "Bash", true, false}, // ES2025 modifiers
		{`mcp__.*__write.*`, "mcp__fs__write_file", true, false},
		{`^mcp__`, "mcp__fs__write_file", true, false},
		{`.`, "Bash", true, false},
		{`^.$`, "\r", false, false}, // . stops at \r in JavaScript
		{`Bash$`, "Bash", true, false},
		{`^Ba.*`, "Bash", true, false},
		// JavaScript rejects these.
		{`(?i)bash`, "", false, true}, // RE2 accepts it
		{`(?P<n>Bash)`, "", false, true},
		{`Edit|Write(?#x)`, "", false, true},
		{`(?>Bash)`, "", false, true},
		{`^*Bash`, "", false, true},
		{`(?<=x)*Bash`, "", false, true},
		{`[`, "", false, true},
	})
}

// The verdicts on patterns the dialect's engine rejects, and on some it
// accepts that look wrong.
func TestRejects(t *testing.T) {
	for _, p := range []string{
		`\p{L}`, `\z`, `\Q.\E`, `\k<a>`, `(?<n>a)`, `(?'n'a)`, `a(?i)`, `(?L)a`, `(?au)a`, `(?U)a`,
		`(?-i)a`, `(?P<1a>x)`, `(?P<a>x)(?P<a>y)`, `(?P=a)`, `(a)(?P=b)`, `(a\1)`, `\2(a)`, `a**`, `a{2,1}`,
		`[a`, `(a`, `a)`, `\x4`, `\u12`, `\8`, `[\8]`, `[\d-z]`, `\N{DASH}`, `(?(2)a|b)`, `(?#x`, `\`,
	} {
		if _, err := CompilePython(p); err == nil {
			t.Errorf("CompilePython(%q) accepted a pattern Python's re rejects", p)
		}
	}
	for _, p := range []string{
		`(?i)a`, `(?P<n>a)`, `(?#x)`, `(?>a)`, `(?'n'a)`, `(?-:a)`, `(?ii:a)`, `*a`, `a**`, `^*`, `$+`, `\b*`,
		`(?<=a)+`, `a{2,1}`, `{2}`, `[a`, `(a`, `a)`, `\`, `(?<1a>x)`, `(?<a>x)(?<a>y)`, `(?<a>x)\k<b>`, `(?<a>x)\k`,
	} {
		if _, err := CompileJS(p); err == nil {
			t.Errorf("CompileJS(%q) accepted a pattern JavaScript rejects", p)
		}
	}
	for _, p := range []string{`(?i:a)`, `(?i-m:a)`, `\k`, `\p`, `a{`, `a{,2}`, `]`, `}`, `[]`, `[^]`, `\1(a)`, `\8`, `(?<$>x)`, `\c`, `[\c1]`} {
		if _, err := CompileJS(p); err != nil {
			t.Errorf("CompileJS(%q): %v", p, err)
		}
	}
}

// Error texts reach people (the dispatcher's warnings quote them): they
// are Python's and JavaScript's own where those have one.
func TestErrorTexts(t *testing.T) {
	cases := []struct {
		python  bool
		pattern string
		want    string
	}{
		{true, `(a`, "missing ), unterminated subpattern"},
		{true, `foo[bar`, "unterminated character set"},
		{true, `terminal(?i)`, "global flags not at the start of the expression"},
		{true, `(?a)(?=x)`, "the (?a) ASCII flag together with constructs RE2 lacks is not supported here"},
		{true, `(?a:x)`, "a scoped (?a:…) ASCII flag is not supported here"},
		{true, `\p{L}`, `bad escape \p`},
		{true, `(?<n>a)`, "unknown extension ?<n (Python names groups (?P<name>…))"},
		{false, `(?i)bash`, "invalid group"},
		{false, `[`, "unterminated character class"},
		{false, `(a`, "unterminated group"},
		{false, `a)`, "unmatched ')'"},
		{false, `*a`, "nothing to repeat"},
	}
	for _, c := range cases {
		compile, name := CompileJS, "CompileJS"
		if c.python {
			compile, name = CompilePython, "CompilePython"
		}
		_, err := compile(c.pattern)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s(%q): error %v, want %q", name, c.pattern, err, c.want)
		}
	}
}

// RE2 stays in charge wherever it means the same thing; the backtracking
// engine is only built when needed.
func TestEngineChoice(t *testing.T) {
	cases := []struct {
		pattern        string
		python         bool
		wantRE, wantBT bool
	}{
		{"terminal|write_.*", true, true, false},
		{"write_[a-z]+", true, true, false},
		{`(?i)TERMINAL`, true, true, true}, // RE2 for ASCII names only
		{`\d+`, true, true, true},
		{`(?P<t>term)inal`, true, true, false},
		{`(?!web_).*`, true, false, true},
		{`(terminal)\1`, true, false, true},
		{`(?a)\d+`, true, true, false}, // only RE2 knows (?a)'s meaning
		{"^Ba.*", false, true, true},   // . stops at \r in JavaScript
		{"^Bash$", false, true, false},
		{`^Tool\d$`, false, true, false},
		{"mcp__[a-z]+__write", false, true, false},
		{"Ba(?=sh)", false, false, true},
		{`\p{L}`, false, false, true},
	}
	for _, c := range cases {
		compile := CompileJS
		if c.python {
			compile = CompilePython
		}
		r, err := compile(c.pattern)
		if err != nil {
			t.Errorf("%q: %v", c.pattern, err)
			continue
		}
		if gotRE, gotBT := r.re != nil, r.slow != nil; gotRE != c.wantRE || gotBT != c.wantBT {
			t.Errorf("%q (python %v): RE2 %v backtracking %v, want %v %v", c.pattern, c.python, gotRE, gotBT, c.wantRE, c.wantBT)
		}
	}
}

// With both engines, RE2 answers plain input and regexp2 the rest.
func TestEnginePerInput(t *testing.T) {
	r, err := CompilePython(`\d+`)
	if err != nil || r.re == nil || r.slow == nil {
		t.Fatalf("want both engines: %v", err)
	}
	for _, in := range []string{"123", "١٢٣"} {
		if ok, done := r.Match(in, nil); !ok || !done {
			t.Errorf("%q: %v %v", in, ok, done)
		}
	}
	if isPlain("١٢٣") || !isPlain("terminal") || isPlain("a\nb") || isPlain(strings.Repeat("x", 3)+"\x7f") {
		t.Error("isPlain: printable ASCII only")
	}
}
