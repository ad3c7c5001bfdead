package cfgtree

import (
	"encoding/binary"
	"errors"
)

// The encoding is binary: a magic prefix, then 0 for an empty document or 1
// and the root node. A node is, in document order,
//
//	kind style line len(tag) tag len(value) value children alias
//
// every number an unsigned varint, children a count followed by the nodes,
// and alias 0 for none or 1 + the position (in document order, from 0) of
// the node an alias node stands for, written before it: an alias is a
// reference, never a copy, so a document of nested aliases (a "billion
// laughs") encodes in its own size. Strings are written as they are, so
// every value round-trips, valid UTF-8 or not. Reading it takes no JSON
// decoder, no reflection and one allocation per node and string: a
// one-shot dispatch reads one at every start.

// magic starts every encoded tree (and names the format's version).
const magic = "cfgtree3"

// maxDepth bounds nesting on decode; a config is a few levels deep.
const maxDepth = 64

// maxNodes bounds a decoded tree.
const maxNodes = 1 << 20

// Encode writes root (nil for an empty document) in the cache's encoding.
// A tree it cannot write faithfully (deeper than maxDepth, an alias to a
// node not written before it) comes back different from Decode; Cache.Put
// checks.
func Encode(root *Node) []byte {
	e := encoder{out: append(make([]byte, 0, 512), magic...), at: map[*Node]int{}}
	if root == nil {
		return append(e.out, 0)
	}
	e.out = append(e.out, 1)
	e.node(root, 0)
	return e.out
}

type encoder struct {
	out []byte
	at  map[*Node]int // node → its position, once written
	n   int
}

func (e *encoder) node(n *Node, depth int) {
	if _, ok := e.at[n]; !ok {
		e.at[n] = e.n
	}
	e.n++
	e.out = binary.AppendUvarint(e.out, uint64(n.Kind))
	e.out = binary.AppendUvarint(e.out, uint64(n.Style))
	e.out = binary.AppendUvarint(e.out, uint64(max(n.Line, 0)))
	e.out = binary.AppendUvarint(e.out, uint64(len(n.Tag)))
	e.out = append(e.out, n.Tag...)
	e.out = binary.AppendUvarint(e.out, uint64(len(n.Value)))
	e.out = append(e.out, n.Value...)
	content := n.Content
	if depth >= maxDepth {
		content = nil // too deep: written childless, so Put refuses it
	}
	e.out = binary.AppendUvarint(e.out, uint64(len(content)))
	for _, c := range content {
		if c == nil {
			c = &Node{} // a kind Decode refuses: Put refuses the tree
		}
		e.node(c, depth+1)
	}
	if at, ok := e.at[n.Alias]; ok && n.Alias != nil {
		e.out = binary.AppendUvarint(e.out, uint64(at)+1)
	} else {
		e.out = append(e.out, 0)
	}
}

var errBroken = errors.New("cfgtree: not an encoded tree")

// Decode reads what Encode wrote; anything else is an error.
func Decode(data []byte) (*Node, error) {
	if len(data) < len(magic)+1 || string(data[:len(magic)]) != magic {
		return nil, errBroken
	}
	d := decoder{data: data[len(magic)+1:]}
	switch data[len(magic)] {
	case 0:
		if len(d.data) != 0 {
			return nil, errBroken
		}
		return nil, nil
	case 1:
	default:
		return nil, errBroken
	}
	root, err := d.node(0)
	if err != nil || len(d.data) != 0 {
		return nil, errBroken
	}
	return root, nil
}

type decoder struct {
	data     []byte
	nodes    []*Node // in document order
	complete []bool  // nodes[i] and all its children are read
}

// uint reads a varint of at most limit.
func (d *decoder) uint(limit uint64) (uint64, error) {
	v, n := binary.Uvarint(d.data)
	if n <= 0 || v > limit {
		return 0, errBroken
	}
	d.data = d.data[n:]
	return v, nil
}

// str reads a length and that many bytes.
func (d *decoder) str() (string, error) {
	n, err := d.uint(uint64(len(d.data)))
	if err != nil || n > uint64(len(d.data)) {
		return "", errBroken
	}
	s := string(d.data[:n])
	d.data = d.data[n:]
	return s, nil
}

func (d *decoder) node(depth int) (*Node, error) {
	if depth > maxDepth || len(d.nodes) >= maxNodes {
		return nil, errBroken
	}
	kind, err1 := d.uint(1<<32 - 1)
	style, err2 := d.uint(1<<32 - 1)
	line, err3 := d.uint(1<<31 - 1)
	tag, err4 := d.str()
	value, err5 := d.str()
	if err := errors.Join(err1, err2, err3, err4, err5); err != nil {
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
	// Each child takes at least 7 bytes: a count beyond that is a lie.
	count, err := d.uint(uint64(len(d.data)) / 7)
	if err != nil {
		return nil, errBroken
	}
	if count > 0 {
		n.Content = make([]*Node, count)
	}
	for i := range n.Content {
		if n.Content[i], err = d.node(depth + 1); err != nil {
			return nil, err
		}
	}
	at, err := d.uint(uint64(len(d.nodes)))
	if err != nil {
		return nil, errBroken
	}
	if at > 0 {
		// An alias stands for a node read whole before it, and not for
		// another alias: no cycle, so the config reader's recursion
		// through aliases ends.
		t := at - 1
		if !d.complete[t] || d.nodes[t].Kind == AliasNode {
			return nil, errBroken
		}
		n.Alias = d.nodes[t]
	}
	d.complete[self] = true
	return n, nil
}
