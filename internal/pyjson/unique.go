package pyjson

import "strconv"

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
	v, err := DecodeOrdered(data)
	if err != nil {
		return ""
	}
	return repeated(v)
}

// repeated is the first name an object of v holds twice, in document
// order: an object's own names before those inside its values.
func repeated(v any) string {
	switch x := v.(type) {
	case OrderedObject:
		seen := make(map[string]bool, len(x))
		for _, m := range x {
			if seen[m.Key] {
				return m.Key
			}
			seen[m.Key] = true
			if name := repeated(m.Value); name != "" {
				return name
			}
		}
	case []any:
		for _, m := range x {
			if name := repeated(m); name != "" {
				return name
			}
		}
	}
	return ""
}
