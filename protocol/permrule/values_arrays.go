package permrule

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// The arrays a line gives: a=(…), a+=(…), a[i]=v, and a=v or a+=v, which
// set element 0 of an array. Read in each round of valuesOf, with the
// values known so far.

// maxArrayElems bounds the elements of all the arrays one round of a
// line's array assignments makes of one name: past it, the name is over.
const maxArrayElems = 1 << 16

// arrayRound adds what the line's array assignments give, in line
// order, each once and taken to run (as chains does for values: a
// conditional append's other outcome is not followed): a=(…) its arrays;
// a+=(…) each array of a so far with its elements after; a[i]=v each with
// element i set. What they start from is what a=(…) gave (not what the
// others made), so each round gives the same. Each array made on the way
// counts (a use may come between two appends); then a=v and a+=v (values
// of a) set element 0 of each.
func (v *lineValues) arrayRound(assigns []*syntax.Assign, src string) {
	v.made()
	work := map[string][]expand.Variable{} // the arrays so far, by name
	made := map[string][]expand.Variable{} // every array made, by name
	elems := map[string]int{}              // the elements of made's arrays
	for _, a := range assigns {
		// Each assignment may make thousands of arrays: the caller's
		// stop is heeded between them.
		if v.stopped = v.stopped || v.halted(); v.stopped {
			return
		}
		name := a.Name.Value
		if v.over[name] {
			continue // an error where it is used
		}
		cur, ok := work[name]
		if !ok {
			cur = []expand.Variable{{Set: true, Kind: expand.Indexed}}
			for _, b := range v.arrays[name] {
				if !v.derivedArr[arrKey(name, b)] {
					cur = append(cur, b)
				}
			}
		}
		next, ok := v.assigned(a, cur, src, elems)
		if !ok || v.over[name] { // a[i]=$X, X over, makes a over too (valuesIn)
			// Past a bound (a[0]=x; a[1]=x; … makes an array of each length
			// on the way: 6,000 of them held 18 million elements, a
			// gigabyte), or its words cannot be told: not the arrays made
			// so far, which would miss the others.
			v.over[name] = true
			delete(work, name)
			delete(made, name)
			continue
		}
		work[name] = next
		made[name] = append(made[name], next...)
	}
	for name, arrs := range made {
		for _, a := range arrs {
			if len(a.List) == 0 && len(a.Map) == 0 {
				continue // the empty one each started from
			}
			v.addDerivedArray(name, a)
			if a.Kind == expand.Indexed && !positionalName(name) {
				for _, val := range slices.Clone(v.vals[name]) {
					v.addDerivedArray(name, withElement(a, 0, val))
				}
			}
		}
	}
}

// assigned are the arrays assignment a makes of cur, the arrays of its
// name so far (arrayRound), each once; elems counts their elements, by
// name. ok false past maxVarValues arrays or maxArrayElems elements
// (found as they are made, not after: cur and a's values may each hold
// thousands, and comparing each array with each other made took 9 s for
// a 78-byte line), or where a's words cannot be told (arraysOf).
func (v *lineValues) assigned(a *syntax.Assign, cur []expand.Variable, src string, elems map[string]int) (next []expand.Variable, ok bool) {
	name := a.Name.Value
	seen := map[string]bool{} // the arrKeys of next
	add := func(b expand.Variable) bool {
		if k := arrKey(name, b); !seen[k] {
			seen[k] = true
			elems[name] += 1 + len(b.List) + len(b.Map)
			if len(next) >= maxVarValues || elems[name] > maxArrayElems {
				return false
			}
			next = append(next, b)
		}
		return true
	}
	if a.Index != nil {
		for _, b := range cur {
			for _, el := range v.withElements(b, a, src) {
				if !add(el) {
					return nil, false
				}
			}
		}
		return next, true
	}
	arrs, ok := v.arraysOf(a.Array, src)
	if !ok {
		return nil, false
	}
	for _, arr := range arrs {
		if !a.Append {
			v.addArray(name, arr)
			if !add(arr) {
				return nil, false
			}
			continue
		}
		for _, b := range cur {
			if b.Kind == expand.Indexed && arr.Kind == expand.Indexed &&
				!add(expand.Variable{Set: true, Kind: expand.Indexed, List: append(slices.Clone(b.List), arr.List...)}) {
				return nil, false
			}
		}
	}
	return next, true
}

// addDerivedArray adds an array a chained assignment made (arrayRound).
func (v *lineValues) addDerivedArray(name string, a expand.Variable) {
	if k := arrKey(name, a); !v.derivedArr[k] && !v.arrKeys[k] {
		v.derivedArr[k] = true
		v.addArray(name, a)
	}
}

// arrKey tells arrays of name apart.
func arrKey(name string, a expand.Variable) string {
	var b strings.Builder
	b.WriteString(name)
	for i, s := range a.List {
		b.WriteString("\x00")
		if a.Indexes != nil {
			b.WriteString(strconv.Itoa(a.Indexes[i]) + "=")
		}
		b.WriteString(s)
	}
	for _, k := range slices.Sorted(maps.Keys(a.Map)) {
		b.WriteString("\x01" + k + "=" + a.Map[k])
	}
	return b.String()
}

// arraysOf are the arrays a=(…) may give: with elements written without
// an index, each list of fields they expand to (values, braces, word
// splitting); else the static elements at the indexes written
// (arrayOf). ok false where the elements' expansion fails (a name they
// read is over, or past a bound), as valuesIn makes a value's variable
// over: read as the static elements alone, a=($X) with X over was an
// empty array, and ${a[0]} -rf / ran X's rm unseen.
func (v *lineValues) arraysOf(a *syntax.ArrayExpr, src string) (arrs []expand.Variable, ok bool) {
	var words []*syntax.Word
	for _, el := range a.Elems {
		if el.Index != nil || el.Value == nil {
			words = nil
			break
		}
		words = append(words, el.Value)
	}
	if len(words) > 0 {
		lists, err := v.expand(words, src, false, true)
		if err != nil {
			return nil, false
		}
		if lists != nil {
			out := make([]expand.Variable, len(lists))
			for i, l := range lists {
				out[i] = expand.Variable{Set: true, Kind: expand.Indexed, List: l}
			}
			return out, true
		}
	}
	// Indexes written: one array for each assignment of the values its
	// indexes read ([i]=x).
	var names []string
	for _, el := range a.Elems {
		arithReads(el.Index, func(n string) { names = append(names, n) })
	}
	var out []expand.Variable
	for _, e := range v.arithEnvs(names) {
		arrs, ok := v.arrayOf(a, src, e)
		if !ok {
			return nil, false
		}
		for _, arr := range arrs {
			if !slices.ContainsFunc(out, func(b expand.Variable) bool { return arrKey("", b) == arrKey("", arr) }) {
				out = append(out, arr)
			}
		}
	}
	return out, true
}

// arrayOf is the array a=(…) gives under the values of e, of its static
// elements, braces expanded: indexed, at the indexes written ([5]=x,
// [0+1]=x, [0x1]=x, [i]=x, in any order; the last of an index counts).
// Where an index is not a number (declare -A m=([k]=v)) it is also
// associative, and, as bash lists such an array's values in an order of
// its own, indexed in the order written and the reverse. ok false where
// an element's value cannot be told here ([0]=$X, a word of too many
// braces): read as no element, a=([0]=$X) with X=rm made ${a[0]} -rf /
// the command -rf /.
func (v *lineValues) arrayOf(a *syntax.ArrayExpr, src string, e env) (arrs []expand.Variable, ok bool) {
	byIndex := map[int]string{}
	assoc := map[string]string{}
	var order []string // the associative values, in the order written
	next := 0
	for _, el := range a.Elems {
		if el.Value == nil {
			continue
		}
		words := []shellWord{shellWordOf(el.Value, src)}
		if el.Index == nil {
			ws, err := braceWords(el.Value, src, &v.braces)
			if err != nil {
				return nil, false
			}
			words = ws
		}
		for _, w := range words {
			if !w.static && el.Index != nil && readsVariable(el.Value) {
				return nil, false
			}
			if el.Index != nil {
				next = arithIndexIn(el.Index, e)
				if key := strings.Trim(source(el.Index, src), "\"'"); !isNumber(key) && w.static {
					assoc[key] = w.text
					order = append(order, w.text)
				}
			}
			if w.static {
				byIndex[next] = w.text
			}
			// A value not known here ($(…), as anywhere: files=($(git
			// diff --name-only)) still takes its place.
			next++
		}
	}
	indexed := indexedOf(byIndex)
	if len(assoc) == 0 {
		return []expand.Variable{indexed}, true
	}
	reversed := slices.Clone(order)
	slices.Reverse(reversed)
	return []expand.Variable{{Set: true, Kind: expand.Associative, Map: assoc}, indexed,
		{Set: true, Kind: expand.Indexed, List: order}, {Set: true, Kind: expand.Indexed, List: reversed}}, true
}

// readsVariable: w reads a variable's value ($X, ${X…}), which the line
// may give: [0]=$X is not left unknown as [0]=$(…) is.
func readsVariable(w *syntax.Word) bool {
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		if _, ok := n.(*syntax.ParamExp); ok {
			found = true
		}
		return !found
	})
	return found
}

// arithReads calls name for each variable arithmetic x reads: bare names
// and $NAME.
func arithReads(x syntax.ArithmExpr, name func(string)) {
	if x == nil {
		return
	}
	arithNames(x, name)
	syntax.Walk(x, func(n syntax.Node) bool {
		if p, ok := n.(*syntax.ParamExp); ok && p.Param != nil {
			name(p.Param.Value)
		}
		return true
	})
}

// arithIndexIn is the index x evaluates to as arithmetic (0x1, 0+1) with
// the values of e (a name it does not hold reads as 0); 0 for one that
// does not evaluate or is out of range.
func arithIndexIn(x syntax.ArithmExpr, e env) int {
	n, err := arithm(&expand.Config{Env: maps.Clone(e)}, x)
	if err != nil || n < 0 || n > 1<<20 {
		return 0
	}
	return n
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// withElements are the arrays b becomes by NAME[INDEX]=VALUE, with each
// value VALUE may have.
func (v *lineValues) withElements(b expand.Variable, a *syntax.Assign, src string) []expand.Variable {
	key := strings.Trim(source(a.Index, src), "\"'")
	indexes := v.arithIndexes(a.Index)
	var out []expand.Variable
	// The value reads the array as it is so far (b), as chains reads a
	// variable: count[$w]=$((${count[$w]}+1)) must not grow each round.
	saved := v.arrays[a.Name.Value]
	v.arrays[a.Name.Value] = []expand.Variable{b}
	vals := v.valuesIn(valueSource{name: a.Name.Value, w: a.Value}, src)
	v.arrays[a.Name.Value] = saved
	for _, val := range vals {
		if b.Kind == expand.Associative || !isNumber(key) && key != "" {
			m := maps.Clone(b.Map)
			if m == nil {
				m = map[string]string{}
			}
			m[key] = val
			out = append(out, expand.Variable{Set: true, Kind: expand.Associative, Map: m})
		}
		if b.Kind != expand.Associative {
			for _, i := range indexes {
				out = append(out, withElement(b, i, val))
			}
		}
	}
	return out
}

// withElement is indexed array b with element i set to val.
func withElement(b expand.Variable, i int, val string) expand.Variable {
	byIndex := map[int]string{}
	for n, s := range b.List {
		at := n
		if b.Indexes != nil {
			at = b.Indexes[n]
		}
		byIndex[at] = s
	}
	byIndex[i] = val
	return indexedOf(byIndex)
}

// indexedOf is the indexed array of the values byIndex holds, in index
// order (sparse, with its Indexes, when they are not 0, 1, 2 …).
func indexedOf(byIndex map[int]string) expand.Variable {
	out := expand.Variable{Set: true, Kind: expand.Indexed}
	idx := slices.Sorted(maps.Keys(byIndex))
	dense := true
	for n, at := range idx {
		out.List = append(out.List, byIndex[at])
		dense = dense && at == n
	}
	if !dense {
		out.Indexes = idx
	}
	return out
}
