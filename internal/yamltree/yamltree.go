// Package yamltree writes a parsed YAML document, a yaml.v3 node tree, as
// bytes and reads it back: the built-in rule files are parsed when they
// change (a test writes their trees) rather than at every start of a
// one-shot, where yaml.v3 spent ~10 ms a call on their 136 KB.
//
// Contract: Decode(Encode(n)) is a tree equal to n, field by field (kind,
// style, tag, value, anchor, the three comments, line and column, and the
// children in order); an alias node is refused by Encode (its anchor is
// elsewhere in the tree, a graph this format does not hold). Decode never
// panics and allocates no more than its input's length allows: a node
// takes at least minNodeBytes of it. It reads only what Encode wrote;
// the bytes are the binary's own, not a file a user hands it.
package yamltree

import (
	"encoding/binary"
	"errors"
	"fmt"

	"gopkg.in/yaml.v3"
)

// magic starts every encoding: a tree of another layout is refused, not
// misread.
const magic = "yamltree1\n"

// minNodeBytes is the least a node takes: kind, style, line, column, six
// string lengths and its number of children, one byte each.
const minNodeBytes = 11

// MaxDepth is the deepest tree Encode writes and Decode reads: the
// built-in files nest a few levels, and a bound keeps Decode's recursion
// from exhausting the stack on bytes that claim more.
const MaxDepth = 100

// Encode writes the tree at root.
func Encode(root *yaml.Node) ([]byte, error) {
	out := []byte(magic)
	n := 0
	if err := count(root, 0, &n); err != nil {
		return nil, err
	}
	out = binary.AppendUvarint(out, uint64(n))
	return encode(out, root), nil
}

// count counts the nodes of the tree at n, refusing an alias and a tree
// deeper than MaxDepth.
func count(n *yaml.Node, depth int, total *int) error {
	switch {
	case n == nil:
		return errors.New("yamltree: a nil node")
	case n.Kind == yaml.AliasNode || n.Alias != nil:
		return fmt.Errorf("yamltree: line %d: an alias (*%s) cannot be written", n.Line, n.Value)
	case depth >= MaxDepth:
		return fmt.Errorf("yamltree: line %d: nested deeper than %d", n.Line, MaxDepth)
	}
	*total++
	for _, c := range n.Content {
		if err := count(c, depth+1, total); err != nil {
			return err
		}
	}
	return nil
}

// encode appends n and its children, depth first.
func encode(out []byte, n *yaml.Node) []byte {
	for _, v := range []int{int(n.Kind), int(n.Style), n.Line, n.Column} {
		out = binary.AppendUvarint(out, uint64(max(v, 0)))
	}
	for _, s := range []string{n.Tag, n.Value, n.Anchor, n.HeadComment, n.LineComment, n.FootComment} {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	out = binary.AppendUvarint(out, uint64(len(n.Content)))
	for _, c := range n.Content {
		out = encode(out, c)
	}
	return out
}

// decoder reads an encoding: its bytes, their text (one string, which
// every value shares), where it is, and the nodes and child pointers it
// hands out.
type decoder struct {
	b     []byte
	s     string
	at    int
	nodes []yaml.Node
	ptrs  []*yaml.Node
}

// errShort is any encoding that ends early or says more than it holds.
var errShort = errors.New("yamltree: the encoding is cut short or malformed")

// Decode reads the tree Encode wrote in b.
func Decode(b []byte) (*yaml.Node, error) {
	d := &decoder{b: b, s: string(b), at: len(magic)}
	if len(b) < len(magic) || d.s[:len(magic)] != magic {
		return nil, errors.New("yamltree: not an encoding of this version")
	}
	n, err := d.uint()
	if err != nil || n == 0 || n > uint64(len(b)/minNodeBytes) {
		return nil, errShort
	}
	// One allocation for every node and one for every child pointer:
	// each node's children are a capped window of ptrs, so an append to
	// one node's Content (pyyaml.Flatten rewrites mappings) copies
	// rather than overwrite its neighbour's.
	d.nodes = make([]yaml.Node, 0, n)
	d.ptrs = make([]*yaml.Node, 0, n-1)
	root, err := d.node(0)
	if err != nil {
		return nil, err
	}
	if d.at != len(d.s) || len(d.nodes) != int(n) {
		return nil, errShort
	}
	return root, nil
}

// node reads one node and its children.
func (d *decoder) node(depth int) (*yaml.Node, error) {
	if depth >= MaxDepth || len(d.nodes) == cap(d.nodes) {
		return nil, errShort
	}
	var v [4]uint64
	for i := range v {
		x, err := d.uint()
		if err != nil || x > 1<<31 {
			return nil, errShort
		}
		v[i] = x
	}
	var s [6]string
	for i := range s {
		l, err := d.uint()
		if err != nil || l > uint64(len(d.s)-d.at) {
			return nil, errShort
		}
		s[i] = d.s[d.at : d.at+int(l)]
		d.at += int(l)
	}
	k, err := d.uint()
	if err != nil || k > uint64(cap(d.ptrs)-len(d.ptrs)) {
		return nil, errShort
	}
	d.nodes = append(d.nodes, yaml.Node{Kind: yaml.Kind(v[0]), Style: yaml.Style(v[1]), Line: int(v[2]), Column: int(v[3]),
		Tag: s[0], Value: s[1], Anchor: s[2], HeadComment: s[3], LineComment: s[4], FootComment: s[5]})
	n := &d.nodes[len(d.nodes)-1]
	if n.Kind == yaml.AliasNode {
		return nil, errShort // Encode writes none
	}
	if k == 0 {
		return n, nil
	}
	start := len(d.ptrs)
	end := start + int(k)
	d.ptrs = d.ptrs[:end]
	n.Content = d.ptrs[start:end:end]
	for i := range n.Content {
		if n.Content[i], err = d.node(depth + 1); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// uint reads one unsigned varint.
func (d *decoder) uint() (uint64, error) {
	x, w := binary.Uvarint(d.b[d.at:])
	if w <= 0 {
		return 0, errShort
	}
	d.at += w
	return x, nil
}
