package pyjson

import (
	"bytes"
	"encoding/json"
)

// Python's json.loads reads NaN, Infinity and -Infinity, and json.dumps
// writes them (allow_nan is on by default): a Hermes payload can hold
// them whenever the model put them in a tool call's arguments, which
// Hermes reads with json.loads. A payload this package refused would pass
// over every guard that is not fail_closed, so a model could slip a call
// past them by adding "pad": NaN.

// The numbers a non-finite constant is read as first: valid JSON, and
// told apart from a host's own numbers afterwards because a payload that
// holds one of these texts itself is not rewritten.
var nonFinite = []struct{ token, stand string }{
	{"-Infinity", "-1e999999999999999999991"},
	{"Infinity", "1e999999999999999999992"},
	{"NaN", "1e999999999999999999993"},
}

// DecodePayload is Decode for a host's event fields, reading NaN,
// Infinity and -Infinity outside strings as Python's json.loads does: as
// the numbers json.Number("NaN"), ("Infinity") and ("-Infinity")
// (json.Number's Float64 reads them). Anything else that is not JSON is
// Decode's error.
func DecodePayload(data []byte) (any, error) { return withNonFinite(data, Decode) }

// DecodeUniqueReply is DecodeUnique reading NaN, Infinity and -Infinity
// as DecodePayload does: a Hermes hook's reply, which Hermes reads with
// json.loads. A Python guard whose reply holds a score of float('nan')
// (json.dumps writes NaN) blocks in Hermes; refused here as not JSON, its
// block was lost.
func DecodeUniqueReply(data []byte) (any, error) { return withNonFinite(data, DecodeUnique) }

// withNonFinite is decode reading data's non-finite constants as numbers
// (restored as json.Number("NaN") …) when data is not JSON without them;
// the error is decode's of data as it is.
func withNonFinite(data []byte, decode func([]byte) (any, error)) (any, error) {
	v, err := decode(data)
	if err == nil || !bytes.Contains(data, []byte("NaN")) && !bytes.Contains(data, []byte("Infinity")) {
		return v, err
	}
	for _, c := range nonFinite {
		if bytes.Contains(data, []byte(c.stand)) {
			return nil, err
		}
	}
	w, err2 := decode(standIn(data))
	if err2 != nil {
		return nil, err
	}
	return restoreNonFinite(w), nil
}

// standIn is data with each NaN, Infinity and -Infinity outside its
// strings replaced by its stand-in number.
func standIn(data []byte) []byte {
	out := make([]byte, 0, len(data)+64)
	var str StringScan
	for i := 0; i < len(data); i++ {
		c := data[i]
		if str.In(c) {
			out = append(out, c)
			continue
		}
		replaced := false
		for _, nf := range nonFinite {
			if bytes.HasPrefix(data[i:], []byte(nf.token)) && startsValue(data, i) && endsValue(data, i+len(nf.token)) {
				out = append(out, nf.stand...)
				i += len(nf.token) - 1
				replaced = true
				break
			}
		}
		if !replaced {
			out = append(out, c)
		}
	}
	return out
}

// restoreNonFinite puts the non-finite numbers in place of their
// stand-ins, in place.
func restoreNonFinite(v any) any {
	switch x := v.(type) {
	case json.Number:
		for _, nf := range nonFinite {
			if string(x) == nf.stand {
				return json.Number(nf.token)
			}
		}
	case map[string]any:
		for k, e := range x {
			x[k] = restoreNonFinite(e)
		}
	case []any:
		for i, e := range x {
			x[i] = restoreNonFinite(e)
		}
	}
	return v
}

// startsValue is whether a value may start at data[i] (after a bracket,
// a colon, a comma, whitespace or nothing), so that -NaN and 1NaN stay
// errors, as they are to Python.
func startsValue(data []byte, i int) bool {
	if i == 0 {
		return true
	}
	switch data[i-1] {
	case '[', ':', ',', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// endsValue is whether a value may end before data[i].
func endsValue(data []byte, i int) bool {
	if i == len(data) {
		return true
	}
	switch data[i] {
	case ']', '}', ',', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}
