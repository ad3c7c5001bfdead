package permrule

import (
	"maps"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// The values a line gives its variables. `X=-rf; rm $X /` runs rm -rf /,
// and so does `rm ${X:--rf} /`: a word that expands a variable is only
// known when the line runs, but where the line itself gives the variable
// its values, each command is also listed with each value it may take
// there (parseShell adds them beside the command as written), expanded
// by mvdan.cc/sh's expand as bash expands it (expansion.go). The values
// are every one the line gives, wherever it gives them — an assignment
// after the command counts, as a loop can run it later — and unset, as
// before the first: a listing may hold a value the command never gets.
// Not followed: what a value only has at run time ($(…), read from a
// file or a pipe, the environment), a value a loop builds over its
// iterations (F=$F$c), element assignments (a[1]=x), arithmetic
// assignments (((i=1)), let).

// maxVarValues bounds the values one variable takes on a line,
// maxVariants the listings one command gets from them, and
// maxLineVariants those of the whole line (64 KiB of `rm $X;` with many
// values would list millions of commands): past any, the line cannot be
// read (an error), or a thousand assignments would hide the one that
// matters. maxExpandBytes bounds the text the expansions may make,
// counted before they are made (64 KiB of ${X//a/$X} would make
// gigabytes), and maxValueRounds how often the line's values are read
// again, each time with what the last reading found (Y=$X, set -- $X).
const (
	maxVarValues    = 1024
	maxVariants     = 1024
	maxLineVariants = 8192
	maxExpandBytes  = 4 << 20
	maxValueRounds  = 8
	// maxEvals bounds the expansions of a line (each word under each
	// assignment of values): 64 KiB of C=$A$B, A and B given 16 values,
	// would make millions.
	maxEvals = 1 << 14
)

// lineValues are the values a line gives its variables.
type lineValues struct {
	vals   map[string][]string
	arrays map[string][]expand.Variable // a=(x y), m=([k]=v), set -- x y
	// over are the variables whose values cannot all be told (past a
	// bound): a command that expands one is an error.
	over map[string]bool
	// derived are the values (NAME\x00VALUE) a chained source made.
	derived map[string]bool
	// first is where the line first gives each variable a value (an
	// offset): a word before it may read the variable unset.
	first map[string]uint
	// evals is how many more assignments of values the line's
	// expansions may be made under (maxEvals).
	evals int
	// budget is the listings the line may still add, bytes the text its
	// expansions may still make, braces the brace words its value
	// sources may still make; longest is the longest value so far (an
	// array's, joined).
	budget, bytes, braces, longest int
}

// valueSource is one place the line gives a variable values: name=word
// (append: name+=word), a for loop's word (fields: each field is a
// value), ${name:=word}. chained: an append, or a value that reads the
// variable itself (X=$X-r): read in line order from the values before it
// (chains), not again from what it made.
type valueSource struct {
	name                    string
	w                       *syntax.Word
	append, fields, chained bool
	// lower, upper: declare -l, -u: the value is stored so.
	lower, upper bool
}

// valuesOf collects the values file gives its variables: NAME=VALUE
// (alone, before a command, or after declare, local, export, readonly,
// typeset, with -l and -u), NAME+=VALUE, NAME=(WORDS), for NAME in WORDS,
// for NAME (the positional parameters), ${NAME:=WORD}, declare -n NAME=OTHER,
// and set [options] [--] WORDS and shift. A value that expands others is
// read with theirs (Y=$X).
func valuesOf(file *syntax.File, src string, outer *lineValues) *lineValues {
	v := &lineValues{budget: maxLineVariants, bytes: maxExpandBytes, braces: 4 * maxBraceWords, evals: maxEvals, first: map[string]uint{}}
	v.inherit(outer)
	var sources []valueSource
	var sets []positional
	refs := map[string][]string{} // declare -n NAME=OTHER; for NAME (no in): "@"
	transient := transients(file)
	syntax.Walk(file, func(n syntax.Node) bool {
		given := func(name string) {
			if at, ok := v.first[name]; !transient(n) && (!ok || n.Pos().Offset() < at) {
				v.first[name] = n.Pos().Offset()
			}
		}
		switch n := n.(type) {
		case *syntax.DeclClause:
			for _, a := range n.Args {
				if a.Name != nil {
					given(a.Name.Value)
				}
			}
			var flags string
			for _, a := range n.Args {
				if a.Naked && a.Name == nil && a.Value != nil {
					if f := shellWordOf(a.Value, src).text; strings.HasPrefix(f, "-") {
						flags += f
					}
				}
			}
			if strings.Contains(flags, "n") {
				refs = namerefs(refs, n.Args, src)
				return false
			}
			for _, a := range n.Args {
				switch {
				case a.Name == nil || a.Naked || a.Index != nil:
				case a.Array != nil:
					v.addArrayAssign(a, src)
				default:
					sources = append(sources, valueSource{name: a.Name.Value, w: a.Value, append: a.Append,
						chained: a.Append || reads(a.Value, a.Name.Value),
						lower:   strings.Contains(flags, "l"), upper: strings.Contains(flags, "u")})
				}
			}
			return false // its words hold no other assignment
		case *syntax.Assign:
			if n.Name != nil {
				given(n.Name.Value)
			}
			switch {
			case n.Name == nil || n.Naked || n.Index != nil:
			case n.Array != nil:
				v.addArrayAssign(n, src)
			default:
				sources = append(sources, valueSource{name: n.Name.Value, w: n.Value, append: n.Append, chained: n.Append || reads(n.Value, n.Name.Value)})
			}
		case *syntax.CallExpr:
			if p, ok := positionalOf(n.Args, src); ok {
				sets = append(sets, p)
				given("@")
			}
		case *syntax.ForClause:
			if it, ok := n.Loop.(*syntax.WordIter); ok {
				given(it.Name.Value)
			}
			if it, ok := n.Loop.(*syntax.WordIter); ok && !it.InPos.IsValid() {
				refs[it.Name.Value] = append(refs[it.Name.Value], "@")
			} else if ok {
				for _, w := range it.Items {
					sources = append(sources, valueSource{name: it.Name.Value, w: w, fields: true})
				}
			}
		case *syntax.ParamExp:
			if n.Param != nil && n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
				sources = append(sources, valueSource{name: n.Param.Value, w: n.Exp.Word})
				given(n.Param.Value)
			}
		}
		return true
	})
	for range maxValueRounds {
		before := v.count()
		for _, s := range sources {
			if !s.chained && !v.over[s.name] { // an over one is an error where used
				v.read(s, src)
			}
		}
		v.chains(sources, src)
		v.positionals(sets, src)
		for name, others := range refs {
			for _, o := range others {
				v.copyValues(name, o)
			}
		}
		if v.count() == before {
			break
		}
	}
	return v
}

// transients reports, of a node of file, whether what it gives a variable
// may not last to what follows it: an assignment before a command's name
// (X=1 cmd), or anything in a function's body (the function may never
// be called). Such a value is still a value; only where it is given does
// not count (lineValues.first).
func transients(file *syntax.File) func(syntax.Node) bool {
	prefix := map[syntax.Node]bool{}
	var bodies [][2]uint
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				for _, a := range n.Assigns {
					prefix[a] = true
				}
			}
		case *syntax.FuncDecl:
			bodies = append(bodies, [2]uint{n.Body.Pos().Offset(), n.Body.End().Offset()})
		}
		return true
	})
	return func(n syntax.Node) bool {
		at := n.Pos().Offset()
		for _, b := range bodies {
			if at >= b[0] && at < b[1] {
				return true
			}
		}
		return prefix[n]
	}
}

// inherit gives v the values of outer, the line that runs v's as a
// command string: unset too (they may be given after it runs).
func (v *lineValues) inherit(outer *lineValues) {
	if outer == nil {
		return
	}
	for name, vals := range outer.vals {
		for _, s := range vals {
			v.add(name, s)
		}
	}
	for name, arrs := range outer.arrays {
		for _, a := range arrs {
			v.addArray(name, a)
		}
	}
	for name := range outer.over {
		v.made()
		v.over[name] = true
	}
}

// namerefs adds declare -n NAME=OTHER to refs: NAME reads OTHER's values.
func namerefs(refs map[string][]string, args []*syntax.Assign, src string) map[string][]string {
	for _, a := range args {
		if a.Name != nil && a.Value != nil {
			if w := shellWordOf(a.Value, src); w.static && w.text != "" {
				refs[a.Name.Value] = append(refs[a.Name.Value], w.text)
			}
		}
	}
	return refs
}

// reads: w expands the variable name.
func reads(w *syntax.Word, name string) bool {
	found := false
	if w != nil {
		syntax.Walk(w, func(n syntax.Node) bool {
			if p, ok := n.(*syntax.ParamExp); ok && p.Param != nil && p.Param.Value == name {
				found = true
			}
			return !found
		})
	}
	return found
}

// read adds the values s gives, with the values known so far.
func (v *lineValues) read(s valueSource, src string) {
	for _, val := range v.valuesIn(s, src) {
		v.add(s.name, val)
	}
}

// valuesIn are the values s gives, with the values known so far (none
// when it cannot be told: then s's variable is over).
func (v *lineValues) valuesIn(s valueSource, src string) []string {
	var vals []string
	if s.w == nil {
		vals = []string{""}
	} else if w := shellWordOf(s.w, src); w.static && !s.fields {
		vals = []string{w.text}
	} else {
		lists, err := v.expand([]*syntax.Word{s.w}, src, !s.fields, true)
		if err != nil {
			v.made()
			v.over[s.name] = true // what it may hold cannot be told
			return nil
		}
		for _, l := range lists {
			vals = append(vals, l...)
		}
	}
	for i := range vals {
		if s.lower {
			vals = append(vals, strings.ToLower(vals[i]))
		}
		if s.upper {
			vals = append(vals, strings.ToUpper(vals[i]))
		}
	}
	return vals
}

// chains adds what each chained source of the line makes, in line order,
// each once: from the values the other sources give (and unset), then
// from what the chained ones before it made — each append taken to run,
// once, in order. Read again each round from those, they give the same
// values, so the rounds end.
func (v *lineValues) chains(sources []valueSource, src string) {
	work := map[string][]string{} // the values so far, by name
	for _, s := range sources {
		if !s.chained || v.over[s.name] {
			continue
		}
		cur, ok := work[s.name]
		if !ok {
			cur = []string{""}
			for _, u := range v.vals[s.name] {
				if !v.derived[s.name+"\x00"+u] {
					cur = append(cur, u)
				}
			}
		}
		// The source reads its variable as it is so far: cur.
		v.made()
		saved := v.vals[s.name]
		v.vals[s.name] = cur
		vals := v.valuesIn(s, src)
		v.vals[s.name] = saved
		var next []string
		for _, a := range vals {
			for _, u := range cur {
				if !s.append {
					u = ""
				}
				if !slices.Contains(next, u+a) {
					next = append(next, u+a)
					v.longest = max(v.longest, len(u+a)) // what expanding it next may cost
				}
			}
		}
		if len(next) > maxVarValues {
			v.over[s.name] = true
			continue
		}
		work[s.name] = next
		for _, val := range next {
			if !slices.Contains(v.vals[s.name], val) {
				v.add(s.name, val)
				v.derived[s.name+"\x00"+val] = true
			}
		}
	}
}

// copyValues gives name every value of other too (declare -n, for name).
func (v *lineValues) copyValues(name, other string) {
	for _, s := range slices.Clone(v.vals[other]) {
		v.add(name, s)
	}
	for _, a := range slices.Clone(v.arrays[other]) {
		if other == "@" {
			for _, s := range a.List {
				v.add(name, s)
			}
			continue
		}
		v.addArray(name, a)
	}
}

// count is how many values v holds.
func (v *lineValues) count() int {
	n := 0
	for _, vals := range v.vals {
		n += len(vals)
	}
	for _, a := range v.arrays {
		n += len(a)
	}
	return n
}

func (v *lineValues) add(name, val string) {
	v.made()
	switch {
	case slices.Contains(v.vals[name], val):
	case len(v.vals[name])+len(v.arrays[name]) >= maxVarValues:
		v.over[name] = true
	default:
		v.vals[name] = append(v.vals[name], val)
		v.longest = max(v.longest, len(val))
	}
}

func (v *lineValues) addArray(name string, a expand.Variable) {
	v.made()
	for _, b := range v.arrays[name] {
		if slices.Equal(a.List, b.List) && maps.Equal(a.Map, b.Map) && slices.Equal(a.Indexes, b.Indexes) {
			return
		}
	}
	if len(v.vals[name])+len(v.arrays[name]) >= maxVarValues {
		v.over[name] = true
		return
	}
	v.arrays[name] = append(v.arrays[name], a)
	n := len(a.List) + len(a.Map)
	for _, s := range a.List {
		n += len(s)
	}
	for k, s := range a.Map {
		n += len(k) + len(s)
	}
	v.longest = max(v.longest, n)
}

// made makes v's maps: most lines give no value, and pay for none.
func (v *lineValues) made() {
	if v.vals == nil {
		v.vals, v.arrays = map[string][]string{}, map[string][]expand.Variable{}
		v.over, v.derived = map[string]bool{}, map[string]bool{}
		if v.first == nil {
			v.first = map[string]uint{}
		}
	}
}
