package cfgtree

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// The encoding is JSON, one array per node, in document order:
//
//	[kind, style, line, tag, value, [children…], alias]
//
// alias is null, or the position (in document order, from 0) of the node an
// alias node stands for, written before it: an alias is a reference, never
// a copy, so a document of nested aliases (a "billion laughs") encodes in
// its own size. It is read with the generic decoder the dispatcher links
// anyway (no reflection over struct types), which costs a one-shot
// dispatch far less than parsing the YAML again.

// maxDepth bounds nesting on decode; a config is a few levels deep.
const maxDepth = 64

// maxNodes bounds a decoded tree.
const maxNodes = 1 << 20

// Encode writes root (nil for an empty document) in the cache's encoding.
// A tree it cannot write faithfully (deeper than maxDepth, an alias to a
// node not written before it) comes back different from Decode; Cache.Put
// checks.
func Encode(root *Node) []byte {
	e := encoder{at: map[*Node]int{}}
	e.node(root, 0)
	return e.out
}

type encoder struct {
	out []byte
	at  map[*Node]int // node → its position, once written
	n   int
}

func (e *encoder) node(n *Node, depth int) {
	if n == nil || depth > maxDepth {
		e.out = append(e.out, "null"...)
		return
	}
	if _, ok := e.at[n]; !ok {
		e.at[n] = e.n
	}
	e.n++
	e.out = append(e.out, '[')
	e.out = strconv.AppendUint(e.out, uint64(n.Kind), 10)
	e.out = append(e.out, ',')
	e.out = strconv.AppendUint(e.out, uint64(n.Style), 10)
	e.out = append(e.out, ',')
	e.out = strconv.AppendInt(e.out, int64(n.Line), 10)
	e.out = append(e.out, ',')
	e.out = pyjson.Append(e.out, n.Tag, pyjson.Compact)
	e.out = append(e.out, ',')
	e.out = pyjson.Append(e.out, n.Value, pyjson.Compact)
	e.out = append(e.out, ",["...)
	for i, c := range n.Content {
		if i > 0 {
			e.out = append(e.out, ',')
		}
		e.node(c, depth+1)
	}
	e.out = append(e.out, "],"...)
	if at, ok := e.at[n.Alias]; ok && n.Alias != nil {
		e.out = strconv.AppendInt(e.out, int64(at), 10)
	} else {
		e.out = append(e.out, "null"...)
	}
	e.out = append(e.out, ']')
}

var errBroken = errors.New("cfgtree: not an encoded tree")

// Decode reads what Encode wrote; anything else is an error.
func Decode(data []byte) (*Node, error) {
	v, err := pyjson.Decode(data)
	if err != nil {
		return nil, err
	}
	var d decoder
	return d.node(v, 0)
}

type decoder struct {
	nodes    []*Node // in document order
	complete []bool  // nodes[i] and all its children are read
}

func (d *decoder) node(v any, depth int) (*Node, error) {
	if v == nil {
		return nil, nil
	}
	a, ok := v.([]any)
	if !ok || len(a) != 7 || depth > maxDepth || len(d.nodes) >= maxNodes {
		return nil, errBroken
	}
	kind, ok1 := number(a[0], 32)
	style, ok2 := number(a[1], 32)
	line, ok3 := number(a[2], 31)
	tag, ok4 := a[3].(string)
	value, ok5 := a[4].(string)
	content, ok6 := a[5].([]any)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 {
		return nil, errBroken
	}
	switch Kind(kind) {
	case SequenceNode, MappingNode, ScalarNode, AliasNode, DocumentNode:
	default:
		return nil, errBroken
	}
	n := &Node{Kind: Kind(kind), Style: Style(style), Line: int(line), Tag: tag, Value: value}
	self := len(d.nodes)
	d.nodes = append(d.nodes, n)
	d.complete = append(d.complete, false)
	if len(content) > 0 {
		n.Content = make([]*Node, len(content))
	}
	for i, c := range content {
		child, err := d.node(c, depth+1)
		if err != nil || child == nil {
			return nil, errBroken
		}
		n.Content[i] = child
	}
	if a[6] != nil {
		// An alias stands for a node read whole before it, and not for
		// another alias: no cycle, so the config reader's recursion
		// through aliases ends.
		at, ok := number(a[6], 31)
		if !ok || int(at) >= len(d.nodes) || !d.complete[at] || d.nodes[at].Kind == AliasNode {
			return nil, errBroken
		}
		n.Alias = d.nodes[at]
	}
	d.complete[self] = true
	return n, nil
}

// number reads a non-negative integer of at most bits bits.
func number(v any, bits int) (uint64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	u, err := strconv.ParseUint(string(n), 10, bits)
	return u, err == nil
}
