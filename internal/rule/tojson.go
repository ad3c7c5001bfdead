package rule

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// toJSON is expr's toJSON (json.MarshalIndent with two spaces, the same
// bytes), refusing before it indents an output larger than
// maxIndentedJSON. Its compact form is linear in the value (at most six
// bytes per byte of a string), but indentation is not: each line carries
// two spaces per level, so a list nested 9,000 levels deep — 18 KB of
// payload, within the host's JSON decoder's 10,000 levels — indents to
// 160 MB, and a hostile payload of such lists to any size.
func toJSON(params ...any) (any, error) {
	compact, err := json.Marshal(params[0])
	if err != nil {
		return nil, err
	}
	size := indentedSize(compact)
	if limit := maxIndentedJSON(len(compact)); size > limit {
		return nil, fmt.Errorf("toJSON would build %d bytes (the value is nested too deep); at most %d", size, limit)
	}
	var b bytes.Buffer
	b.Grow(size)
	if err := json.Indent(&b, compact, "", "  "); err != nil {
		return nil, err
	}
	return b.String(), nil
}

// maxIndentedJSON is what toJSON may build of a value whose compact JSON
// is n bytes: a small multiple of it (a dense list of numbers a few
// levels deep indents to several times its size), and never less than
// MaxConcatBytes, so that no value of an honest firing is refused.
func maxIndentedJSON(n int) int { return max(16*n, MaxConcatBytes) }

// indentedSize is the length of json.Indent(compact, "", "  ") for the
// compact JSON json.Marshal writes (no whitespace between tokens): a line
// break and two spaces per level before each element and before the
// bracket that closes a non-empty list or object, a space after each
// colon.
func indentedSize(compact []byte) int {
	size, depth := len(compact), 0
	opened := false
	var str pyjson.StringScan
	for _, c := range compact {
		if str.In(c) {
			opened = false
			continue
		}
		switch c {
		case '}', ']':
			depth--
			if !opened {
				size += 1 + 2*depth
			}
			opened = false
			continue
		}
		if opened {
			size += 1 + 2*depth // the first element of a list or object
		}
		opened = false
		switch c { // a string's opening quote: str.In reads on from it
		case '{', '[':
			depth++
			opened = true
		case ',':
			size += 1 + 2*depth
		case ':':
			size++
		}
	}
	return size
}

// fromJSON is expr's fromJSON (json.Unmarshal into any), refusing before
// it decodes a document of more than maxPieces values. A document costs
// some 24 bytes a value however short its text ("0," is two bytes), and
// expr's memory budget counts none of them: unbounded, a 60 MB command
// decoded to 700 MB, on past the time bound.
func fromJSON(params ...any) (any, error) {
	s := params[0].(string)
	if n := jsonValues(s); n > maxPieces {
		return nil, fmt.Errorf("fromJSON would build %d values; at most %d", n, maxPieces)
	}
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return nil, err
	}
	return v, nil
}

// jsonValues is an upper bound of the values JSON text s decodes to: one,
// and one more for each comma, bracket and brace outside its strings.
func jsonValues(s string) int {
	n := 1
	var str pyjson.StringScan
	for i := 0; i < len(s); i++ {
		if c := s[i]; !str.In(c) && (c == ',' || c == '[' || c == '{') {
			n++
		}
	}
	return n
}
