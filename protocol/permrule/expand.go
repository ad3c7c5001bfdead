package permrule

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// What bash does to a command line's text before it runs it, as far as
// parseShell follows it: brace expansion (modelled); commands run from
// text that does not show them (hides) and bracket nesting too deep to
// parse (both refused: the line cannot be read).

// hides reports a node of a parsed line that runs a command its text does
// not show as one, which parseShell then refuses (the line cannot be
// read); heredocs collects the here-document bodies it is handed, whose
// text is only a command's input (a shell fed one reads it: stdinScript).
//
//   - Text with an array subscript running $(…) or backticks, which bash
//     runs wherever it evaluates the text as arithmetic — let, [[ -eq ]],
//     declare -i, (( )), ${a[…]}, unset, printf -v, test -v, read —
//     quoted or not: let 'x=a[$(rm -rf ~)]'. Only the word's own text
//     counts: a $(…) that is an expansion of it runs as it is expanded and
//     is listed as such ("${a[$(date)]}"), and $((…)) is arithmetic.
//   - A variable set whose value bash runs (codeVar: BASH_ENV, PS4,
//     BASH_ALIASES …), or a value expanded as a prompt (${x@P}).
//   - A here-document whose end bash finds before this parser does
//     (hdocEndsEarly).
//   - A function whose body runs its arguments ("$@", $1 …): its calls
//     on the line run commands their words do not name.
func hides(n syntax.Node, src string, heredocs map[*syntax.Word]bool) error {
	switch n := n.(type) {
	case *syntax.Redirect:
		if n.Hdoc != nil {
			heredocs[n.Hdoc] = true
		}
		if hdocEndsEarly(n, src) {
			return fmt.Errorf("a here-document's body holds a line bash reads as its end (%s), where this parser reads on", clip(source(n.Word, src)))
		}
	case *syntax.Word:
		// A value holds a [ only where its source does, or where a $'…'
		// escape makes one: no other word is read again (every command
		// word is read once more for its command).
		if raw := source(n, src); heredocs[n] || !strings.Contains(raw, "[") && !strings.Contains(raw, "$'") {
			return nil
		}
		w := shellWordOf(n, src)
		t := w.text
		if !w.static && !w.odd {
			t = w.bareScript()
		}
		if subscriptRuns().MatchString(t) {
			return fmt.Errorf("it holds %q, whose subscript bash runs as a command where it evaluates it as arithmetic", clip(t))
		}
	case *syntax.Assign:
		value := ""
		if n.Value != nil {
			value = source(n.Value, src)
		}
		if n.Name != nil && codeVar(n.Name.Value, value) {
			return fmt.Errorf("it sets %s, whose value bash runs as code", n.Name.Value)
		}
	case *syntax.ParamExp:
		switch {
		case n.Exp == nil:
		case n.Exp.Op == syntax.OtherParamOps && n.Exp.Word != nil && strings.Contains(n.Exp.Word.Lit(), "P"):
			return fmt.Errorf("it expands a value as a prompt (${…@P}), which runs the $(…) in it")
		case (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) && n.Param != nil && codeVar(n.Param.Value, "$("):
			return fmt.Errorf("it sets %s (${%s:=…}), whose value bash runs as code", n.Param.Value, n.Param.Value)
		}
	case *syntax.WordIter:
		if n.Name != nil && codeVar(n.Name.Value, "$(") {
			return fmt.Errorf("it sets %s in a for loop, whose value bash runs as code", n.Name.Value)
		}
	case *syntax.DeclClause:
		if declares(n, 'n') {
			for _, a := range n.Args {
				if a.Value != nil && codeVar(varName(source(a.Value, src)), "$(") {
					return fmt.Errorf("it makes a name for %s (declare -n), whose value bash runs as code", source(a.Value, src))
				}
			}
		}
	case *syntax.FuncDecl:
		if n.Name != nil && runsArguments(n.Body, src) {
			return fmt.Errorf("it defines %s, a function that runs its arguments", n.Name.Value)
		}
	}
	return nil
}

// promptRuns matches a prompt value that expands something: a $ before a
// name, a bracket, a quote, a backslash or a special parameter; a
// backtick; a subscript.
var promptRuns = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("\\$[A-Za-z_0-9({'\"\\\\!@#*?$-]|`|\\[")
})

// promptSafe removes from a prompt value the expansions that run nothing:
// the names a trace prefix shows (PS4='+ ${BASH_SOURCE}:${LINENO}: ').
var promptSafe = sync.OnceValue(func() *strings.Replacer {
	var pairs []string
	for _, n := range []string{"LINENO", "BASH_SOURCE", "FUNCNAME", "BASH_LINENO", "BASH_SUBSHELL", "SECONDS", "EPOCHREALTIME"} {
		pairs = append(pairs, "${"+n+"}", "", "${"+n+"[0]}", "", "$"+n, "")
	}
	return strings.NewReplacer(pairs...)
})

// varName is a variable's name without its subscript (BASH_ALIASES[h]).
func varName(s string) string {
	name, _, _ := strings.Cut(s, "[")
	return name
}

// evaluatesValue is why bash may run, at n, a command no text of the line
// shows ("" if not): it evaluates as arithmetic, or as a variable's name,
// a value only known when the line runs — (( x )), $((x+1)), let, for
// ((…)), ${s:x:1}, a[x]=1, [[ $a -eq $b ]], [[ -v $x ]], declare -i x=$y,
// ${!x}, ${a[$i]} — and a value whose subscript holds $(…) runs it there
// (x='a[$(rm -rf ~)]'; (( x ))). Doubt, not a refusal: the values are not
// known, nor are they what the line's text runs.
func evaluatesValue(n syntax.Node) string {
	var exprs []syntax.Node
	arith := func(xs ...syntax.ArithmExpr) {
		for _, x := range xs {
			if x != nil {
				exprs = append(exprs, x)
			}
		}
	}
	switch n := n.(type) {
	case *syntax.ArithmCmd:
		arith(n.X)
	case *syntax.ArithmExp:
		arith(n.X)
	case *syntax.CStyleLoop:
		arith(n.Init, n.Cond, n.Post)
	case *syntax.LetClause:
		exprs = append(exprs, n)
	case *syntax.BinaryTest:
		switch n.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
			exprs = append(exprs, n)
		}
	case *syntax.UnaryTest:
		if n.Op == syntax.TsVarSet {
			exprs = append(exprs, n)
		}
	case *syntax.DeclClause:
		if declares(n, 'i') || declares(n, 'n') {
			// Every later assignment to the variable is arithmetic (-i)
			// or names another variable (-n), wherever on the line.
			return "it declares an integer variable or a name for another, whose values bash evaluates, and a subscript in them can run a command"
		}
		for _, a := range n.Args {
			if a.Naked && a.Value != nil && a.Value.Lit() == "" {
				exprs = append(exprs, a.Value) // declare "$x=1": a name only known when it runs
			}
		}
	case *syntax.ArrayElem:
		arith(n.Index)
	case *syntax.Assign:
		if n.Name != nil && programVar(n.Name.Value) {
			return "it sets " + n.Name.Value + ", a command or code a program it starts may run"
		}
		arith(n.Index)
	case *syntax.ParamExp:
		if n.Excl && n.Names == 0 && !allElements(n.Index) {
			return "it expands a variable named by another's value (${!x}), whose subscript can run a command"
		}
		arith(n.Index)
		if n.Slice != nil {
			arith(n.Slice.Offset, n.Slice.Length)
		}
	}
	for _, x := range exprs {
		if namesValue(x) {
			return "it evaluates as arithmetic a value only known when it runs, whose subscript can run a command"
		}
	}
	return ""
}

// declares: declare, typeset or local with the attribute flag (-i, -n).
func declares(d *syntax.DeclClause, flag byte) bool {
	for _, a := range d.Args {
		if a.Naked && a.Value != nil {
			if f := a.Value.Lit(); strings.HasPrefix(f, "-") && strings.IndexByte(f, flag) > 0 {
				return true
			}
		}
	}
	return false
}

// allElements: a subscript of [@] or [*] (${!a[@]}: the array's keys).
func allElements(idx syntax.ArithmExpr) bool {
	w, ok := idx.(*syntax.Word)
	return ok && (w.Lit() == "@" || w.Lit() == "*")
}

// namesValue: an arithmetic expression that reads a variable or an
// expansion, not only numbers (16#ff and 0x1f are numbers).
func namesValue(expr syntax.Node) bool {
	found := false
	syntax.Walk(expr, func(m syntax.Node) bool {
		switch m := m.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst:
			found = true
		case *syntax.Lit:
			if !numberLit().MatchString(m.Value) && strings.ContainsFunc(m.Value, func(r rune) bool { return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }) {
				found = true
			}
		}
		return !found
	})
	return found
}

// numberLit matches an arithmetic literal that is a number with letters
// in it: a base (16#ff, 2#101) or hexadecimal (0x1f).
var numberLit = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([0-9]+#[0-9A-Za-z@_]+|0[xX][0-9A-Fa-f]+)$`)
})

// subscriptRuns matches a name's subscript holding $( or a backtick.
var subscriptRuns = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("[A-Za-z_][A-Za-z0-9_]*\\[[^]]*(\\$\\(|`)")
})

// codeVar: a variable whose value bash, or a shell started after it, runs
// as code: a start-up file (BASH_ENV, sh's ENV), a function exported to
// child shells (BASH_FUNC_name%%), aliases and the command table
// (BASH_ALIASES, BASH_CMDS: a name made to run another program),
// PROMPT_COMMAND; and a prompt or the trace prefix whose value runs a
// command when expanded (PS0, PS1, PS2, PS4 under set -x, holding $(, a
// backtick or a subscript): PS4='+ ${LINENO}: ' runs nothing.
//
// A prompt's value is taken as written (its source): one that expands
// anything but the line-number names (${LINENO}, $BASH_SOURCE …) may run a
// command through it — $(…), a backtick, a subscript, a $'\x24' escape, a
// variable holding any of them — while PS1='\u@\h$ ' expands none.
func codeVar(name, value string) bool {
	switch name = varName(name); name {
	case "BASH_ENV", "ENV", "BASH_ALIASES", "BASH_CMDS", "PROMPT_COMMAND":
		return true
	case "PS0", "PS1", "PS2", "PS4":
		return promptRuns().MatchString(promptSafe().Replace(value))
	}
	return strings.HasPrefix(name, "BASH_FUNC_")
}

// runsArguments: a function body that may run its arguments, or hand
// them to something that may (sudo "$@", bash -c "$1", eval, a program
// with a syntax of its own, (( $1 ))): a positional parameter ($@, $*,
// $1, ${10}, ${!#}) anywhere but in an argument of a command that only
// reads its arguments (inert: echo "$1", test -f "$1", grep "$1" f), a
// [[ ]] test, an assignment's value (local x=$1), the word a case
// matches and its patterns, a file a redirection writes, or what an inert
// command reads through one (wc -l < "$1", cat <<EOF … $1 …). What a call passes is
// on the line, where hides reads it too.
func runsArguments(body syntax.Node, src string) bool {
	inert := map[*syntax.ParamExp]bool{}
	mark := func(n syntax.Node) {
		syntax.Walk(n, func(m syntax.Node) bool {
			switch m := m.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp:
				return false // a context of its own, judged there
			case *syntax.ParamExp:
				inert[m] = true
			}
			return true
		})
	}
	syntax.Walk(body, func(m syntax.Node) bool {
		switch m := m.(type) {
		case *syntax.Stmt:
			// What a redirection names: a file written (> "$1"), or what an
			// inert command reads (wc -l < "$1", cat <<EOF … $1 …, grep x
			// <<< "$1") — not a shell's input (bash <<< "$1").
			call, ok := m.Cmd.(*syntax.CallExpr)
			inertCmd := ok && len(call.Args) > 0 && inertCommand(call.Args, src)
			for _, r := range m.Redirs {
				if inertCmd || r.Op == syntax.RdrOut || r.Op == syntax.AppOut || r.Op == syntax.RdrClob || r.Op == syntax.RdrAll || r.Op == syntax.AppAll {
					if r.Word != nil {
						mark(r.Word)
					}
					if r.Hdoc != nil {
						mark(r.Hdoc)
					}
				}
			}
		case *syntax.CaseClause:
			// The word a case matches, and its patterns, are only read.
			mark(m.Word)
			for _, it := range m.Items {
				for _, p := range it.Patterns {
					mark(p)
				}
			}
		case *syntax.CallExpr:
			if len(m.Args) > 0 && inertCommand(m.Args, src) {
				for _, a := range m.Args[1:] {
					mark(a)
				}
			}
			for _, a := range m.Assigns {
				if a.Value != nil && a.Index == nil {
					mark(a.Value)
				}
			}
		case *syntax.DeclClause:
			if !declares(m, 'i') && !declares(m, 'n') && m.Variant != nil && m.Variant.Value != "unset" {
				for _, a := range m.Args {
					if !a.Naked && a.Value != nil && a.Index == nil {
						mark(a.Value)
					}
				}
			}
		case *syntax.TestClause:
			mark(m)
		}
		return true
	})
	found := false
	syntax.Walk(body, func(m syntax.Node) bool {
		if pe, ok := m.(*syntax.ParamExp); ok && pe.Param != nil && !inert[pe] {
			if v := pe.Param.Value; v == "@" || v == "*" || v == "#" && pe.Excl || strings.Trim(v, "0123456789") == "" {
				found = true
			}
		}
		return !found
	})
	return found
}

// inertCommand: a command, by its static name, that only reads its
// arguments as data — it runs none of them, nor reads one as a variable's
// name (printf and test with -v do), nor changes files by options a rule
// would look for.
func inertCommand(args []*syntax.Word, src string) bool {
	name := shellWordOf(args[0], src)
	if !name.static {
		return false
	}
	switch name.text {
	case "printf", "test", "[":
		lits := make([]string, len(args)-1) // "" for a word with expansions
		for i, a := range args[1:] {
			if w := shellWordOf(a, src); w.static {
				lits[i] = w.text
			}
		}
		return !namesVariable(name.text, lits)
	case "echo", "cd", "pushd", "ls", "cat", "mkdir", "touch", "head", "tail", "wc", "stat", "basename",
		"dirname", "realpath", "readlink", "grep", "egrep", "fgrep", "diff", "cmp", "uniq", "cut", "tr", "du",
		"df", "file", "mktemp", "date", "sleep", "exit", "return", "shift", "true", "false", ":":
		// Not rm, cp, mv, chmod …: a rule reads their options, which the
		// call's words would give them (f(){ rm "$@"; }; f -rf x).
		return true
	}
	return false
}

// namesVariable: printf or test with these arguments ("" for one only
// known when it runs) may take one as a variable's name, whose subscript
// bash evaluates: printf -v NAME (also -vNAME), test -v NAME — where -v
// is written, or where a word only known when it runs stands where an
// option or an operator goes (printf "$f" …, [ "$2" "$1" ]). A word after
// a written operator, or before a written binary one, is an operand
// ([ -f "$1" ], [ "$1" = x ]).
func namesVariable(name string, lits []string) bool {
	if name == "[" && len(lits) > 0 && lits[len(lits)-1] == "]" {
		lits = lits[:len(lits)-1]
	}
	for i, l := range lits {
		switch {
		case strings.HasPrefix(l, "-v"):
			return true
		case l != "":
		case name == "printf":
			if i == 0 {
				return true
			}
		case i > 0 && lits[i-1] != "" && !strings.HasPrefix(lits[i-1], "-v"):
		case i+1 < len(lits) && binaryTest(lits[i+1]):
		case len(lits) == 1:
		default:
			return true
		}
	}
	return false
}

// binaryTest: a test operator between two operands.
func binaryTest(op string) bool {
	switch op {
	case "=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef", "-a", "-o":
		return true
	}
	return false
}

// maxBraceWords bounds the words brace expansion may make on one line.
const maxBraceWords = 1024

// maxBraceParts bounds the brace expressions of one word. Each word
// expand.BracesSeq makes costs a copy of the word's parts at each of its
// brace levels, so 2,000 {a,b} in one word (10 KB) took 18 s to make the
// line's first 1,024 words, and a 64 KiB one minutes; words people write
// have a few.
const maxBraceParts = 64

// splitBraces is w with its brace expressions made nodes (syntax.SplitBraces,
// on a copy: the tree is still walked), and whether it has any; an error
// for a word of more than maxBraceParts of them.
func splitBraces(w *syntax.Word) (*syntax.Word, bool, error) {
	split := *w
	if !syntax.SplitBraces(&split) {
		return nil, false, nil
	}
	if braceParts(split.Parts, 0) > maxBraceParts {
		return nil, true, fmt.Errorf("a word holds more than %d brace expansions", maxBraceParts)
	}
	return &split, true, nil
}

// braceParts is n plus the brace expressions of parts, nested ones too,
// counted until past maxBraceParts. (syntax.Walk does not enter them; and
// bash expands no braces inside quotes, so none are elsewhere.)
func braceParts(parts []syntax.WordPart, n int) int {
	for _, p := range parts {
		b, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		n++
		for _, e := range b.Elems {
			if n > maxBraceParts {
				return n
			}
			n = braceParts(e.Parts, n)
		}
	}
	return n
}

// braceWords is w's words after brace expansion, which bash does before
// anything else: rm -{r,f} x is rm -r -f x, and {rm,-rf,x} is rm -rf x.
// budget is what the line's expansions may still make; past it, an error:
// the line cannot be read (64 KiB of {0..999} would make millions).
func braceWords(w *syntax.Word, src string, budget *int) ([]shellWord, error) {
	split, ok, err := splitBraces(w)
	if err != nil {
		return nil, err
	}
	if !ok {
		return []shellWord{shellWordOf(w, src)}, nil
	}
	var out []shellWord
	for x, err := range expand.BracesSeq(nil, split) {
		if *budget--; err != nil || *budget < 0 {
			return nil, fmt.Errorf("its brace expansions make more than %d words", maxBraceWords)
		}
		out = append(out, shellWordOf(x, src))
	}
	return out, nil
}

// maxNesting bounds how deep a command line's brackets may nest.
const maxNesting = 128

// nests reports whether s's (, { and [ nest more than limit deep, counted
// without regard to quoting (an over-estimate, which only refuses more).
func nests(s string, limit int) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{', '[':
			if depth++; depth > limit {
				return true
			}
		case ')', '}', ']':
			depth = max(depth-1, 0)
		}
	}
	return false
}
