package protocol

import (
	"regexp"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Bash rules: the pattern syntax, and the subcommands of a shell command.

// shellPattern is a Bash rule's specifier. Claude Code's syntax
// (permissions docs, "Wildcard patterns" and "Bash"):
//
//   - "x:*" (legacy, only at the very end) is a prefix: the command is x, or
//     starts with "x " — so it keeps a word boundary (npm run test:* matches
//     "npm run test" and "npm run test foo", not "npm run testing");
//   - otherwise the pattern is anchored at both ends and every unescaped *
//     matches any run of characters, spaces included, at any position
//     ("git * main", "* --version"); \* is a literal star and \\ a
//     backslash;
//   - a pattern whose only * is a trailing " *" makes the " …" optional, so
//     "ls *" matches "ls" and "ls -la" but not "lsof" (the word boundary),
//     while "ls*" also matches "lsof";
//   - no * at all is an exact command.
type shellPattern struct {
	raw      string
	prefix   string
	isPrefix bool
	re       *regexp.Regexp
	// nameOnly: the pattern names just the command ("rm *", "rm*",
	// "rm:*"). When a command holds $(…), backticks or $VAR, Claude Code
	// evaluates only such patterns against its subcommands and runs the
	// hook for any other (hooks docs, Bash `if` table: Bash(git push *) on
	// `echo $(date)` → runs).
	nameOnly bool
}

// Compiled at first use, not at every start of the one-shot binary.
var nameOnlyPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^\s*?\[]+\s?\*$`) })

func compileShellPattern(content string) shellPattern {
	p := shellPattern{raw: content}
	if len(content) > 2 && strings.HasSuffix(content, ":*") {
		p.isPrefix, p.prefix = true, content[:len(content)-2]
		p.nameOnly = !strings.ContainsAny(p.prefix, " \t\n\r\f\v")
		return p
	}
	p.nameOnly = nameOnlyPattern().MatchString(content)
	pat := strings.TrimSpace(content)
	var b strings.Builder
	stars := 0
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch {
		case c == '\\' && i+1 < len(pat) && (pat[i+1] == '*' || pat[i+1] == '\\'):
			b.WriteString(regexp.QuoteMeta(pat[i+1 : i+2]))
			i++
		case c == '*':
			b.WriteString(".*")
			stars++
		default:
			b.WriteString(regexp.QuoteMeta(pat[i : i+1]))
		}
	}
	expr := b.String()
	if stars == 1 && strings.HasSuffix(expr, " .*") {
		expr = expr[:len(expr)-len(" .*")] + "(?: .*)?"
	}
	p.re = regexp.MustCompile(`(?s)^` + expr + `$`)
	return p
}

func (p shellPattern) matches(cmd string) bool {
	if p.isPrefix {
		return cmd == p.prefix || strings.HasPrefix(cmd, p.prefix+" ")
	}
	return p.re.MatchString(cmd)
}

// maxShellCommand bounds what is parsed; a longer command is not analysed
// and the hook runs.
const maxShellCommand = 1 << 16

func (p shellPattern) match(command string) (bool, string) {
	rule := "Bash(" + p.raw + ")"
	if len(command) > maxShellCommand {
		return true, "the command is too long to analyse, so the hook runs (as Claude Code does when it cannot tell)"
	}
	cmds, dynamic, err := analyzeShell(command)
	if err != nil {
		return true, "the command cannot be parsed (" + err.Error() + "), so the hook runs, as in Claude Code"
	}
	if dynamic && !p.nameOnly {
		return true, "the command holds $(…), backticks or $VAR and " + rule + " names more than the command, so the hook runs, as in Claude Code"
	}
	for _, c := range cmds {
		if c.dynName {
			return true, "`" + clip(c.text()) + "` runs a command whose name is only known when it runs, so the hook runs"
		}
		for _, cand := range c.candidates() {
			if p.matches(cand) {
				return true, "subcommand `" + clip(cand) + "` matches " + rule
			}
		}
	}
	if len(cmds) == 0 {
		return false, "the command runs no command"
	}
	return false, "no subcommand matches " + rule
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// shellCommand is one simple command of a Bash command line, as Claude Code
// compares it: its words after the leading VAR=value assignments (which are
// never part of it), joined with single spaces.
//
// A word made only of literal text and quotes counts as its value: quotes
// are removed and backslash escapes resolved ("a b", 'a b' and a\ b are the
// one word a b; $'\t' is a tab), so `git commit -m "fix it"` is compared as
// "git commit -m fix it" — the argv the command will receive. Tilde, braces
// and globs are not expanded (~/x, {a,b} and *.go stay as written: neither
// Claude Code nor this evaluator knows the file system). A word holding a
// $VAR, ${…}, $(…), `…`, $((…)) or <(…) has no value before it runs; it is
// kept as its source text and marks the whole command line dynamic.
type shellCommand struct {
	words  []string
	static []bool
	// dynName: after assignments and wrappers, the command name itself is
	// not static ($CMD -rf /): nothing can be said about what runs.
	dynName bool
}

func (c shellCommand) text() string { return strings.Join(c.words, " ") }

// candidates returns the forms the command is compared in: as written, and
// with the wrappers Claude Code strips before matching Bash rules
// (permissions docs, "Wrappers": timeout, time, nice, nohup, stdbuf, the
// builtins command and builtin, zsh's noglob, and a bare xargs). The hooks
// docs mention only the assignment stripping for `if`; comparing both forms
// keeps a guard on rm * firing for `timeout 5 rm x` while a hook on
// timeout * still fires. env, sudo, sh -c, bash -c and eval are not
// unwrapped (they are not on Claude Code's list).
func (c shellCommand) candidates() []string {
	full := c.text()
	stripped := stripWrappers(c.words)
	if len(stripped) == len(c.words) || len(stripped) == 0 {
		return []string{full}
	}
	return []string{full, strings.Join(stripped, " ")}
}

func stripWrappers(w []string) []string {
	for len(w) > 0 {
		next := w
		switch w[0] {
		case "nohup", "builtin", "noglob":
			next = w[1:]
		case "time":
			next = skipOpts(w[1:], nil)
		case "command":
			if len(w) > 1 && (w[1] == "-v" || w[1] == "-V") {
				return w // the query form looks a command up, it runs nothing
			}
			next = skipOpts(w[1:], nil)
		case "timeout":
			next = skipOpts(w[1:], map[string]bool{"-s": true, "--signal": true, "-k": true, "--kill-after": true})
			if len(next) > 0 {
				next = next[1:] // the duration
			}
		case "nice":
			next = skipOpts(w[1:], map[string]bool{"-n": true, "--adjustment": true})
		case "stdbuf":
			next = skipOpts(w[1:], map[string]bool{"-i": true, "-o": true, "-e": true})
		case "xargs":
			// Only a bare xargs: `xargs -n1 grep p` is matched as xargs.
			if len(w) > 1 && !strings.HasPrefix(w[1], "-") {
				next = w[1:]
			}
		}
		if len(next) == len(w) || len(next) == 0 {
			return w
		}
		w = next
	}
	return w
}

// skipOpts drops leading options; those in withArg take the next word as
// their value unless written --opt=value or -oVALUE.
func skipOpts(w []string, withArg map[string]bool) []string {
	for len(w) > 0 && strings.HasPrefix(w[0], "-") && w[0] != "-" {
		if w[0] == "--" {
			return w[1:]
		}
		opt := w[0]
		w = w[1:]
		if withArg[opt] && len(w) > 0 {
			w = w[1:]
		}
	}
	return w
}

// analyzeShell parses a Bash command line (bash dialect) and returns every
// simple command in it — in pipelines, lists (&&, ||, ;, &, |&, newlines),
// subshells, groups, if/while/for/case bodies, functions, and inside $(…),
// backticks and <(…) — and whether any part of it only has a value when it
// runs.
func analyzeShell(command string) (cmds []shellCommand, dynamic bool, err error) {
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return nil, false, err
	}
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst:
			dynamic = true
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				return true // only assignments
			}
			var c shellCommand
			for _, w := range n.Args {
				v, ok := wordValue(w, command)
				c.words, c.static = append(c.words, v), append(c.static, ok)
			}
			c.dynName = nameIsDynamic(c)
			cmds = append(cmds, c)
		case *syntax.DeclClause:
			if n.Variant == nil {
				return true
			}
			c := shellCommand{words: []string{n.Variant.Value}, static: []bool{true}}
			for _, a := range n.Args {
				v, ok := assignValue(a, command)
				c.words, c.static = append(c.words, v), append(c.static, ok)
			}
			cmds = append(cmds, c)
		}
		return true
	})
	return cmds, dynamic, nil
}

// nameIsDynamic reports whether the word that names the command, once
// wrappers are skipped, has no value before it runs.
func nameIsDynamic(c shellCommand) bool {
	stripped := stripWrappers(c.words)
	i := len(c.words) - len(stripped)
	return i < len(c.static) && !c.static[i]
}

func source(n syntax.Node, src string) string {
	a, b := int(n.Pos().Offset()), int(n.End().Offset())
	if a < 0 || b > len(src) || a > b {
		return ""
	}
	return src[a:b]
}

// wordValue returns a word's value when it is static, or its source text.
func wordValue(w *syntax.Word, src string) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescapeUnquoted(p.Value))
		case *syntax.SglQuoted:
			if !p.Dollar {
				b.WriteString(p.Value)
				continue
			}
			v, err := expand.Literal(&expand.Config{}, &syntax.Word{Parts: []syntax.WordPart{p}})
			if err != nil {
				return source(w, src), false
			}
			b.WriteString(v)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok {
					return source(w, src), false
				}
				b.WriteString(unescapeDoubleQuoted(lit.Value))
			}
		default:
			return source(w, src), false
		}
	}
	return b.String(), true
}

func assignValue(a *syntax.Assign, src string) (string, bool) {
	if a.Name == nil || a.Index != nil || a.Array != nil {
		return source(a, src), false
	}
	if a.Naked {
		return a.Name.Value, true
	}
	if a.Value == nil {
		return a.Name.Value + "=", true
	}
	v, ok := wordValue(a.Value, src)
	if !ok {
		return source(a, src), false
	}
	return a.Name.Value + "=" + v, true
}

func unescapeUnquoted(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func unescapeDoubleQuoted(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '"', '\\':
				b.WriteByte(s[i+1])
				i++
				continue
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
