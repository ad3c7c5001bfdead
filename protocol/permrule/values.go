package permrule

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// The values a line gives its variables. `X=-rf; rm $X /` runs rm -rf /,
// and so does `rm ${X:--rf} /`: a word that expands a variable is only
// known when the line runs, but where the line itself gives the variable
// its values, each command is also listed with each value it may take
// there (parseShell adds them beside the command as written), expanded
// by mvdan.cc/sh's expand as bash expands it. The values are every one
// the line gives, wherever it gives them — an assignment after the command
// counts, as a loop can run it later — so a listing may hold a value the
// command never gets, and never lacks one the text shows. What a value
// only has at run time ($(…), read, the environment) is not guessed: the
// command as written stays the only listing for it.

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

// maxExpandBytes bounds the text the line's expansions may make, counted
// before they are made (expandEstimate): 64 KiB of ${X//a/$X}, or of
// ${X^^} with X 30 KB long, would make gigabytes.
const maxExpandBytes = 4 << 20

// lineValues are the values a line gives each variable, the variables
// given more than maxVarValues, and the listings the line may still add.
type lineValues struct {
	vals   map[string][]string
	arrays map[string][]expand.Variable // a=(x y), m=([k]=v), set -- x y: each the line gives
	over   map[string]bool
	// derived are the values (NAME\x00VALUE) a chained source made.
	derived map[string]bool
	// reading is the variable whose value is being read (valuesIn).
	reading string
	budget  int
	// longest is the length of the longest value (an array's, joined),
	// bytes what expansions may still make (maxExpandBytes).
	longest, bytes int
}

// valueSource is one place the line gives a variable values: name=word
// (or name+=word: appended to each value before), a for loop's word
// (split into fields: each is a value), ${name:=word}.
type valueSource struct {
	name   string
	w      *syntax.Word
	append bool
	fields bool
	// chained: an append, or a value that reads the variable itself
	// (X=$X-r): read in line order from the values before it (chains).
	chained bool
}

// maxValueRounds bounds how often the line's values are read again, each
// time with what the last reading found: Y=$X, X+=f after X=-r, set -- $X.
const maxValueRounds = 8

// valuesOf collects the values file gives its variables: NAME=VALUE
// (alone, before a command, or after declare, local, export, readonly),
// NAME+=VALUE on each value before it, for NAME in WORDS, ${NAME:=WORD},
// NAME=(WORDS) (of which the static ones), and set -- WORDS (the
// positional parameters). A value that expands others is read with
// theirs (Y=$X); one only known at run time ($(…), read) is none here.
func valuesOf(file *syntax.File, src string) *lineValues {
	v := &lineValues{budget: maxLineVariants, bytes: maxExpandBytes} // maps made by add, if ever
	var sources []valueSource
	var sets [][]*syntax.Word
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			switch {
			case n.Name == nil || n.Naked || n.Index != nil:
			case n.Array != nil && !n.Append:
				v.addArray(n.Name.Value, arrayOf(n.Array, src))
			case n.Array == nil:
				name := n.Name.Value
				sources = append(sources, valueSource{name: name, w: n.Value, append: n.Append, chained: n.Append || reads(n.Value, name)})
			}
		case *syntax.CallExpr:
			// set -- WORDS (or set WORDS): the positional parameters.
			if args := n.Args; len(args) > 1 && args[0].Lit() == "set" {
				if args[1].Lit() == "--" {
					args = args[1:]
				} else if l := args[1].Lit(); strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+") {
					return true
				}
				sets = append(sets, args[1:])
			}
		case *syntax.ForClause:
			if it, ok := n.Loop.(*syntax.WordIter); ok && it.InPos.IsValid() {
				for _, w := range it.Items {
					sources = append(sources, valueSource{name: it.Name.Value, w: w, fields: true})
				}
			}
		case *syntax.ParamExp:
			if n.Param != nil && n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
				sources = append(sources, valueSource{name: n.Param.Value, w: n.Exp.Word})
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
		for _, args := range sets {
			v.positional(args, src)
		}
		if v.count() == before {
			break
		}
	}
	return v
}

// read adds the values s gives, with the values known so far.
func (v *lineValues) read(s valueSource, src string) {
	for _, val := range v.valuesIn(s, src) {
		v.add(s.name, val)
	}
}

// valuesIn are the values s gives, with the values known so far (nil
// when it cannot be told: then s's variable is over).
func (v *lineValues) valuesIn(s valueSource, src string) []string {
	if s.w == nil {
		return []string{""}
	}
	if w := shellWordOf(s.w, src); w.static && !s.fields {
		return []string{w.text}
	}
	// X=$X-r: unset before the line gives it a value, X is empty there.
	v.reading = s.name
	lists, err := v.expansions(s.w, src, !s.fields)
	v.reading = ""
	if err != nil {
		v.made()
		v.over[s.name] = true // what it may hold cannot be told
		return nil
	}
	if lists == nil && s.fields {
		lists = [][]string{{shellWordOf(s.w, src).text}} // a glob, braces: as written
	}
	var vals []string
	for _, l := range lists {
		vals = append(vals, l...)
	}
	return vals
}

// chains adds what each chained source of the line (NAME+=VALUE, or a
// value that reads NAME itself: X=$X-r) makes, in line order, each once:
// from the values the other sources give (and unset), then from what the
// chained ones before it made. Read again each round from those, they
// give the same values, so the rounds end (a loop that runs X+=r again
// and again is not followed).
func (v *lineValues) chains(sources []valueSource, src string) {
	work := map[string][]string{}
	for _, s := range sources {
		if !s.chained || v.over[s.name] {
			continue
		}
		base, ok := work[s.name]
		if !ok {
			for _, u := range v.vals[s.name] {
				if !v.derived[s.name+"\x00"+u] {
					base = append(base, u)
				}
			}
		}
		// The source reads its variable as it is so far: base, or unset.
		v.made()
		saved := v.vals[s.name]
		v.vals[s.name] = base
		vals := v.valuesIn(s, src)
		v.vals[s.name] = saved
		next := slices.Clone(base)
		for _, a := range vals {
			if len(next) > maxVarValues {
				break
			}
			for _, u := range append([]string{""}, base...) {
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
			next = next[:maxVarValues]
		}
		work[s.name] = next
	}
	for name, vals := range work {
		for _, val := range vals {
			if !slices.Contains(v.vals[name], val) {
				v.add(name, val)
				v.derived[name+"\x00"+val] = true
			}
		}
	}
}

// positional adds the positional parameters set -- args gives: $1 …, $@,
// $*, $#, for each list of fields args may expand to.
func (v *lineValues) positional(args []*syntax.Word, src string) {
	lists, err := v.variants(args, src)
	if err != nil {
		v.made()
		for _, name := range []string{"@", "*", "#", "1", "2", "3", "4", "5", "6", "7", "8", "9"} {
			v.over[name] = true
		}
		return
	}
	if lists == nil {
		budget := maxBraceWords
		var words []shellWord
		for _, w := range args {
			ws, _ := braceWords(w, src, &budget)
			words = append(words, ws...)
		}
		lists = [][]shellWord{words}
	}
	for _, words := range lists {
		var list []string
		for i, w := range words {
			if w.static {
				v.add(strconv.Itoa(i+1), w.text)
			}
			list = append(list, w.text)
		}
		all := expand.Variable{Set: true, Kind: expand.Indexed, List: list}
		v.addArray("@", all)
		v.addArray("*", all)
		v.add("#", strconv.Itoa(len(list)))
	}
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
	case len(v.vals[name])+len(v.arrays[name]) == maxVarValues:
		v.over[name] = true
	default:
		v.vals[name] = append(v.vals[name], val)
		v.longest = max(v.longest, len(val))
	}
}

func (v *lineValues) addArray(name string, a expand.Variable) {
	v.made()
	if len(v.vals[name])+len(v.arrays[name]) >= maxVarValues {
		v.over[name] = true
		return
	}
	for _, b := range v.arrays[name] {
		if slices.Equal(a.List, b.List) && maps.Equal(a.Map, b.Map) && slices.Equal(a.Indexes, b.Indexes) {
			return
		}
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

// arrayOf is the array a=(…) gives a, of its static elements: indexed,
// at the indexes written ([5]=x) where they are numbers in order, or
// associative where an index is not a number (declare -A m=([k]=v)).
func arrayOf(a *syntax.ArrayExpr, src string) expand.Variable {
	arr := expand.Variable{Set: true, Kind: expand.Indexed}
	var keys []string
	sparse, next := false, 0
	for _, el := range a.Elems {
		if el.Value == nil {
			continue
		}
		val := shellWordOf(el.Value, src)
		key := ""
		if el.Index != nil {
			key = strings.Trim(source(el.Index, src), "\"'")
		}
		if !val.static {
			continue
		}
		i, err := strconv.Atoi(key)
		switch {
		case key == "":
			i = next
		case err != nil || i < next:
			arr.Kind = expand.Associative
		default:
			sparse = sparse || i != next
		}
		next = i + 1
		arr.List = append(arr.List, val.text)
		arr.Indexes = append(arr.Indexes, i)
		keys = append(keys, key)
	}
	if arr.Kind == expand.Associative {
		arr.Map = map[string]string{}
		for i, k := range keys {
			arr.Map[k] = arr.List[i]
		}
		arr.List, arr.Indexes = nil, nil
	} else if !sparse {
		arr.Indexes = nil
	}
	return arr
}

// made makes v's maps: most lines give no value, and pay for none.
func (v *lineValues) made() {
	if v.vals == nil {
		v.vals, v.arrays, v.over = map[string][]string{}, map[string][]expand.Variable{}, map[string]bool{}
		v.derived = map[string]bool{}
	}
}
