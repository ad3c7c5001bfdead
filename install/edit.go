package install

import (
	"bytes"
	"sort"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// edit writes doc, an edited decoding of the file old, keeping old's bytes
// wherever doc did not change them: a value equal to the one at its place
// in old is copied from old, and an object or array that changed keeps
// the text between its members (its separators, its line breaks) where
// it spans several lines. Only what changed is written anew, in
// JSON.stringify's layout with old's indentation unit. So a compact
// "allow": [...] or "env": {...} keeps its one line, whatever the rest of
// the file does.
//
// When old is not strict JSON that scan reads (it was decoded first, so
// this does not happen with real files), the whole file is written anew.
func edit(doc pyjson.OrderedObject, old []byte) []byte {
	// A byte order mark first in old (the user's editor put it there; the
	// agents skip it) stays first: like every byte edit does not change,
	// it is kept, and the editor would only write it back. decodeObject
	// read doc past it.
	if rest := pyjson.SkipBOM(old); len(rest) < len(old) {
		return append(append([]byte(nil), old[:len(old)-len(rest)]...), edit(doc, rest)...)
	}
	if len(bytes.TrimSpace(old)) == 0 {
		return layout(doc, old)
	}
	root, err := scan(old)
	if err != nil {
		return layout(doc, old)
	}
	e := &editor{data: old, unit: indentUnit(old)}
	if e.unit == "" {
		e.unit = "  "
	}
	out := append([]byte(nil), old[:root.start]...)
	out = e.value(out, doc, root, lineIndent(old, root.start))
	return append(out, old[root.end:]...)
}

// layout writes doc in JSON.stringify's layout, re-indented with the
// unit the old file used, ending with a newline when the old one did (or
// when there was none).
func layout(doc pyjson.OrderedObject, old []byte) []byte {
	out := pyjson.Encode(doc, pyjson.JSIndent)
	if unit := indentUnit(old); unit != "" && unit != "  " {
		out = reindent(out, "", unit)
	}
	if len(old) == 0 || bytes.HasSuffix(old, []byte("\n")) {
		out = append(out, '\n')
	}
	return out
}

// reindent turns JSIndent's two-space levels into unit, and starts every
// line but the first with base (the indentation of the line the value
// starts on). JSON strings hold no raw newline, so every line break is
// the layout's.
func reindent(enc []byte, base, unit string) []byte {
	if base == "" && unit == "  " {
		return enc
	}
	lines := bytes.Split(enc, []byte("\n"))
	for i := 1; i < len(lines); i++ {
		l := lines[i]
		n := len(l) - len(bytes.TrimLeft(l, " "))
		lines[i] = append([]byte(base+strings.Repeat(unit, n/2)), l[n:]...)
	}
	return bytes.Join(lines, []byte("\n"))
}

// indentUnit is the whitespace that indents the first nested line.
func indentUnit(data []byte) string {
	for _, l := range bytes.Split(data, []byte("\n"))[1:] {
		t := bytes.TrimLeft(l, " \t")
		if len(t) == len(l) || len(t) == 0 {
			continue
		}
		return string(l[:len(l)-len(t)])
	}
	return ""
}

// lineIndent is the white space that starts the line holding data[pos].
func lineIndent(data []byte, pos int) string {
	start := bytes.LastIndexByte(data[:pos], '\n') + 1
	end := start
	for end < pos && (data[end] == ' ' || data[end] == '\t') {
		end++
	}
	return string(data[start:end])
}

type editor struct {
	data []byte // the old file
	unit string // its indentation unit
}

// canonical is the encoding two values are compared in: equal values,
// however spelled, encode alike (numbers keep their text).
func canonical(v any) []byte { return pyjson.Encode(v, pyjson.Compact) }

func (e *editor) canon(n *node) []byte {
	if n.canon == nil {
		v, err := pyjson.DecodeOrdered(e.data[n.start:n.end])
		if err != nil {
			n.canon = []byte{} // never equal to an encoding
		} else {
			n.canon = canonical(v)
		}
	}
	return n.canon
}

// value appends v, which stands where orig (nil: nothing) stood in the old
// file, on a line indented by ind.
func (e *editor) value(buf []byte, v any, orig *node, ind string) []byte {
	if orig != nil && bytes.Equal(canonical(v), e.canon(orig)) {
		return append(buf, e.data[orig.start:orig.end]...)
	}
	switch x := v.(type) {
	case pyjson.OrderedObject:
		if len(x) > 0 && orig != nil && orig.kind == '{' {
			match := matchMembers(x, orig)
			if len(orig.members) > 0 && e.multiline(orig) {
				starts, ends := make([]int, len(orig.members)), make([]int, len(orig.members))
				for i, m := range orig.members {
					starts[i], ends[i] = m.keyStart, m.val.end
				}
				return e.splice(buf, orig, starts, ends, match, func(buf []byte, j, i int, ind string) []byte {
					return e.member(buf, x[j], orig, i, ind)
				})
			}
			return e.container(buf, '{', len(x), ind, func(buf []byte, j int, ind string) []byte {
				return e.member(buf, x[j], orig, match[j], ind)
			})
		}
	case []any:
		if len(x) > 0 && orig != nil && orig.kind == '[' {
			match := e.matchElems(x, orig)
			if len(orig.elems) > 0 && e.multiline(orig) {
				starts, ends := make([]int, len(orig.elems)), make([]int, len(orig.elems))
				for i, el := range orig.elems {
					starts[i], ends[i] = el.start, el.end
				}
				return e.splice(buf, orig, starts, ends, match, func(buf []byte, j, i int, ind string) []byte {
					var o *node
					if i >= 0 {
						o = orig.elems[i]
					}
					return e.value(buf, x[j], o, ind)
				})
			}
			return e.container(buf, '[', len(x), ind, func(buf []byte, j int, ind string) []byte {
				var o *node
				if match[j] >= 0 {
					o = orig.elems[match[j]]
				}
				return e.value(buf, x[j], o, ind)
			})
		}
	}
	return append(buf, reindent(pyjson.Encode(v, pyjson.JSIndent), ind, e.unit)...)
}

func (e *editor) multiline(n *node) bool {
	return bytes.IndexByte(e.data[n.start:n.end], '\n') >= 0
}

// member writes m, which stands for orig's i-th member (-1: none): an
// old member keeps the text of its key, colon and their spacing.
func (e *editor) member(buf []byte, m pyjson.Member, orig *node, i int, ind string) []byte {
	if i < 0 {
		buf = pyjson.Append(buf, m.Key, pyjson.JSIndent)
		buf = append(buf, ": "...)
		return e.value(buf, m.Value, nil, ind)
	}
	om := orig.members[i]
	buf = append(buf, e.data[om.keyStart:om.val.start]...)
	return e.value(buf, m.Value, om.val, ind)
}

// container writes a changed object or array that was on one line (or
// empty) in JSON.stringify's layout; item writes the j-th member or
// element, which may still be copied from the old file.
func (e *editor) container(buf []byte, open byte, n int, ind string, item func(buf []byte, j int, ind string) []byte) []byte {
	buf = append(buf, open)
	inner := ind + e.unit
	for j := range n {
		if j > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '\n')
		buf = append(buf, inner...)
		buf = item(buf, j, inner)
	}
	buf = append(buf, '\n')
	buf = append(buf, ind...)
	return append(buf, open+2) // '}' is '{'+2, ']' is '['+2
}

// splice writes a changed object or array that spanned several lines by
// keeping its old text around the items: match[j] is the old item the
// j-th new one stands in for (-1: a new item). The text before the first
// old item, after the last, and between two items kept in their order is
// the old text; a new item is set off the way the first one was.
// item writes the j-th item (whose old item is i) on a line indented by
// ind.
func (e *editor) splice(buf []byte, orig *node, starts, ends, match []int, item func(buf []byte, j, i int, ind string) []byte) []byte {
	n := len(starts)
	pre := e.data[orig.start+1 : starts[0]]
	ind := lineIndent(e.data, orig.start) + e.unit
	sep := append([]byte{','}, pre...)
	if nl := bytes.LastIndexByte(pre, '\n'); nl >= 0 {
		ind = string(pre[nl+1:])
		sep = append([]byte(",\n"), ind...)
	}
	buf = append(buf, e.data[orig.start])
	buf = append(buf, pre...)
	prev := -1
	for j, i := range match {
		if j > 0 {
			switch {
			case i >= 1:
				buf = append(buf, e.data[ends[i-1]:starts[i]]...)
			case prev >= 0 && prev+1 < n:
				buf = append(buf, e.data[ends[prev]:starts[prev+1]]...)
			default:
				buf = append(buf, sep...)
			}
		}
		at := ind
		if i >= 0 {
			at = lineIndent(e.data, starts[i])
		}
		buf = item(buf, j, i, at)
		prev = i
	}
	buf = append(buf, e.data[ends[n-1]:orig.end-1]...)
	return append(buf, e.data[orig.end-1])
}

// matchMembers pairs each member of obj with the old member of the same
// key (the k-th of a key with the k-th of it: a duplicated key stays
// paired in order), -1 for a new key.
func matchMembers(obj pyjson.OrderedObject, orig *node) []int {
	at := map[string][]int{}
	for i, m := range orig.members {
		at[m.key] = append(at[m.key], i)
	}
	match := make([]int, len(obj))
	for j, m := range obj {
		match[j] = -1
		if idx := at[m.Key]; len(idx) > 0 {
			match[j], at[m.Key] = idx[0], idx[1:]
		}
	}
	return match
}

// matchElems pairs the elements of a changed array with the old ones, in
// order: an element equal to an old one at or after the last pair is that
// one (the old ones skipped were removed); else an old container of the
// same kind next in line, that no later element equals, is the one it was
// edited from; else it is new.
func (e *editor) matchElems(list []any, orig *node) []int {
	canons := make([]string, len(list))
	last := map[string]int{} // the last index of each new element's encoding
	for j, v := range list {
		canons[j] = string(canonical(v))
		last[canons[j]] = j
	}
	at := map[string][]int{} // old elements' indices by encoding, ascending
	for i, el := range orig.elems {
		k := string(e.canon(el))
		at[k] = append(at[k], i)
	}
	match := make([]int, len(list))
	next := 0
	for j, v := range list {
		match[j] = -1
		idx := at[canons[j]]
		if k := sort.SearchInts(idx, next); k < len(idx) {
			match[j], next = idx[k], idx[k]+1
			continue
		}
		if next >= len(orig.elems) {
			continue
		}
		o := orig.elems[next]
		if l, later := last[string(e.canon(o))]; o.kind != 0 && o.kind == kindOf(v) && (!later || l <= j) {
			match[j] = next
			next++
		}
	}
	return match
}

func kindOf(v any) byte {
	switch v.(type) {
	case pyjson.OrderedObject:
		return '{'
	case []any:
		return '['
	}
	return 0
}
