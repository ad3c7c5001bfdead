package cmdpin

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestSplitWindowsArgs(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		{``, nil},
		{"  \t ", nil},
		{`guard.cmd`, []string{`guard.cmd`}},
		{`C:\hooks\guard.exe --x`, []string{`C:\hooks\guard.exe`, `--x`}},
		// The program name: backslashes are literal, even before a quote.
		{`"C:\Program Files\h\guard.exe" a`, []string{`C:\Program Files\h\guard.exe`, `a`}},
		{`"C:\dir\"guard.exe a`, []string{`C:\dir\guard.exe`, `a`}},
		{`C:\dir\ a`, []string{`C:\dir\`, `a`}},
		// Later words: the C runtime's rules.
		{`p a\b c\\d`, []string{`p`, `a\b`, `c\\d`}},
		{`p "a b" c`, []string{`p`, `a b`, `c`}},
		{`p a\"b`, []string{`p`, `a"b`}},
		{`p a\\"b c"`, []string{`p`, `a\b c`}},
		{`p a\\\"b`, []string{`p`, `a\"b`}},
		{`p "a""b"`, []string{`p`, `a"b`}},
		{`p "" x`, []string{`p`, ``, `x`}},
		{`p "C:\dir\\"`, []string{`p`, `C:\dir\`}},
		{"p\ta\t\tb  ", []string{`p`, `a`, `b`}},
		{`p 'a b'`, []string{`p`, `'a`, `b'`}}, // single quotes are not quotes
		{`p "unterminated arg`, []string{`p`, `unterminated arg`}},
	} {
		if got := splitWindowsArgs(c.line); !slices.Equal(got, c.want) {
			t.Errorf("splitWindowsArgs(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}

func TestQuoteWindowsArg(t *testing.T) {
	for in, want := range map[string]string{
		``:           `""`,
		`plain`:      `plain`,
		`a b`:        `"a b"`,
		`a"b`:        `"a\"b"`,
		`C:\dir\`:    `C:\dir\`,
		`C:\my dir\`: `"C:\my dir\\"`,
		`a\"b`:       `"a\\\"b"`,
	} {
		if got := quoteWindowsArg(in); got != want {
			t.Errorf("quoteWindowsArg(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBatchCmdLine(t *testing.T) {
	const comspec = `C:\Windows\system32\cmd.exe`
	for _, c := range []struct {
		script string
		args   []string
		want   string
	}{
		{`C:\h\guard.cmd`, nil, `"C:\Windows\system32\cmd.exe" /d /s /c ""C:\h\guard.cmd""`},
		{`C:\R&D (x86)\g.bat`, []string{"a b", "x&y|z<w>v^(u)", ""},
			`"C:\Windows\system32\cmd.exe" /d /s /c ""C:\R&D (x86)\g.bat" "a b" "x&y|z<w>v^(u)" """`},
		{`C:\h\g.cmd`, []string{`C:\dir\`}, `"C:\Windows\system32\cmd.exe" /d /s /c ""C:\h\g.cmd" "C:\dir\\""`},
	} {
		got, err := batchCmdLine(comspec, c.script, c.args)
		if err != nil || got != c.want {
			t.Errorf("batchCmdLine(%q, %q) = %q, %v; want %q", c.script, c.args, got, err, c.want)
		}
	}
	// The BatBadBut class: refused, never quoted "well enough".
	for _, bad := range []string{`"&calc`, `%PATH%`, `a!b!`, "a\r\nb", "a\nb", "a\x00b", `x" & calc & "`} {
		_, err := batchCmdLine(comspec, `C:\h\g.cmd`, []string{"ok", bad})
		if !errors.Is(err, errBatchArg) || !strings.Contains(err.Error(), "argument `") {
			t.Errorf("argument %q: %v, want a refusal", bad, err)
		}
	}
	if _, err := batchCmdLine(comspec, `C:\100%\g.cmd`, nil); !errors.Is(err, errBatchArg) || !strings.Contains(err.Error(), "batch file path") {
		t.Errorf("script path with %%: %v", err)
	}
}

// FuzzWindowsArgs: splitting never panics, and any words (after a plain
// program name) quoted by quoteWindowsArg split back to themselves.
func FuzzWindowsArgs(f *testing.F) {
	for _, s := range []string{"a b", `a\"b`, `"x y" \\`, "\t\"\"\\", `C:\dir\ "q`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_ = splitWindowsArgs(s)
		words := strings.Split(s, "\x00")
		line := "prog"
		for _, w := range words {
			line += " " + quoteWindowsArg(w)
		}
		got := splitWindowsArgs(line)
		if !slices.Equal(got, append([]string{"prog"}, words...)) {
			t.Fatalf("%q -> %q -> %q", words, line, got)
		}
		if cl, err := batchCmdLine(`C:\cmd.exe`, "g.cmd", words); err == nil && strings.ContainsAny(cl[len(`"C:\cmd.exe" /d /s /c "`):len(cl)-1], "%!\r\n\x00") {
			t.Fatalf("unsafe command line %q", cl)
		}
	})
}
