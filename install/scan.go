package install

import (
	"encoding/json"
	"errors"
	"fmt"
)

// node is one JSON value of the file being edited, with where its text
// is: what lets an edit copy every value it did not change byte for byte
// (a compact "allow": [...] stays on its one line).
type node struct {
	start, end int  // data[start:end] is the value's text
	kind       byte // '{', '[', or 0 for a string, number or literal
	members    []member
	elems      []*node
	canon      []byte // the value in one canonical encoding (same), once computed
}

// member is one member of an object node.
type member struct {
	key      string
	keyStart int // where the key's opening quote is
	val      *node
}

// maxScanDepth bounds the scanner's recursion as encoding/json bounds its
// own (the file was decoded by it first).
const maxScanDepth = 10000

var errScan = errors.New("not a JSON value")

// scan finds the values of data, one JSON object (surrounding white space
// allowed), and their byte ranges. Anything but strict JSON is an error:
// the caller then writes the file as a whole instead.
func scan(data []byte) (*node, error) {
	s := &scanner{data: data}
	s.space()
	n, err := s.value(0)
	if err != nil {
		return nil, err
	}
	if n.kind != '{' {
		return nil, fmt.Errorf("%w: not an object", errScan)
	}
	s.space()
	if s.pos != len(data) {
		return nil, fmt.Errorf("%w: data after the value at byte %d", errScan, s.pos)
	}
	return n, nil
}

type scanner struct {
	data []byte
	pos  int
}

func (s *scanner) space() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\r', '\n':
			s.pos++
		default:
			return
		}
	}
}

func (s *scanner) fail(what string) error {
	return fmt.Errorf("%w: %s at byte %d", errScan, what, s.pos)
}

func (s *scanner) value(depth int) (*node, error) {
	if depth > maxScanDepth {
		return nil, s.fail("nested too deeply")
	}
	if s.pos >= len(s.data) {
		return nil, s.fail("unexpected end")
	}
	n := &node{start: s.pos}
	var err error
	switch s.data[s.pos] {
	case '{':
		n.kind = '{'
		err = s.object(n, depth)
	case '[':
		n.kind = '['
		err = s.array(n, depth)
	case '"':
		err = s.str()
	default:
		err = s.scalar()
	}
	if err != nil {
		return nil, err
	}
	n.end = s.pos
	return n, nil
}

func (s *scanner) object(n *node, depth int) error {
	return s.items('}', func() error {
		if s.pos >= len(s.data) || s.data[s.pos] != '"' {
			return s.fail("expected a key")
		}
		m := member{keyStart: s.pos}
		if err := s.str(); err != nil {
			return err
		}
		if err := json.Unmarshal(s.data[m.keyStart:s.pos], &m.key); err != nil {
			return s.fail("bad key")
		}
		s.space()
		if s.pos >= len(s.data) || s.data[s.pos] != ':' {
			return s.fail("expected ':'")
		}
		s.pos++
		s.space()
		v, err := s.value(depth + 1)
		if err != nil {
			return err
		}
		m.val = v
		n.members = append(n.members, m)
		return nil
	})
}

func (s *scanner) array(n *node, depth int) error {
	return s.items(']', func() error {
		v, err := s.value(depth + 1)
		if err != nil {
			return err
		}
		n.elems = append(n.elems, v)
		return nil
	})
}

// items scans a container's items from its opening bracket to close,
// each read by item and separated by commas.
func (s *scanner) items(close byte, item func() error) error {
	s.pos++ // { or [
	s.space()
	if s.pos < len(s.data) && s.data[s.pos] == close {
		s.pos++
		return nil
	}
	for {
		if err := item(); err != nil {
			return err
		}
		s.space()
		if s.pos >= len(s.data) {
			return s.fail("unexpected end")
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
			s.space()
		case close:
			s.pos++
			return nil
		default:
			return s.fail("expected ',' or '" + string(close) + "'")
		}
	}
}

// str skips a string, which must be valid JSON on its own (its escapes).
func (s *scanner) str() error {
	start := s.pos
	s.pos++ // "
	for s.pos < len(s.data) {
		switch c := s.data[s.pos]; {
		case c == '\\':
			s.pos += 2
		case c == '"':
			s.pos++
			if !json.Valid(s.data[start:s.pos]) {
				return s.fail("bad string")
			}
			return nil
		case c < 0x20:
			return s.fail("control character in a string")
		default:
			s.pos++
		}
	}
	return s.fail("unterminated string")
}

// scalar skips a number or literal: everything up to the next delimiter,
// which must be valid JSON on its own.
func (s *scanner) scalar() error {
	start := s.pos
	for s.pos < len(s.data) && !delimiter(s.data[s.pos]) {
		s.pos++
	}
	if s.pos == start || !json.Valid(s.data[start:s.pos]) {
		return s.fail("bad value")
	}
	return nil
}

func delimiter(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}
