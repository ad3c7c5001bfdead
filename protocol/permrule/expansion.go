package permrule

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// A command's words expanded with the values the line gives its
// variables (values.go), by mvdan.cc/sh's expand: one listing of the
// command per assignment of the values, within the bounds of values.go.

// env is one assignment of values to the variables a word expands, for
// expand: a name it does not hold is unset. "HOME name" (~name) reads as
// set to ~name, so expand never looks a user up: the analysis does no
// I/O, and a home folder is not a value the line gives.
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

// wordVariants are the words w may become with the line's values
// (expansions), each a command's words.
func (v *lineValues) wordVariants(w *syntax.Word, src string) ([][]shellWord, error) {
	lists, err := v.expansions(w, src, false)
	if lists == nil {
		return nil, err
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

// expansions are the fields w may expand to with the line's values, one
// list per assignment of them, by mvdan.cc/sh's expand as bash expands a
// word (every parameter expansion, arithmetic, word splitting at IFS,
// quote removal; a command's output read as empty, no globbing) — or,
// literal, as the one string an assignment's value expands to; nil when w
// expands no value the line gives (then it is read only as written).
func (v *lineValues) expansions(w *syntax.Word, src string, literal bool) ([][]string, error) {
	names, withOp, est, used, err := v.expanded(w, src)
	if err != nil || !used {
		return nil, err
	}
	// Every assignment of the values: each name in turn, each option.
	envs := []env{{}}
	for _, name := range names {
		opts := v.options(name, withOp[name] || name == v.reading)
		if len(opts) == 0 {
			continue // unset in every one
		}
		if len(envs)*len(opts) > maxVariants {
			return nil, fmt.Errorf("the variables of `%s` take more values together than this analysis follows (%d)", clip(source(w, src)), maxVariants)
		}
		next := make([]env, 0, len(envs)*len(opts))
		for _, e := range envs {
			for _, o := range opts {
				n := maps.Clone(e)
				n[name] = o
				next = append(next, n)
			}
		}
		envs = next
	}
	if v.bytes -= est * len(envs); v.bytes < 0 {
		return nil, fmt.Errorf("its variables expand to more text than this analysis makes (%d bytes)", maxExpandBytes)
	}
	var out [][]string
	seen := map[string]bool{}
	for _, e := range envs {
		cfg := &expand.Config{Env: e,
			CmdSubst:  func(io.Writer, *syntax.CmdSubst) error { return nil },
			ProcSubst: func(*syntax.ProcSubst) (string, error) { return "/dev/fd/63", nil }}
		var fields []string
		if literal {
			s, err := expand.Literal(cfg, w)
			fields = []string{s}
			if err != nil {
				continue
			}
		} else if fields, err = expand.Fields(cfg, w); err != nil {
			continue // ${X:?…} unset: bash stops there
		}
		key := strings.Join(fields, "\x00")
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, fields)
	}
	if out == nil {
		out = [][]string{} // used, but no expansion succeeds: no value
	}
	return out, nil
}

// expanded lists the variables w expands, those it expands with an
// operator that tells set from unset (${X:-WORD} and its kin), at most
// how long one expansion of it is (est: its text, and each expansion as
// long as the longest value, a replacement's as that times its own), and
// whether it expands a value the line gives (a variable's, or such a
// WORD); an error for braces past maxBraceWords.
func (v *lineValues) expanded(w *syntax.Word, src string) (names []string, withOp map[string]bool, est int, used bool, err error) {
	if split := *w; syntax.SplitBraces(&split) {
		n := 0
		for range expand.BracesSeq(nil, &split) {
			if n++; n > maxBraceWords {
				return nil, nil, 0, false, fmt.Errorf("its brace expansions make more than %d words", maxBraceWords)
			}
		}
	}
	syntax.Walk(w, func(n syntax.Node) bool {
		p, ok := n.(*syntax.ParamExp)
		if !ok || p.Param == nil || err != nil {
			return err == nil
		}
		name := p.Param.Value
		if v.over[name] {
			err = fmt.Errorf("the variable %s takes more values on the line than this analysis follows (%d)", name, maxVarValues)
			return false
		}
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
		used = used || len(v.vals[name]) > 0 || len(v.arrays[name]) > 0 || name == v.reading
		if p.Exp != nil {
			switch p.Exp.Op {
			case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull,
				syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
				used = true
				if withOp == nil {
					withOp = map[string]bool{}
				}
				withOp[name] = true
			}
		}
		one := v.longest + len(source(p, src))
		if p.Repl != nil {
			one *= len(source(p, src)) * max(v.longest, 1) // each character, replaced by a With of values
		}
		est = min(est+one, maxExpandBytes+1)
		return err == nil
	})
	if used && len(v.vals["IFS"]) > 0 && !slices.Contains(names, "IFS") {
		names = append(names, "IFS") // each splitting the line may set
	}
	return names, withOp, est + len(source(w, src)), used, err
}

// options are the values name may hold: each the line gives it (none when
// it gives none), and when the word's operator tells set from unset, both:
// unset (${X:--rf} before X=-v), and, for a variable the line gives no
// value, set to one it does not show (${X:+-rf}, X from the environment),
// which reads as written.
func (v *lineValues) options(name string, setOrNot bool) []expand.Variable {
	var out []expand.Variable
	for _, s := range v.vals[name] {
		out = append(out, expand.Variable{Set: true, Kind: expand.String, Str: s})
	}
	out = append(out, v.arrays[name]...)
	switch {
	case setOrNot && len(out) == 0:
		out = append(out, expand.Variable{}, expand.Variable{Set: true, Kind: expand.String, Str: "$" + name})
	case setOrNot:
		out = append(out, expand.Variable{})
	}
	return out
}

// variants are the commands args may become with the line's values,
// besides the one as written: none when no word expands a value the
// line gives.
func (v *lineValues) variants(args []*syntax.Word, src string) ([][]shellWord, error) {
	if len(v.vals) == 0 && len(v.arrays) == 0 && !hasDefault(args) {
		return nil, nil
	}
	alts := [][]shellWord{nil}
	used := false
	for _, w := range args {
		vs, err := v.wordVariants(w, src)
		if err != nil {
			return nil, err
		}
		if vs == nil {
			// As written, braces expanded (within the bound: parseShell
			// read the word so first).
			budget := maxBraceWords
			ws, _ := braceWords(w, src, &budget)
			vs = [][]shellWord{ws}
		} else {
			used = true
		}
		if alts, err = product(alts, vs, w, src); err != nil {
			return nil, err
		}
	}
	if !used {
		return nil, nil
	}
	if v.budget -= len(alts); v.budget < 0 {
		return nil, fmt.Errorf("its variables take more values together than this analysis follows (%d listings)", maxLineVariants)
	}
	return alts, nil
}

// product is every a followed by every b, at most maxVariants of them.
func product(a, b [][]shellWord, at *syntax.Word, src string) ([][]shellWord, error) {
	if len(a)*len(b) > maxVariants {
		return nil, fmt.Errorf("the variables of `%s` take more values together than this analysis follows (%d)", clip(source(at, src)), maxVariants)
	}
	out := make([][]shellWord, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, append(slices.Clone(x), y...))
		}
	}
	return out, nil
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
