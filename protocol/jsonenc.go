package protocol

import "github.com/hermes-hooks/hermes-hooks/internal/pyjson"

// JSON as the hosts write it. The encoder itself lives in internal/pyjson,
// shared with the allowlist file and the CLI's reports; these names are the
// protocol's view of it.

// KV is one member of an ordered JSON object.
type KV struct {
	Key   string
	Value any
}

// Object is a JSON object whose members keep their order. Payloads and the
// Hermes wire shape are built from Objects because their key order is part of
// the contract (Hermes hooks that print or diff their stdin see it).
type Object []KV

// Len and Member make an Object a pyjson.Ordered.
func (o Object) Len() int { return len(o) }

// Member returns the i-th member.
func (o Object) Member(i int) (string, any) { return o[i].Key, o[i].Value }

// MarshalJSON encodes o compactly, in order, without HTML escaping.
func (o Object) MarshalJSON() ([]byte, error) {
	return pyjson.Append(nil, o, Compact), nil
}

// JSONStyle selects separators and escaping.
type JSONStyle = pyjson.Style

const (
	// Compact is JavaScript's JSON.stringify: no spaces, non-ASCII raw.
	// Claude Code writes hook stdin this way.
	Compact = pyjson.Compact
	// Python is Python's json.dumps defaults with ensure_ascii=False:
	// ", " and ": " separators, non-ASCII raw. Hermes writes hook stdin so.
	Python = pyjson.Python
	// PythonASCII is json.dumps with its defaults (ensure_ascii=True), the
	// form of Hermes' "parsed (Hermes wire shape)" lines.
	PythonASCII = pyjson.PythonASCII
)

// AppendJSON appends the JSON encoding of v in the given style. It never
// fails: values JSON cannot represent (channels, functions, cycles deeper
// than 512 levels, NaN) become their string form or null, as Hermes'
// json.dumps(default=str) would stringify them.
func AppendJSON(buf []byte, v any, style JSONStyle) []byte { return pyjson.Append(buf, v, style) }

// EncodeJSON is AppendJSON into a fresh slice.
func EncodeJSON(v any, style JSONStyle) []byte { return pyjson.Append(nil, v, style) }

// DecodeJSON parses exactly one JSON value. Numbers stay json.Number so that
// they are passed on to hooks exactly as the host wrote them.
func DecodeJSON(data []byte) (any, error) { return pyjson.Decode(data) }

// toValidUTF8 decodes hook output as Python's bytes.decode("utf-8",
// "replace") does.
func toValidUTF8(b []byte) string { return pyjson.DecodeReplace(b) }
