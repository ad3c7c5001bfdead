package permrule

import (
	"errors"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Bash rules: the subcommands of a shell command (bash_rule.go: the
// pattern syntax).

func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// shellWord is one word of a simple command. A word made only of literal
// text and quotes is static and text is its value: quotes are removed and
// backslash escapes resolved ("a b", 'a b' and a\ b are the one word a b;
// $'\t' is a tab), so `git commit -m "fix it"` is compared as
// "git commit -m fix it" — the argv the command will receive. Braces are
// expanded by parseShell (braceWords); tilde and globs are not (~/x and
// *.go stay as written: neither Claude Code nor this evaluator knows the
// file system), but glob records that the shell would expand them. A word holding a $VAR, ${…}, $(…), `…`,
// $((…)) or <(…) has no value before it runs; its text is its source and it
// marks the whole command line dynamic.
type shellWord struct {
	text   string
	static bool
	glob   bool // unquoted *, ?, [ or {: the shell expands it into other words
	// odd: a $'…' escape bash decodes otherwise than mvdan.cc/sh does
	// (\x{…}, \c…): the word's value is not known here.
	odd bool
	// vanish: bash may drop the word, empty; given: it reads a value the
	// line gives, which the line's values expand (markVanish).
	vanish, given bool
	// script, for a word that is not static, is the text it gives a shell
	// that parses it as a command string (sh -c WORD, eval WORD): its
	// quotes removed and escapes resolved, its expansions as written.
	script string
	// blanks, for a word that is not static, are the spans of script that
	// hold its expansions (start, end pairs): bareScript blanks them.
	blanks []int
	// outputs are the command substitutions whose output the line gives
	// the variables it reads (X=$(…); eval "$X"): output_code.go.
	outputs []string
	// split: an expansion in it is unquoted, so bash splits its value
	// into words, or drops it when empty.
	split bool
}

// bareScript is script with each expansion one _: the text bash may read
// again after expanding the word (as arithmetic: let, [[ -eq ]] …). What an
// expansion runs is a node of the line of its own, listed where it is; the
// _ is a name's character, since a value can end in a name.
func (w shellWord) bareScript() string {
	var b strings.Builder
	at := 0
	for i := 0; i+1 < len(w.blanks); i += 2 {
		b.WriteString(w.script[at:w.blanks[i]])
		b.WriteByte('_')
		at = w.blanks[i+1]
	}
	b.WriteString(w.script[at:])
	return b.String()
}

// shellCommand is one simple command of a Bash command line, as Claude Code
// compares it: its words after the leading VAR=value assignments (which are
// never part of it), and where its standard input comes from.
type shellCommand struct {
	words     []shellWord
	stdin     stdinKind
	stdinText string
	maybe     bool // run only if some of its words vanish: appendVanished
}

// lineInfo is what parseShell finds of a command line as a whole.
type lineInfo struct {
	dynamic bool   // some part only has a value when it runs
	doubt   string // a part that may run what no text shows (evaluatesValue)
	values  *lineValues
	file    *syntax.File // the parsed line, for checks of its own (zshOtherwise)
}

func joinWords(w []shellWord) string {
	var b strings.Builder
	for i, x := range w {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(x.text)
	}
	return b.String()
}

// parseShell parses a Bash command line (bash dialect) and returns every
// simple command in it — in pipelines, lists (&&, ||, ;, &, |&, newlines),
// subshells, groups, if/while/for/case bodies, functions, and inside $(…),
// backticks and <(…) — and what the line says of itself (lineInfo). outer
// is the values of the line that runs this one as a command string (nil:
// none), which its variables may hold too.
func parseShell(command string, outer *lineValues) (cmds []shellCommand, line lineInfo, err error) {
	if nests(command, maxNesting) {
		// The parser's recursion on 64 KiB of (((( or $( takes a second and
		// hundreds of MB; no command line a person writes nests this deep.
		return nil, line, fmt.Errorf("it nests brackets more than %d deep", maxNesting)
	}
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true)).Parse(strings.NewReader(command), "")
	if err != nil {
		return nil, line, err
	}
	if err := checkComments(file, command); err != nil {
		return nil, line, err
	}
	// A statement's redirections belong to the Stmt, which Walk visits
	// before the command inside it.
	stdin := map[*syntax.CallExpr]shellCommand{}
	piped := map[*syntax.CallExpr]bool{} // reading a pipe: right of | or |&
	heredocs := map[*syntax.Word]bool{}
	braces := maxBraceWords
	values := valuesOf(file, command, outer)
	if values.stopped {
		return nil, line, errPastBound
	}
	if values.exhausted {
		return nil, line, fmt.Errorf("its command strings read more of the line's values than this analysis follows (%d)", maxInherited)
	}
	if values.unreadable != "" {
		return nil, line, errors.New(values.unreadable)
	}
	line.values, line.file = values, file
	var hidden error // a command the line runs where its text does not show one
	syntax.Walk(file, func(n syntax.Node) bool {
		if hidden == nil {
			hidden = hides(n, command, heredocs)
		}
		if hidden == nil {
			hidden = gitConfigHidden(n, command)
		}
		if line.doubt == "" {
			line.doubt = evaluatesValue(n)
		}
		switch n := n.(type) {
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				syntax.Walk(n.Y, func(m syntax.Node) bool {
					if call, ok := m.(*syntax.CallExpr); ok {
						piped[call] = true
					}
					return true
				})
			}
		case *syntax.Stmt:
			if call, ok := n.Cmd.(*syntax.CallExpr); ok {
				stdin[call] = stdinOf(n.Redirs, command)
			}
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst:
			line.dynamic = true
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				return true // only assignments
			}
			c := stdin[n]
			if c.stdin == stdinInherited && piped[n] {
				c.stdin = stdinUnknown
			}
			for _, w := range n.Args {
				words, err := braceWords(w, command, &braces)
				if err != nil && hidden == nil {
					hidden = err
				}
				c.words = append(c.words, markOutputs(markVanish(words, w, values), w, values)...)
			}
			cmds = appendVanished(append(cmds, c), c)
			if hidden != nil {
				return true // an error already: the line is not read
			}
			// And as it runs with each value the line gives what it expands.
			alts, err := values.variants(n.Args, command)
			hidden = err
			for _, a := range alts {
				cmds = append(cmds, shellCommand{words: a, stdin: c.stdin, stdinText: c.stdinText})
			}
		case *syntax.DeclClause:
			if n.Variant == nil {
				return true
			}
			c := shellCommand{words: []shellWord{{text: n.Variant.Value, static: true}}}
			for _, a := range n.Args {
				v, ok := assignValue(a, command)
				c.words = append(c.words, shellWord{text: v, static: ok})
			}
			cmds = append(cmds, c)
		}
		return true
	})
	if hidden != nil {
		return nil, line, hidden
	}
	return cmds, line, nil
}

// checkComments refuses a line where the parser saw a comment that bash
// would not: # starts a comment only at the start of a word. mvdan.cc/sh
// (v3.14), inside ( … ), reads a # right after an empty quoted string as
// one — the echo of echo, two single quotes, then #;rm -rf y — so the rm
// after it would go unseen while bash runs it (the table test has the
// line); any such disagreement is a parse failure, which runs the hook.
func checkComments(file *syntax.File, src string) error {
	var err error
	syntax.Walk(file, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.Comment); ok && err == nil {
			o := int(c.Hash.Offset())
			if o > 0 && o <= len(src) && strings.IndexByte(" \t\n;&|()<>", src[o-1]) < 0 {
				err = fmt.Errorf("offset %d: a # inside a word, which this parser reads as a comment and bash does not", o)
			}
		}
		return err == nil
	})
	return err
}

func source(n syntax.Node, src string) string {
	a, b := int(n.Pos().Offset()), int(n.End().Offset())
	if a < 0 || b > len(src) || a > b {
		return ""
	}
	return src[a:b]
}

// shellWordOf returns a word's value when it is static, or its source text
// and the command string it makes (script): the same text, with each
// expansion's source where its value would be.
func shellWordOf(w *syntax.Word, src string) shellWord {
	var b strings.Builder
	var blanks []int
	glob, static, split := false, true, false
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			glob = glob || expands(p.Value)
			b.WriteString(unescapeUnquoted(p.Value))
		case *syntax.SglQuoted:
			if !p.Dollar {
				b.WriteString(p.Value)
				continue
			}
			if strings.Contains(p.Value, `\x{`) || strings.Contains(p.Value, `\c`) {
				return shellWord{text: source(w, src), odd: true}
			}
			v, err := expand.Literal(&expand.Config{}, &syntax.Word{Parts: []syntax.WordPart{p}})
			if err != nil {
				return shellWord{text: source(w, src), odd: true}
			}
			b.WriteString(v)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if lit, ok := q.(*syntax.Lit); ok {
					b.WriteString(unescapeDoubleQuoted(lit.Value))
					continue
				}
				static = false
				blanks = append(blanks, b.Len())
				b.WriteString(source(q, src))
				blanks = append(blanks, b.Len())
			}
		default:
			static, split = false, true
			blanks = append(blanks, b.Len())
			b.WriteString(source(p, src))
			blanks = append(blanks, b.Len())
		}
	}
	if !static {
		return shellWord{text: source(w, src), script: b.String(), blanks: blanks, split: split}
	}
	return shellWord{text: b.String(), static: true, glob: glob}
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
	v := shellWordOf(a.Value, src)
	if !v.static {
		return source(a, src), false
	}
	return a.Name.Value + "=" + v.text, true
}

// expands reports whether unquoted text holds a pattern the shell expands
// into other words: * or ?, a [class], or {a,b} / {a..b} braces.
func expands(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '*', '?':
			return true
		case '[':
			if strings.Contains(s[i+1:], "]") {
				return true
			}
		case '{':
			if j := strings.IndexByte(s[i+1:], '}'); j >= 0 {
				in := s[i+1 : i+1+j]
				if strings.Contains(in, ",") || strings.Contains(in, "..") {
					return true
				}
			}
		}
	}
	return false
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

// unescapeDoubleQuoted undoes the backslashes a double-quoted string
// gives meaning to: $, `, ", \ and a line join.
func unescapeDoubleQuoted(s string) string { return unescapeShell(s, "$`\"\\") }

// unescapeShell drops the backslash before each byte of special and
// before a newline (a line join); every other backslash stays.
func unescapeShell(s, special string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch {
			case strings.IndexByte(special, s[i+1]) >= 0:
				b.WriteByte(s[i+1])
				i++
				continue
			case s[i+1] == '\n':
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
