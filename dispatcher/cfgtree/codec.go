package cfgtree

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// The encoding is JSON, one array per node:
//
//	[kind, style, line, tag, value, [children…], alias-or-null]
//
// It is read with the generic decoder the dispatcher links anyway (no
// reflection over struct types), which costs a one-shot dispatch far less
// than parsing the YAML again.

// maxDepth bounds nesting on decode; a config is a few levels deep.
const maxDepth = 64

// maxNodes bounds a decoded tree (aliases can share subtrees).
const maxNodes = 1 << 20

// Encode writes root (nil for an empty document) in the cache's encoding.
func Encode(root *Node) []byte {
	var out []byte
	return appendNode(out, root, 0)
}

func appendNode(out []byte, n *Node, depth int) []byte {
	if n == nil || depth > maxDepth {
		return append(out, "null"...)
	}
	out = append(out, '[')
	out = strconv.AppendUint(out, uint64(n.Kind), 10)
	out = append(out, ',')
	out = strconv.AppendUint(out, uint64(n.Style), 10)
	out = append(out, ',')
	out = strconv.AppendInt(out, int64(n.Line), 10)
	out = append(out, ',')
	out = pyjson.Append(out, n.Tag, pyjson.Compact)
	out = append(out, ',')
	out = pyjson.Append(out, n.Value, pyjson.Compact)
	out = append(out, ",["...)
	for i, c := range n.Content {
		if i > 0 {
			out = append(out, ',')
		}
		out = appendNode(out, c, depth+1)
	}
	out = append(out, "],"...)
	out = appendNode(out, n.Alias, depth+1)
	return append(out, ']')
}

var errBroken = errors.New("cfgtree: not an encoded tree")

// Decode reads what Encode wrote; anything else is an error.
func Decode(data []byte) (*Node, error) {
	v, err := pyjson.Decode(data)
	if err != nil {
		return nil, err
	}
	budget := maxNodes
	return decodeNode(v, 0, &budget)
}

func decodeNode(v any, depth int, budget *int) (*Node, error) {
	if v == nil {
		return nil, nil
	}
	a, ok := v.([]any)
	if !ok || len(a) != 7 || depth > maxDepth || *budget <= 0 {
		return nil, errBroken
	}
	*budget--
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
	if len(content) > 0 {
		n.Content = make([]*Node, len(content))
	}
	for i, c := range content {
		child, err := decodeNode(c, depth+1, budget)
		if err != nil || child == nil {
			return nil, errBroken
		}
		n.Content[i] = child
	}
	alias, err := decodeNode(a[6], depth+1, budget)
	if err != nil {
		return nil, err
	}
	n.Alias = alias
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
