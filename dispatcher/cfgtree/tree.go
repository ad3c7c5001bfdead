// Package cfgtree is a YAML document as the dispatcher's config reader
// sees it: nodes with their kind, resolved tag, text, quoting style and
// line, and a compact encoding of them for the parsed-config cache.
//
// Contract: the package does not import a YAML library. A binary that links
// it (the one-shot front, package dispatcher) pays no YAML library's
// start-up work; parsing YAML text is package yamltree's job, wired in by
// package dispatcher/engines. Encode and Decode round-trip every tree at
// most maxDepth deep exactly (kind, tag, value, style, line, children,
// aliases as references), and Decode never panics on any input.
package cfgtree

// Kind is a node's kind; the values are yaml.v3's.
type Kind uint32

const (
	DocumentNode Kind = 1 << iota
	SequenceNode
	MappingNode
	ScalarNode
	AliasNode
)

// Style is a node's presentation (yaml.v3's bits); 0 is a plain scalar.
type Style uint32

// DoubleQuotedStyle is a "…" scalar (yaml.v3's value).
const DoubleQuotedStyle Style = 1 << 1

// Node is one node of a document. A mapping's Content alternates keys and
// values; an alias node points at its anchor's node.
type Node struct {
	Kind    Kind
	Style   Style
	Tag     string
	Value   string
	Line    int
	Content []*Node
	Alias   *Node
}
