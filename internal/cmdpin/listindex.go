package cmdpin

import "slices"

// The lists a Target keeps without repeats (Files, Optional, the loads
// collected before they join Files, the variables the command assigns)
// grow one entry at a time while a command is read: a command is a
// repository's text, and one naming tens of thousands of files or
// variables (BASH_ENV=./f1 BASH_ENV=./f2 …, LD_PRELOAD=./l1:./l2:…,
// within a 1 MiB hooks file) made "is it listed already?" a scan of the
// list so far at each entry: quadratic, half a minute to minutes for one
// resolution, at every dispatch. A long list is found through an index
// instead.

// indexFrom is the length from which a list is indexed: shorter ones,
// every real command's, are scanned, which allocates nothing.
const indexFrom = 32

// listIndex finds values in a list that grows at its end. It indexes the
// list as it finds it (positions up to n), and notices a list replaced
// rather than grown (a file put in front, a list cut back) by its length,
// its first value and that a value found still sits where it was seen. A
// list emptied and grown again is reset with its index (flushLoads); no
// list is rewritten in place.
type listIndex struct {
	at    map[string]int // value → the first position it was seen at
	n     int            // list[:n] is indexed
	first string         // list[0] when indexed
}

// contains reports whether p is in list, which x indexes (x nil: a scan).
func (x *listIndex) contains(list []string, p string) bool {
	if x == nil || len(list) < indexFrom {
		return slices.Contains(list, p)
	}
	if x.at == nil || x.n > len(list) || list[0] != x.first {
		x.at, x.n, x.first = make(map[string]int, 2*len(list)), 0, list[0]
	}
	for ; x.n < len(list); x.n++ {
		if _, ok := x.at[list[x.n]]; !ok {
			x.at[list[x.n]] = x.n
		}
	}
	i, ok := x.at[p]
	if ok && list[i] == p {
		return true
	}
	if ok {
		// The list was rewritten under the index: start again.
		x.at = nil
		return slices.Contains(list, p)
	}
	return false
}

// listIndexes are a Target's indexes while it is resolved (Resolve drops
// them: a resolved Target's lists no longer grow).
type listIndexes struct {
	files, optional, loads, assigned listIndex
}

// idx is t's indexes, made on first use.
func (t *Target) idx() *listIndexes {
	if t.index == nil {
		t.index = &listIndexes{}
	}
	return t.index
}
