package pyjson

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// DecodePayload reads what Python's json.loads reads of a payload: the
// non-finite constants outside strings too, and nothing more.
func TestDecodePayloadNonFinite(t *testing.T) {
	for in, want := range map[string]any{
		`{"a":NaN,"b":[Infinity,-Infinity],"c":{"d":NaN}}`: map[string]any{"a": json.Number("NaN"),
			"b": []any{json.Number("Infinity"), json.Number("-Infinity")}, "c": map[string]any{"d": json.Number("NaN")}},
		`{"s":"NaN Infinity \" -Infinity \\", "n":NaN}`: map[string]any{"s": `NaN Infinity " -Infinity \`, "n": json.Number("NaN")},
		`NaN`:            json.Number("NaN"),
		`{"n":1}`:        map[string]any{"n": json.Number("1")},
		` [ -Infinity ]`: []any{json.Number("-Infinity")},
	} {
		got, err := DecodePayload([]byte(in))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("DecodePayload(%s) = %#v, %v; want %#v", in, got, err, want)
		}
	}
	if f, err := json.Number("-Infinity").Float64(); err != nil || !math.IsInf(f, -1) {
		t.Errorf("json.Number(-Infinity).Float64() = %v, %v", f, err)
	}
	for _, in := range []string{`{"n":nan}`, `{"n":NaNa}`, `{"n":Infinityx}`, `{"n":+Infinity}`, `{"n":-NaN}`, `{"n":1NaN}`, `{"n":NaN1}`, `{"n":NaNNaN}`, `{NaN:1}`,
		`{"n":1e999999999999999999993,"m":NaN}`, `[NaN,]`, `{"a":"NaN}`, strings.Repeat("[", 20000) + "NaN"} {
		if v, err := DecodePayload([]byte(in)); err == nil {
			t.Errorf("DecodePayload(%.40q) = %#v, want an error", in, v)
		}
	}
}

func FuzzDecodePayload(f *testing.F) {
	for _, s := range []string{`{"a":NaN}`, `{"s":"NaN\"","b":[Infinity]}`, `-Infinity`, `{"a":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := DecodePayload(data)
		if w, werr := Decode(data); werr == nil && (err != nil || !reflect.DeepEqual(v, w)) {
			t.Fatalf("valid JSON %q decoded as %#v, %v; Decode: %#v", data, v, err, w)
		}
	})
}
