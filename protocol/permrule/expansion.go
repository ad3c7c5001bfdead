package permrule

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Words expanded with the values the line gives its variables (values.go)
// by mvdan.cc/sh's expand, as bash expands them (every parameter
// expansion, arithmetic, word splitting at IFS, quote removal; a command's
// output read as empty, no globbing): once per assignment of the values to
// the variables the words read — a command's words all under one.

// env is one assignment of values to the variables some words read, for
// expand: a name it does not hold is unset. "HOME name" (~name) reads as
// set to ~name, so expand never looks a user up: the analysis does no
// I/O, and a home folder is not a value the line gives. An assignment an
// expansion makes (${X:=…}, $((i++))) is kept for the rest of the words.
type env map[string]expand.Variable

func (e env) Get(name string) expand.Variable {
	if user, ok := strings.CutPrefix(name, "HOME "); ok {
		return expand.Variable{Set: true, Kind: expand.String, Str: "~" + user}
	}
	return e[name]
}

func (e env) Each(f func(name string, vr expand.Variable) bool) {
	for name, vr := range e {
		if !f(name, vr) {
			return
		}
	}
}

func (e env) Set(name string, vr expand.Variable) error {
	e[name] = vr
	return nil
}

// variants are the commands args may become with the line's values,
// besides the one as written: none when no word reads a value the line
// gives (or a ${X:-WORD} and its kin).
func (v *lineValues) variants(args []*syntax.Word, src string) ([][]shellWord, error) {
	if v.givesOnlyIFS() && !hasDefault(args) && !readsAny(args, "IFS") && (!v.hasLastArgs() || !readsAny(args, "_")) {
		return nil, nil // what most lines are: no word to expand
	}
	lists, err := v.expand(args, src, false, false)
	if lists == nil {
		return nil, err
	}
	if v.budget -= len(lists); v.budget < 0 {
		return nil, fmt.Errorf("its variables take more values together than this analysis follows (%d listings)", maxLineVariants)
	}
	out := make([][]shellWord, len(lists))
	for i, fields := range lists {
		out[i] = make([]shellWord, len(fields))
		for j, f := range fields {
			out[i][j] = shellWord{text: f, static: true, glob: expands(f)}
		}
	}
	return out, nil
}

// expand is the fields words expand to under each assignment of the
// line's values to the variables they read (literal: the one string an
// assignment's single word expands to), distinct; nil when they read
// none of the line's values (always: expanded all the same, a value
// source's word, unless it holds a command whose output it takes).
func (v *lineValues) expand(words []*syntax.Word, src string, literal, always bool) ([][]string, error) {
	r, err := v.reads(words, src)
	if err != nil {
		return nil, err
	}
	if r.odd != "" && r.used {
		return nil, fmt.Errorf("`%s` %s", clip(source(words[0], src)), r.odd)
	}
	if always && r.output || !always && !r.used {
		return nil, nil
	}
	envs, err := v.envs(r, words, src)
	if err != nil {
		return nil, err
	}
	var out [][]string
	seen := map[string]bool{}
	for _, e := range envs {
		fields, err := expandIn(e, words, literal)
		switch {
		case err == nil:
		case stopsBash(err):
			continue // bash stops the command there too, under these values
		default:
			return nil, fmt.Errorf("`%s` cannot be expanded as bash would (%v)", clip(source(words[0], src)), err)
		}
		if key := strings.Join(fields, "\x00"); !seen[key] {
			seen[key] = true
			out = append(out, fields)
		}
	}
	if out == nil {
		out = [][]string{} // no assignment expands: no value
	}
	return out, nil
}

// stopsBash: an expansion error bash has too, under the same values,
// where it does not run the command: ${X:?…} unset, a division by zero,
// a bad index or indirection, a value the expander panics on (a NUL).
// Any other error (an extglob pattern mvdan.cc/sh does not read) means
// the words cannot be told.
func stopsBash(err error) bool {
	var unset expand.UnsetParameterError
	if errors.As(err, &unset) {
		return true
	}
	msg := err.Error()
	for _, s := range []string{"division by zero", "index", "indirect", "exponent", "expander failed", "invalid", "unbound"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// expandIn expands words under e: their fields, or the string of one.
func expandIn(e env, words []*syntax.Word, literal bool) (fields []string, err error) {
	defer func() {
		// mvdan.cc/sh panics on some values (a NUL byte quoted by ${X@Q}):
		// the words cannot be told then.
		if r := recover(); r != nil {
			err = fmt.Errorf("the expander failed: %v", r)
		}
	}()
	cfg := &expand.Config{Env: maps.Clone(e),
		CmdSubst:  func(io.Writer, *syntax.CmdSubst) error { return nil },
		ProcSubst: func(*syntax.ProcSubst) (string, error) { return "/dev/fd/63", nil }}
	if literal {
		s, err := expand.Literal(cfg, words[0])
		return []string{s}, err
	}
	return expand.Fields(cfg, words...)
}

// readSet is what some words read: the variables (names), those read with
// an operator that tells set from unset (withOp: ${X:-WORD} and its kin),
// at most how much text one expansion of them makes (est), whether they
// read a value the line gives (used), and whether they take a command's
// output (output).
type readSet struct {
	names        []string
	withOp       map[string]syntax.ParExpOperator
	est          int
	used, output bool
	// odd is an expansion bash makes otherwise than mvdan.cc/sh: the
	// words cannot be expanded here.
	odd string
}

// reads is what words read: $NAME and ${NAME…}, the names ${!X} and
// ${!prefix*} reach, the bare names of subscripts, slices and arithmetic,
// and IFS where the line sets it. An error for braces past the line's
// bound.
func (v *lineValues) reads(words []*syntax.Word, src string) (readSet, error) {
	r := readSet{withOp: map[string]syntax.ParExpOperator{}}
	name := func(n string) {
		if n == "_" {
			v.lastValues()
		}
		if !slices.Contains(r.names, n) {
			r.names = append(r.names, n)
		}
		r.used = r.used || len(v.vals[n]) > 0 || len(v.arrays[n]) > 0 || v.over[n]
	}
	for _, w := range words {
		split, ok, err := splitBraces(w)
		if err != nil {
			return r, err
		}
		if ok {
			for range expand.BracesSeq(nil, split) {
				if v.braces--; v.braces < 0 {
					return r, fmt.Errorf("its brace expansions make more than %d words", 4*maxBraceWords)
				}
			}
		}
		r.est += len(source(w, src))
		syntax.Walk(w, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst:
				r.output = true
			case *syntax.ArithmExp:
				arithNames(n.X, name)
			case *syntax.ParamExp:
				v.readParam(n, src, &r, name)
			}
			return true
		})
	}
	if r.used && len(v.vals["IFS"]) > 0 {
		name("IFS") // each splitting the line may set
	}
	return r, nil
}

// readParam adds what one ${…} reads to r.
func (v *lineValues) readParam(p *syntax.ParamExp, src string, r *readSet, name func(string)) {
	if p.Param == nil {
		return
	}
	n := p.Param.Value
	name(n)
	if p.Index != nil {
		arithNames(p.Index, name)
	}
	if p.Slice != nil {
		arithNames(p.Slice.Offset, name)
		arithNames(p.Slice.Length, name)
	}
	if p.Excl {
		for _, to := range v.vals[n] { // ${!X}: the variable X names
			if syntax.ValidName(to) || positionalName(to) {
				name(to)
			} else if v.made(); !v.over[n] {
				// X='a[0]', an element: not a name this analysis keeps
				// values of, so ${!X} cannot be told (read as empty, it
				// made ${!X} -rf / the command -rf /).
				v.over[n] = true
			}
		}
	}
	if p.Names != 0 { // ${!prefix*}: every name the line gives a value
		for k := range v.vals {
			if strings.HasPrefix(k, n) {
				name(k)
			}
		}
	}
	if p.Exp != nil {
		switch p.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull,
			syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
			r.used = true
			r.withOp[n] = p.Exp.Op
		}
	}
	one := v.longest + len(source(p, src))
	if p.Repl != nil {
		one *= len(source(p, src)) * max(v.longest, 1) // each character, replaced by a With of values
		if v.ampersand(p.Repl, src) {
			r.odd = "replaces text with & in it, which bash 5.2 reads as the text matched (patsub_replacement) and this analysis does not"
		}
	}
	if v.patterns && (p.Repl != nil || p.Exp != nil && p.Exp.Op >= syntax.RemSmallSuffix && p.Exp.Op <= syntax.RemLargePrefix) {
		r.odd = "matches a pattern where the line sets shopt nocasematch or extglob, which this analysis does not follow"
	}
	r.est = min(r.est+one, maxExpandBytes+1)
}

// ampersand: bash 5.2 would read an & of replacement r as the text
// matched, where mvdan.cc/sh keeps it — written unescaped in the
// replacement (except where the pattern is & itself, the same text), or
// in a value the replacement expands.
func (v *lineValues) ampersand(r *syntax.Replace, src string) bool {
	if r.With == nil {
		return false
	}
	with := strings.ReplaceAll(source(r.With, src), `\&`, "")
	orig := ""
	if r.Orig != nil {
		orig = source(r.Orig, src)
	}
	if strings.Contains(with, "&") && orig != "&" && orig != `\&` {
		return true
	}
	for _, n := range wordNames(r.With) {
		for _, val := range v.vals[n] {
			if strings.Contains(val, "&") {
				return true
			}
		}
	}
	return false
}

// reads: w reads the variable name (wordNames).
func reads(w *syntax.Word, name string) bool {
	found := false
	eachWordName(w, func(n string) { found = found || n == name })
	return found
}

// wordNames are the variables w reads: $name, ${name…}, and bare names in
// arithmetic ($((name+1)), ${a[name]}).
func wordNames(w *syntax.Word) []string {
	var names []string
	eachWordName(w, func(n string) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	})
	return names
}

// eachWordName calls f with each variable w reads (wordNames), a name as
// often as w reads it.
func eachWordName(w *syntax.Word, f func(string)) {
	if w == nil {
		return
	}
	if len(w.Parts) == 1 {
		if _, plain := w.Parts[0].(*syntax.Lit); plain {
			return // most words: nothing to read, and no walk to pay for
		}
	}
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ParamExp:
			if n.Param != nil {
				f(n.Param.Value)
			}
			arithNames(n.Index, f)
		case *syntax.ArithmExp:
			arithNames(n.X, f)
		}
		return true
	})
}

// arithNames calls name for each bare name arithmetic x reads (${a[i]},
// $((n+1))): a variable's value there is read as arithmetic.
func arithNames(x syntax.ArithmExpr, name func(string)) {
	if x == nil {
		return
	}
	syntax.Walk(x, func(n syntax.Node) bool {
		if w, ok := n.(*syntax.Word); ok {
			if lit := w.Lit(); syntax.ValidName(lit) {
				name(lit)
			}
		}
		return true
	})
}

// readsAny: a word of args reads the variable name ($_, $IFS).
func readsAny(args []*syntax.Word, name string) bool {
	for _, w := range args {
		if reads(w, name) {
			return true
		}
	}
	return false
}

// givesOnlyIFS: the line gives no value but the shell's own IFS (and
// none it cannot tell).
func (v *lineValues) givesOnlyIFS() bool {
	return len(v.arrays) == 0 && len(v.over) == 0 && len(v.vals) == 1 && slices.Equal(v.vals["IFS"], []string{shellIFS})
}

// lastValues gives _ the commands' last arguments it lacks (lineShared:
// none it can tell past maxVarValues of them).
func (v *lineValues) lastValues() {
	if v.shared == nil {
		return
	}
	if v.shared.lastOver {
		v.over["_"] = true
		return
	}
	for _, a := range v.shared.last[v.lastGiven:] {
		v.add("_", a)
	}
	v.lastGiven = len(v.shared.last)
}

// hasDefault: a word of args expands ${NAME:-WORD} or one of its kin,
// which has a value without the line giving one.
func hasDefault(args []*syntax.Word) bool {
	found := false
	for _, w := range args {
		syntax.Walk(w, func(n syntax.Node) bool {
			if p, ok := n.(*syntax.ParamExp); ok && p.Exp != nil {
				found = true
			}
			return !found
		})
	}
	return found
}
