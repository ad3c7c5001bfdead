// Package pyyaml reads YAML values as PyYAML and Python read them: Hermes
// loads its config with PyYAML (YAML 1.1 booleans, Python's int() rules)
// and words its warnings with Python's type names and repr(), and
// hermes-hooks reads the same file the same way.
//
// Contract: pure functions of yaml.v3 nodes, but Flatten, which rewrites a
// parsed document's mappings in place once, as PyYAML's constructor reads
// them (merge keys, keys given twice: merge.go); none panics on any node.
package pyyaml

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// MappingGet is the value of key in mapping n (nil: none, or n is not a
// mapping).
func MappingGet(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// WithMapping is a copy of mapping n with key set to the string value.
func WithMapping(n *yaml.Node, key, value string) *yaml.Node {
	c := *n
	c.Content = append(append([]*yaml.Node{}, n.Content...),
		&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key},
		&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value})
	return &c
}

// Value reads a scalar node as the plain Go value consent.AutoAccept
// takes: a boolean (YAML 1.2's, and YAML 1.1's plain yes/no/on/off, as
// PyYAML reads them), a string's text, or nil for anything else (numbers,
// null, collections, and values of tags PyYAML does not know, which it
// would refuse to load at all).
func Value(n *yaml.Node) any {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias // an alias is its anchor's value, as for PyYAML
	}
	if b, ok := Bool(n); ok {
		return b
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		return n.Value
	}
	return nil
}

// IsYAML11Bool reports a plain scalar that YAML 1.1 (PyYAML) reads as a
// boolean and YAML 1.2 as a string (yes, no, on, off …).
func IsYAML11Bool(n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" || n.Style != 0 {
		return false
	}
	_, ok := yaml11Bools[n.Value]
	return ok
}

var yaml11Bools = map[string]bool{
	"yes": true, "Yes": true, "YES": true, "no": false, "No": false, "NO": false,
	"true": true, "True": true, "TRUE": true, "false": false, "False": false, "FALSE": false,
	"on": true, "On": true, "ON": true, "off": false, "Off": false, "OFF": false,
}

// Bool reads a boolean node (YAML 1.2 bools, and YAML 1.1's plain
// yes/no/on/off as PyYAML reads them). A quoted string is never a boolean.
func Bool(n *yaml.Node) (bool, bool) {
	if n.Kind != yaml.ScalarNode {
		return false, false
	}
	if n.Tag == "!!bool" {
		b, ok := yaml11Bools[n.Value]
		return b, ok
	}
	if IsYAML11Bool(n) {
		return yaml11Bools[n.Value], true
	}
	return false, false
}

// Int is Python's int() of the value PyYAML would have produced.
func Int(n *yaml.Node) (int, bool) {
	if n.Kind != yaml.ScalarNode {
		return 0, false
	}
	if b, ok := Bool(n); ok {
		if b {
			return 1, true
		}
		return 0, true
	}
	switch n.Tag {
	case "!!int":
		v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
		if err != nil {
			var ne *strconv.NumError
			if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
				if strings.HasPrefix(n.Value, "-") {
					return math.MinInt32, true
				}
				return math.MaxInt32, true
			}
			return 0, false
		}
		return clampInt(v), true
	case "!!float":
		f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, false
		}
		return clampInt(int64(math.Max(math.Min(math.Trunc(f), math.MaxInt32), math.MinInt32))), true
	case "!!str":
		return pyIntString(n.Value)
	}
	return 0, false
}

func clampInt(v int64) int {
	if v > math.MaxInt32 {
		return math.MaxInt32
	}
	if v < math.MinInt32 {
		return math.MinInt32
	}
	return int(v)
}

// pyIntString is int(s) for a str: surrounding whitespace allowed, an
// optional sign, decimal digits with single underscores between them.
func pyIntString(s string) (int, bool) {
	s = strings.TrimSpace(s)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return 0, false
	}
	var v int64
	for _, c := range s {
		if c == '_' {
			continue
		}
		if c < '0' || c > '9' {
			return 0, false
		}
		if v < math.MaxInt32 {
			v = v*10 + int64(c-'0')
		}
	}
	if neg {
		v = -v
	}
	return clampInt(v), true
}

// Type names the Python type PyYAML would give the node, for messages.
func Type(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "dict"
	case yaml.AliasNode:
		if n.Alias != nil {
			return Type(n.Alias)
		}
	}
	if IsYAML11Bool(n) {
		return "bool"
	}
	switch n.Tag {
	case "!!int":
		return "int"
	case "!!float":
		return "float"
	case "!!bool":
		return "bool"
	case "!!null":
		return "NoneType"
	}
	return "str"
}

// Repr renders the node's value roughly as Python's repr would.
func Repr(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "[…]"
	case yaml.MappingNode:
		return "{…}"
	}
	if b, ok := Bool(n); ok {
		if b {
			return "True"
		}
		return "False"
	}
	switch n.Tag {
	case "!!null":
		return "None"
	case "!!int", "!!float":
		return n.Value
	}
	return "'" + strings.ReplaceAll(n.Value, "'", `\'`) + "'"
}
