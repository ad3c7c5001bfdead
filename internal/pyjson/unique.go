package pyjson

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// DuplicateError is DecodeUnique's error for an object that names a member
// twice; Name is that member's name.
type DuplicateError struct{ Name string }

func (e *DuplicateError) Error() string {
	return strconv.Quote(e.Name) + " appears twice"
}

// DecodeUnique is Decode for a reply that decides something: an object
// naming a member twice is an error (*DuplicateError), not its last value.
// Parsers disagree on which of the two counts (Go, Python and JavaScript
// take the last, others the first), and a reply built from its input
// without escaping is how a second "decision" gets in: the value the
// writer meant cannot be known, so neither may be taken.
func DecodeUnique(data []byte) (any, error) {
	v, err := Decode(data)
	if err != nil {
		return nil, err
	}
	// The text's member count (its colons outside strings) against the
	// decoded objects' one: equal unless a name came twice, found by a
	// cheap scan rather than a second, tokenised parse of every reply.
	if membersIn(data) == membersOf(v) {
		return v, nil
	}
	return nil, &DuplicateError{Name: duplicateName(data)}
}

// membersIn counts the members of the objects of valid JSON text: its
// colons outside strings.
func membersIn(data []byte) int {
	n, inString := 0, false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case inString && c == '\\':
			i++ // the escaped byte cannot end the string
		case c == '"':
			inString = !inString
		case !inString && c == ':':
			n++
		}
	}
	return n
}

// membersOf counts the members of the objects in a decoded value.
func membersOf(v any) int {
	switch x := v.(type) {
	case map[string]any:
		n := len(x)
		for _, m := range x {
			n += membersOf(m)
		}
		return n
	case []any:
		n := 0
		for _, m := range x {
			n += membersOf(m)
		}
		return n
	}
	return 0
}

// duplicateName is the first member name valid JSON text repeats within
// one object, for the message (the text is known to hold one).
func duplicateName(data []byte) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	// One set of names per open object; nil for an open array.
	var open []map[string]bool
	expectKey := false
	for {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				open = append(open, map[string]bool{})
				expectKey = true
				continue
			case '[':
				open = append(open, nil)
			default:
				open = open[:len(open)-1]
			}
		case string:
			if expectKey {
				names := open[len(open)-1]
				if names[t] {
					return t
				}
				names[t] = true
				expectKey = false
				continue
			}
		}
		// After a value: in an object, a key comes next.
		expectKey = len(open) > 0 && open[len(open)-1] != nil
	}
}
