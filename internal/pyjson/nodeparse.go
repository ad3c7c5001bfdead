package pyjson

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// An agent written in Node reads its settings with JSON.parse, which takes
// numbers of any magnitude (1e400 is Infinity), nesting of any depth, and
// keys given twice (the last wins). Go's encoding/json refuses the first
// two, so a file that sets a switch Node reads, next to one of those under
// a key the agent ignores, read as no switch at all: a repository could
// turn the user's guards off while doctor said they fire. ParseNode reads
// as JSON.parse reads.

// NodeBuildDepth is how deep ParseNode builds the arrays and objects it
// returns; deeper ones are checked as JSON.parse checks them and stand as
// a Deep. Readers of settings look a few levels down; building a file of
// millions of '[' would take hundreds of MB.
const NodeBuildDepth = 32

// Deep is an array or object nested deeper than NodeBuildDepth: valid,
// not built (JavaScript counts either as true).
type Deep struct{ Array bool }

// container is one open array or object that ParseNode builds.
type container struct {
	object bool
	obj    map[string]any
	arr    []any
	key    string // the member whose value comes next (objects)
}

// ParseNode reads data as Node reads a settings file: readFileSync's
// UTF-8 decoding (each ill-formed sequence one U+FFFD), then JSON.parse.
// ok is false where JSON.parse throws. Objects are map[string]any (a key
// given twice: its last value), arrays []any, numbers float64 (±Inf past
// float64's range, as JavaScript has them), and containers deeper than
// NodeBuildDepth a Deep. It never recurses: the containers it builds are
// a slice, and those deeper one bit each (an object or an array), so a
// file of 4 MiB of '[' takes 512 KiB of stack, and its work is linear in
// len(data).
func ParseNode(data []byte) (v any, ok bool) {
	if !utf8.Valid(data) {
		data = []byte(DecodeReplace(data))
	}
	p := nodeParser{data: data}
	return p.parse()
}

type nodeParser struct {
	data  []byte
	pos   int
	stack []container
	// deep are the open containers below stack's, a bit each (1: an
	// object), deepN of them.
	deep  []uint64
	deepN int
}

func (p *nodeParser) open() bool { return len(p.stack)+p.deepN > 0 }

// push opens a container.
func (p *nodeParser) push(object bool) {
	if len(p.stack) < NodeBuildDepth {
		k := container{object: object}
		if object {
			k.obj = map[string]any{}
		} else {
			k.arr = []any{}
		}
		p.stack = append(p.stack, k)
		return
	}
	w, b := p.deepN/64, uint(p.deepN%64)
	if w == len(p.deep) {
		p.deep = append(p.deep, 0)
	}
	if object {
		p.deep[w] |= 1 << b
	} else {
		p.deep[w] &^= 1 << b
	}
	p.deepN++
}

// object reports whether the innermost container is an object.
func (p *nodeParser) object() bool {
	if p.deepN > 0 {
		n := p.deepN - 1
		return p.deep[n/64]&(1<<uint(n%64)) != 0
	}
	return p.stack[len(p.stack)-1].object
}

// add puts val in the innermost container (dropped in one not built).
func (p *nodeParser) add(val any) {
	if p.deepN > 0 {
		return
	}
	top := &p.stack[len(p.stack)-1]
	if top.object {
		top.obj[top.key] = val
	} else {
		top.arr = append(top.arr, val)
	}
}

// setKey names the member whose value comes next.
func (p *nodeParser) setKey(k string) {
	if p.deepN == 0 {
		p.stack[len(p.stack)-1].key = k
	}
}

// pop closes the innermost container and returns it as a value.
func (p *nodeParser) pop() any {
	if p.deepN > 0 {
		object := p.object()
		p.deepN--
		return Deep{Array: !object}
	}
	k := p.stack[len(p.stack)-1]
	p.stack = p.stack[:len(p.stack)-1]
	if k.object {
		return k.obj
	}
	return k.arr
}

func (p *nodeParser) parse() (any, bool) {
	for {
		p.space()
		if p.pos >= len(p.data) {
			return nil, false
		}
		var val any
		switch c := p.data[p.pos]; {
		case c == '{' || c == '[':
			p.pos++
			p.push(c == '{')
			p.space()
			if p.pos < len(p.data) && p.data[p.pos] == closer(c == '{') {
				p.pos++
				val = p.pop()
				break
			}
			if c == '{' && !p.key() {
				return nil, false
			}
			continue // the first value
		default:
			var ok bool
			if val, ok = p.scalar(); !ok {
				return nil, false
			}
		}
		// A value is complete: add it to its container, then read on
		// past ',' to the next value or past the closer to the
		// container's own end.
		for {
			if !p.open() {
				p.space()
				return val, p.pos == len(p.data)
			}
			p.add(val)
			p.space()
			if p.pos >= len(p.data) {
				return nil, false
			}
			object := p.object()
			if c := p.data[p.pos]; c == ',' {
				p.pos++
				if object && !p.key() {
					return nil, false
				}
				break
			} else if c != closer(object) {
				return nil, false
			}
			p.pos++
			val = p.pop()
		}
	}
}

func closer(object bool) byte {
	if object {
		return '}'
	}
	return ']'
}

// key reads a member's name and its ':' into the innermost container.
func (p *nodeParser) key() bool {
	p.space()
	if p.pos >= len(p.data) || p.data[p.pos] != '"' {
		return false
	}
	s, ok := p.str()
	if !ok {
		return false
	}
	p.space()
	if p.pos >= len(p.data) || p.data[p.pos] != ':' {
		return false
	}
	p.pos++
	p.setKey(s)
	return true
}

// space skips JSON.parse's whitespace: space, tab, LF, CR only.
func (p *nodeParser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *nodeParser) scalar() (any, bool) {
	switch c := p.data[p.pos]; {
	case c == '"':
		return p.str()
	case c == '-' || '0' <= c && c <= '9':
		return p.number()
	}
	for _, lit := range []struct {
		text string
		v    any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if len(p.data)-p.pos >= len(lit.text) && string(p.data[p.pos:p.pos+len(lit.text)]) == lit.text {
			p.pos += len(lit.text)
			return lit.v, true
		}
	}
	return nil, false
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? as a
// float64: past its range ±Inf, below it 0, as JavaScript reads it.
func (p *nodeParser) number() (any, bool) {
	start := p.pos
	if p.data[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos < len(p.data) && p.data[p.pos] == '0':
		p.pos++
	case p.digits() == 0:
		return nil, false
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if p.digits() == 0 {
			return nil, false
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if p.digits() == 0 {
			return nil, false
		}
	}
	// The text is valid: ParseFloat's only error is ErrRange, and its
	// value then is ±Inf or 0, JavaScript's.
	f, _ := strconv.ParseFloat(string(p.data[start:p.pos]), 64)
	return f, true
}

func (p *nodeParser) digits() int {
	n := 0
	for p.pos < len(p.data) && '0' <= p.data[p.pos] && p.data[p.pos] <= '9' {
		p.pos++
		n++
	}
	return n
}

// str reads a string at p.pos ('"'): no control character unescaped,
// the escapes JSON has; a \u escape of a lone surrogate (a JavaScript
// string holds one) is U+FFFD here.
func (p *nodeParser) str() (string, bool) {
	p.pos++
	var out []byte
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(out), true
		case c < 0x20:
			return "", false
		case c != '\\':
			out = append(out, c)
			p.pos++
			continue
		}
		p.pos++
		if p.pos >= len(p.data) {
			return "", false
		}
		e := p.data[p.pos]
		p.pos++
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", false
			}
			if utf16.IsSurrogate(r) && p.pos+1 < len(p.data) && p.data[p.pos] == '\\' && p.data[p.pos+1] == 'u' {
				save := p.pos
				p.pos += 2
				if r2, ok := p.hex4(); ok && utf16.DecodeRune(r, r2) != utf8.RuneError {
					r = utf16.DecodeRune(r, r2)
				} else {
					p.pos = save
				}
			}
			out = utf8.AppendRune(out, r) // a lone surrogate: U+FFFD
		default:
			return "", false
		}
	}
	return "", false
}

func (p *nodeParser) hex4() (rune, bool) {
	if len(p.data)-p.pos < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(p.data[p.pos:p.pos+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	p.pos += 4
	return rune(n), true
}
