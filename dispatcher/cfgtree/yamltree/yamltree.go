// Package yamltree parses YAML text into the dispatcher's config tree
// (package cfgtree) with yaml.v3.
//
// Contract: Parse returns the document's root node (nil for an empty
// document) with yaml.v3's kinds, resolved tags, values, styles and lines,
// and yaml.v3's own error for text that is not YAML; it never panics.
// Package dispatcher does not import this package, so that the one-shot
// front does not run yaml.v3's initialisation at every start; package
// dispatcher/engines wires it in.
package yamltree

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes-hooks/dispatcher/cfgtree"
)

// Parse parses one YAML document.
func Parse(data []byte) (root *cfgtree.Node, err error) {
	defer func() {
		// yaml.v3 has panicked on hostile input in the past; a config
		// must never take the dispatcher down.
		if r := recover(); r != nil {
			root, err = nil, fmt.Errorf("cannot parse YAML: %v", r)
		}
	}()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	seen := map[*yaml.Node]*cfgtree.Node{}
	return convert(doc.Content[0], seen), nil
}

// convert copies n; seen keeps a node shared by aliases shared (and the
// copy linear in the document's size).
func convert(n *yaml.Node, seen map[*yaml.Node]*cfgtree.Node) *cfgtree.Node {
	if n == nil {
		return nil
	}
	if c, ok := seen[n]; ok {
		return c
	}
	c := &cfgtree.Node{
		Kind:  cfgtree.Kind(n.Kind),
		Style: cfgtree.Style(n.Style),
		Tag:   n.Tag,
		Value: n.Value,
		Line:  n.Line,
	}
	seen[n] = c
	if len(n.Content) > 0 {
		c.Content = make([]*cfgtree.Node, len(n.Content))
		for i, k := range n.Content {
			c.Content[i] = convert(k, seen)
		}
	}
	c.Alias = convert(n.Alias, seen)
	return c
}
