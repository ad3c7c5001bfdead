package pyjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// DecodeOrdered parses exactly one JSON value like Decode, but objects come
// back as OrderedObject, members in the order the text has them: for
// editing a file someone else wrote without reordering it.
func DecodeOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeOrderedValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		off := dec.InputOffset()
		for off < int64(len(data)) && strings.ContainsRune(" \t\r\n", rune(data[off])) {
			off++
		}
		return nil, &TrailingError{Offset: off}
	}
	return v, nil
}

// TrailingError is DecodeOrdered's error for text after the JSON value;
// Offset is where it starts.
type TrailingError struct{ Offset int64 }

func (e *TrailingError) Error() string { return errTrailing.Error() }

// MaxDepth bounds how deep DecodeOrdered reads arrays and objects in each
// other, as encoding/json bounds its own decoding: json.Decoder's Token,
// which DecodeOrdered walks, has no bound, and its recursion would run
// out of stack on a file of a few MB of '[' (a fatal error, not one a
// caller can handle).
const MaxDepth = 10000

// DepthError is DecodeOrdered's error for a document nested deeper than
// MaxDepth; Offset is just after the bracket that goes too deep.
type DepthError struct{ Offset int64 }

func (e *DepthError) Error() string {
	return fmt.Sprintf("nested more than %d deep", MaxDepth)
}

// OrderedObject is a JSON object that keeps its members' order.
type OrderedObject []Member

// Member is one member of an OrderedObject.
type Member struct {
	Key   string
	Value any
}

// Len and Member make it Ordered.
func (o OrderedObject) Len() int { return len(o) }

// Member returns the i-th member.
func (o OrderedObject) Member(i int) (string, any) { return o[i].Key, o[i].Value }

// Get returns the value of key.
func (o OrderedObject) Get(key string) (any, bool) {
	for _, m := range o {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

// Set replaces the value of key, or appends the member.
func (o OrderedObject) Set(key string, v any) OrderedObject {
	for i := range o {
		if o[i].Key == key {
			o[i].Value = v
			return o
		}
	}
	return append(o, Member{Key: key, Value: v})
}

// Delete removes key.
func (o OrderedObject) Delete(key string) OrderedObject {
	out := o[:0]
	for _, m := range o {
		if m.Key != key {
			out = append(out, m)
		}
	}
	return out
}

func decodeOrderedValue(dec *json.Decoder, depth int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth++; depth > MaxDepth {
			return nil, &DepthError{Offset: dec.InputOffset()}
		}
		switch t {
		case '{':
			obj := OrderedObject{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := kt.(string)
				v, err := decodeOrderedValue(dec, depth)
				if err != nil {
					return nil, err
				}
				obj = append(obj, Member{Key: key, Value: v})
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return obj, nil
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := decodeOrderedValue(dec, depth)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return arr, nil
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil
	}
}
