package permrule

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// The arrays a line gives: a=(…), a+=(…).

// addArrayAssign adds the array NAME=(…) gives, and for NAME+=(…) each
// array before it with the elements after it.
func (v *lineValues) addArrayAssign(a *syntax.Assign, src string) {
	arr, indexed := v.arrayOf(a.Array, src)
	if !a.Append {
		v.addArray(a.Name.Value, arr)
		if indexed.Set {
			v.addArray(a.Name.Value, indexed)
		}
		return
	}
	for _, b := range append([]expand.Variable{{}}, v.arrays[a.Name.Value]...) {
		if b.Kind != expand.Associative && arr.Kind != expand.Associative {
			v.addArray(a.Name.Value, expand.Variable{Set: true, Kind: expand.Indexed, List: append(slices.Clone(b.List), arr.List...)})
		}
	}
}

// arrayOf is the array a=(…) gives, of its static elements, braces
// expanded: indexed, at the indexes written ([5]=x, in any order; the
// last of an index counts), or associative where an index is not a
// number (declare -A m=([k]=v)) — and then, as bash makes it of an array
// not declared -A, indexed too (the key read as index 0).
func (v *lineValues) arrayOf(a *syntax.ArrayExpr, src string) (arr, indexed expand.Variable) {
	byIndex := map[int]string{}
	assoc := map[string]string{}
	next := 0
	for _, el := range a.Elems {
		if el.Value == nil {
			continue
		}
		key := ""
		if el.Index != nil {
			key = strings.Trim(source(el.Index, src), "\"'")
		}
		var words []shellWord
		if el.Index == nil {
			ws, err := braceWords(el.Value, src, &v.braces)
			if err != nil {
				return expand.Variable{}, expand.Variable{}
			}
			words = ws
		} else {
			words = []shellWord{shellWordOf(el.Value, src)}
		}
		for _, w := range words {
			if !w.static {
				next++ // its place is taken, by a value not known here
				continue
			}
			i, err := strconv.Atoi(key)
			switch {
			case key == "":
				byIndex[next] = w.text
				next++
			case err != nil:
				assoc[key] = w.text
				byIndex[0] = w.text
			default:
				byIndex[i] = w.text
				next = i + 1
			}
		}
	}
	idx := slices.Sorted(maps.Keys(byIndex))
	indexed = expand.Variable{Set: true, Kind: expand.Indexed}
	dense := true
	for n, i := range idx {
		indexed.List = append(indexed.List, byIndex[i])
		dense = dense && i == n
	}
	if !dense {
		indexed.Indexes = idx
	}
	if len(assoc) > 0 {
		return expand.Variable{Set: true, Kind: expand.Associative, Map: assoc}, indexed
	}
	return indexed, expand.Variable{}
}
