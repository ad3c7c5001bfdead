// Package pyyaml reads YAML values as PyYAML and Python read them: Hermes
// loads its config with PyYAML (YAML 1.1 booleans, Python's int() rules)
// and words its warnings with Python's type names and repr(), and
// hermes-hooks reads the same file the same way.
//
// Contract: pure functions of yaml.v3 nodes, but Flatten, which rewrites a
// parsed document's mappings in place once, as PyYAML's constructor reads
// them (merge keys, keys given twice: merge.go), and Resolve, which
// retags its plain scalars once as PyYAML's resolver types them (YAML
// 1.1 numbers, base 60, timestamps: resolve.go); none panics on any node.
package pyyaml

import (
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
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

// OwnText is the text of n for a key only hermes-hooks reads, as such
// keys have always been read (YAML 1.2, yaml.v3): a string, or a plain
// scalar that Resolve types as a number only by YAML 1.1's base 60
// (10:30, 1:30.5), which YAML 1.2 reads as text. Resolve keeps yes/no
// text for the same reason. ok is false for anything else.
func OwnText(n *yaml.Node) (string, bool) {
	if n == nil || n.Kind != yaml.ScalarNode {
		return "", false
	}
	switch {
	case n.Tag == "!!str":
		return n.Value, true
	case n.Style == 0 && (n.Tag == "!!int" || n.Tag == "!!float") && strings.Contains(n.Value, ":"):
		return n.Value, true
	}
	return "", false
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
		return pyInt(n.Value)
	case "!!float":
		f, ok := pyFloat(n.Value)
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
			// int() of nan is a ValueError and of inf an OverflowError.
			return 0, false
		}
		return clampFloat(math.Abs(f), f < 0), true
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
	case "!!timestamp":
		// PyYAML makes a date of a date alone, else a datetime.
		if len(n.Value) == len("2006-01-02") {
			return "date"
		}
		return "datetime"
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
	case "!!int":
		if v, ok := pyInt(n.Value); ok {
			return strconv.Itoa(v)
		}
		return n.Value
	case "!!float":
		if f, ok := pyFloat(n.Value); ok {
			return floatRepr(f)
		}
		return n.Value
	}
	return "'" + strings.ReplaceAll(n.Value, "'", `\'`) + "'"
}

// floatRepr is Python's repr of a float (30.0, 1e+16, nan, -inf).
func floatRepr(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return pyjson.FloatRepr(f)
}
