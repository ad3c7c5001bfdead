package permrule

import (
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// The values a line gives its variables. `X=-rf; rm $X /` runs rm -rf /,
// and so does `rm ${X:--rf} /`: a word that expands a variable is only
// known when the line runs, but where the line itself gives the variable
// its values, each command is also listed with each value it may take
// there (parseShell adds them beside the command as written). The values
// are every one the line gives, wherever it gives them — an assignment
// after the command counts, as a loop can run it later — so a listing may
// hold a value the command never gets, and never lacks one the text
// shows. What a value only has at run time ($(…), read, another variable)
// is not guessed: the command as written stays the only listing for it.

// maxVarValues bounds the values one variable takes on a line,
// maxVariants the listings one command gets from them, and
// maxLineVariants those of the whole line (64 KiB of `rm $X;` with 64
// values would list 700,000 commands): past any, the line cannot be read
// (an error), or a hundred assignments would hide the one that matters.
const (
	maxVarValues    = 64
	maxVariants     = 256
	maxLineVariants = 4096
)

// lineValues are the values a line gives each variable, the variables
// given more than maxVarValues, and the listings the line may still add.
type lineValues struct {
	vals   map[string][]string
	over   map[string]bool
	budget int
}

// valuesOf collects the values file gives its variables: NAME=VALUE
// (alone, before a command, or after declare, local, export, readonly),
// NAME+=VALUE on each value before it, for NAME in WORDS, and ${NAME:=WORD}.
// A value that is not static text is not a value here.
func valuesOf(file *syntax.File, src string) *lineValues {
	v := &lineValues{budget: maxLineVariants} // maps made by add, if ever
	var appends [][2]string
	static := func(w *syntax.Word) (string, bool) {
		if w == nil {
			return "", true
		}
		sw := shellWordOf(w, src)
		return sw.text, sw.static
	}
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name == nil || n.Naked || n.Index != nil || n.Array != nil {
				return true
			}
			if val, ok := static(n.Value); ok && n.Append {
				appends = append(appends, [2]string{n.Name.Value, val})
			} else if ok {
				v.add(n.Name.Value, val)
			}
		case *syntax.ForClause:
			if it, ok := n.Loop.(*syntax.WordIter); ok && it.InPos.IsValid() {
				for _, w := range it.Items {
					if val, ok := static(w); ok {
						v.add(it.Name.Value, val)
					}
				}
			}
		case *syntax.ParamExp:
			if n.Param != nil && n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
				if val, ok := static(n.Exp.Word); ok {
					v.add(n.Param.Value, val)
				}
			}
		}
		return true
	})
	// Each append may follow any value (and an unset variable), and the
	// appends of a line follow each other: as many rounds as there are.
	for range appends {
		for _, a := range appends {
			v.add(a[0], a[1])
			for _, u := range slices.Clone(v.vals[a[0]]) {
				v.add(a[0], u+a[1])
			}
		}
	}
	return v
}

func (v *lineValues) add(name, val string) {
	if v.vals == nil {
		v.vals, v.over = map[string][]string{}, map[string]bool{}
	}
	switch {
	case slices.Contains(v.vals[name], val):
	case len(v.vals[name]) == maxVarValues:
		v.over[name] = true
	default:
		v.vals[name] = append(v.vals[name], val)
	}
}

// piece is a word in the making: the fields it has split off, the one
// in progress, and whether that one holds an unquoted glob character.
type piece struct {
	fields []string
	globs  []bool
	cur    string
	open   bool // cur is a field, even if empty (a quoted "")
	glob   bool
}

func (p piece) lit(s string, glob bool) piece {
	p.cur += s
	p.open, p.glob = true, p.glob || glob
	return p
}

func (p piece) end() piece {
	if p.open {
		p.fields = append(slices.Clone(p.fields), p.cur)
		p.globs = append(slices.Clone(p.globs), p.glob)
	}
	p.cur, p.open, p.glob = "", false, false
	return p
}

// split is the piece with an unquoted expansion's value: split into
// fields at blanks (bash's default IFS), an empty one adding nothing.
func (p piece) split(val string) piece {
	if strings.TrimLeft(val, " \t\n") != val {
		p = p.end()
	}
	for i, f := range strings.Fields(val) {
		if i > 0 {
			p = p.end()
		}
		p = p.lit(f, expands(f))
	}
	if strings.TrimRight(val, " \t\n") != val {
		p = p.end()
	}
	return p
}

// paramValues are the values p may expand to (used: the line gives it
// one), or ok false for an expansion other than $NAME, ${NAME} and
// ${NAME:-WORD} and its kin. A variable the line gives no value reads as
// empty, only in a word with another that it does.
func (v *lineValues) paramValues(p *syntax.ParamExp, src string) (vals []string, used, ok bool, err error) {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 {
		return nil, false, false, nil
	}
	name := p.Param.Value
	if v.over[name] {
		return nil, false, false, fmt.Errorf("the variable %s takes more values on the line than this analysis follows (%d)", name, maxVarValues)
	}
	known := v.vals[name]
	vals, used = known, len(known) > 0
	if !used {
		vals = []string{""}
	}
	if p.Exp == nil {
		return vals, used, true, nil
	}
	w := shellWord{static: true}
	if p.Exp.Word != nil {
		w = shellWordOf(p.Exp.Word, src)
	}
	if !w.static {
		return nil, false, false, nil
	}
	switch p.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
		return append(slices.Clone(known), w.text), true, true, nil
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		return []string{w.text, ""}, true, true, nil
	}
	return nil, false, false, nil
}

// wordVariants are the words w may become with the line's values (each a
// list of fields), or nil when it expands none of them, or expands
// anything else (then it is read only as written).
func (v *lineValues) wordVariants(w *syntax.Word, src string) ([][]shellWord, error) {
	ps := []piece{{}}
	used := false
	grow := func(vals []string, step func(piece, string) piece) error {
		next := make([]piece, 0, len(ps)*len(vals))
		for _, p := range ps {
			for _, val := range vals {
				next = append(next, step(p, val))
			}
		}
		if len(next) > maxVariants {
			return fmt.Errorf("the variables of `%s` take more values together than this analysis follows (%d)", clip(source(w, src)), maxVariants)
		}
		ps = next
		return nil
	}
	quoted := func(p piece, s string) piece { return p.lit(s, false) }
	for _, part := range w.Parts {
		var vals []string
		step := quoted
		switch part := part.(type) {
		case *syntax.Lit:
			vals, step = []string{unescapeUnquoted(part.Value)}, func(p piece, s string) piece { return p.lit(s, expands(s)) }
		case *syntax.SglQuoted:
			sw := shellWordOf(&syntax.Word{Parts: []syntax.WordPart{part}}, src)
			if !sw.static {
				return nil, nil
			}
			vals = []string{sw.text}
		case *syntax.ParamExp:
			pv, u, ok, err := v.paramValues(part, src)
			if err != nil || !ok {
				return nil, err
			}
			vals, used, step = pv, used || u, piece.split
		case *syntax.DblQuoted:
			if err := grow([]string{""}, quoted); err != nil { // "" is a field
				return nil, err
			}
			for _, q := range part.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					vals = []string{unescapeDoubleQuoted(q.Value)}
				case *syntax.ParamExp:
					pv, u, ok, err := v.paramValues(q, src)
					if err != nil || !ok {
						return nil, err
					}
					vals, used = pv, used || u
				default:
					return nil, nil
				}
				if err := grow(vals, quoted); err != nil {
					return nil, err
				}
			}
			continue
		default:
			return nil, nil
		}
		if err := grow(vals, step); err != nil {
			return nil, err
		}
	}
	if !used {
		return nil, nil
	}
	out := make([][]shellWord, 0, len(ps))
	for _, p := range ps {
		p = p.end()
		words := make([]shellWord, len(p.fields))
		for i, f := range p.fields {
			words[i] = shellWord{text: f, static: true, glob: p.globs[i]}
		}
		out = append(out, words)
	}
	return out, nil
}

// variants are the commands args may become with the line's values,
// besides the one as written: none when no word expands a value the
// line gives. Braces are expanded first, as bash does.
func (v *lineValues) variants(args []*syntax.Word, src string) ([][]shellWord, error) {
	if len(v.vals) == 0 && !hasDefault(args) {
		return nil, nil
	}
	alts := [][]shellWord{nil}
	used := false
	for _, w := range args {
		words := []*syntax.Word{w}
		if split := *w; syntax.SplitBraces(&split) {
			words = words[:0]
			for x, err := range expand.BracesSeq(nil, &split) {
				if err != nil || len(words) == maxBraceWords {
					return nil, fmt.Errorf("its brace expansions make more than %d words", maxBraceWords)
				}
				words = append(words, x)
			}
		}
		// Each brace word's variants, one after another: a word's
		// listings are the product of its brace words'.
		wordAlts := [][]shellWord{nil}
		for _, x := range words {
			vs, err := v.wordVariants(x, src)
			if err != nil {
				return nil, err
			}
			if vs == nil {
				vs = [][]shellWord{{shellWordOf(x, src)}}
			} else {
				used = true
			}
			if wordAlts, err = product(wordAlts, vs, w, src); err != nil {
				return nil, err
			}
		}
		var err error
		if alts, err = product(alts, wordAlts, w, src); err != nil {
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
