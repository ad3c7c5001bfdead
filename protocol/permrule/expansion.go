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
	if len(v.vals) == 0 && len(v.arrays) == 0 && !hasDefault(args) {
		return nil, nil
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
		var unset *expand.UnsetParameterError
		switch {
		case errors.As(err, &unset):
			continue // ${X:?…}: bash stops there
		case err != nil:
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
		if !slices.Contains(r.names, n) {
			r.names = append(r.names, n)
		}
		r.used = r.used || len(v.vals[n]) > 0 || len(v.arrays[n]) > 0 || v.over[n]
	}
	for _, w := range words {
		if split := *w; syntax.SplitBraces(&split) {
			for range expand.BracesSeq(nil, &split) {
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
			if syntax.ValidName(to) {
				name(to)
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
		if p.Repl.With != nil && strings.Contains(strings.ReplaceAll(source(p.Repl.With, src), `\&`, ""), "&") {
			r.odd = "replaces text with & in it, which bash 5.2 reads as the text matched (patsub_replacement) and this analysis does not"
		}
	}
	if v.patterns && (p.Repl != nil || p.Exp != nil && p.Exp.Op >= syntax.RemSmallSuffix && p.Exp.Op <= syntax.RemLargePrefix) {
		r.odd = "matches a pattern where the line sets shopt nocasematch or extglob, which this analysis does not follow"
	}
	r.est = min(r.est+one, maxExpandBytes+1)
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

// envs are every assignment of values to r's names: each value the line
// gives a name, or unset (before it gives one); a name it gives none that
// is read with an operator is unset in some and set in others (to a value
// that reads as written, $NAME), all at once, as what it holds is not
// known either way. Bounded before they are made: maxVariants of them,
// maxExpandBytes of text together.
func (v *lineValues) envs(r readSet, words []*syntax.Word, src string) ([]env, error) {
	type choice struct {
		name string
		opts []expand.Variable
	}
	var choices []choice
	count, unknown := 1, false
	for _, n := range r.names {
		if v.over[n] {
			return nil, fmt.Errorf("the variable %s takes more values on the line than this analysis follows (%d)", n, maxVarValues)
		}
		var opts []expand.Variable
		for _, s := range v.vals[n] {
			opts = append(opts, expand.Variable{Set: true, Kind: expand.String, Str: s})
		}
		opts = append(opts, v.arrays[n]...)
		if len(opts) == 0 {
			_, op := r.withOp[n]
			unknown = unknown || op
			continue
		}
		if v.unsetAt(n, words[0].Pos().Offset()) {
			opts = append(opts, expand.Variable{})
		}
		if count *= len(opts); count > maxVariants {
			return nil, fmt.Errorf("the variables of `%s` take more values together than this analysis follows (%d)", clip(source(words[0], src)), maxVariants)
		}
		choices = append(choices, choice{n, opts})
	}
	envs := []env{{}}
	if unknown {
		// Unset, set, and the one that gives most text: set where an
		// alternative (${X:+WORD}) is read, unset where a default is.
		set, most := env{}, env{}
		for n, op := range r.withOp {
			if len(v.vals[n]) > 0 || len(v.arrays[n]) > 0 {
				continue
			}
			vr := expand.Variable{Set: true, Kind: expand.String, Str: "$" + n}
			set[n] = vr
			if op == syntax.AlternateUnset || op == syntax.AlternateUnsetOrNull {
				most[n] = vr
			}
		}
		envs = append(envs, set, most)
	}
	if v.bytes -= r.est * count * len(envs); v.bytes < 0 {
		return nil, fmt.Errorf("its variables expand to more text than this analysis makes (%d bytes)", maxExpandBytes)
	}
	if v.evals -= count * len(envs); v.evals < 0 {
		return nil, fmt.Errorf("its variables take more values together than this analysis expands (%d)", maxEvals)
	}
	for _, c := range choices {
		next := make([]env, 0, len(envs)*len(c.opts))
		for _, e := range envs {
			for _, o := range c.opts {
				n := maps.Clone(e)
				n[c.name] = o
				next = append(next, n)
			}
		}
		envs = next
	}
	return envs, nil
}

// unsetAt: a word at offset at may read name unset: it comes before the
// line first gives name a value (else a loop around both is taken to
// give it first: for h in …; do ssh $h …).
func (v *lineValues) unsetAt(name string, at uint) bool {
	if positionalName(name) {
		name = "@"
	}
	first, ok := v.first[name]
	return !ok || at < first
}

// positionalName: $1 …, $@, $*, $#.
func positionalName(name string) bool {
	if name == "@" || name == "*" || name == "#" {
		return true
	}
	for _, c := range name {
		if c < '0' || c > '9' {
			return false
		}
	}
	return name != ""
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
