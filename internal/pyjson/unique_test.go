package pyjson

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestDecodeUnique(t *testing.T) {
	for _, tc := range []struct {
		in, dup string
	}{
		{in: `{"decision":"block","decision":"approve"}`, dup: "decision"},
		{in: `{"a":1,"b":{"c":2,"c":3}}`, dup: "c"},
		{in: `{"a":[{"x":1},{"x":2,"y":":","y":"}"}]}`, dup: "y"},
		{in: `{"decision":"block","\u0064ecision":"approve"}`, dup: "decision"},
		{in: `{"a":"\"","a":"b"}`, dup: "a"},
		{in: `{"a":{"b":1},"c":{"b":1}}`},
		{in: `{"k:":"v:","x":"\\","y":"\\\":"}`},
		{in: `[{"a":1},{"a":1}]`},
		{in: `"a:b"`},
		{in: `{}`},
	} {
		v, err := DecodeUnique([]byte(tc.in))
		var de *DuplicateError
		switch {
		case tc.dup == "" && err != nil:
			t.Errorf("%s: %v", tc.in, err)
		case tc.dup != "" && (!errors.As(err, &de) || de.Name != tc.dup):
			t.Errorf("%s: %v (%v), want %q appears twice", tc.in, err, v, tc.dup)
		}
	}
	if _, err := DecodeUnique([]byte(`{"a":1} x`)); err == nil {
		t.Error("trailing data decoded")
	}
}

// FuzzDecodeUnique: DecodeUnique refuses exactly the valid texts whose
// objects name a member twice, and decodes the rest as Decode does.
func FuzzDecodeUnique(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `{"a":"\"","b":[{"c":":"}]}`, `[{"a":{"a":1}}]`, `{"\u0061":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, werr := Decode(data)
		got, err := DecodeUnique(data)
		if werr != nil {
			if err == nil {
				t.Fatalf("%q: DecodeUnique accepted what Decode refuses", data)
			}
			return
		}
		dup := hasDuplicate(t, data)
		var de *DuplicateError
		switch {
		case dup && !errors.As(err, &de):
			t.Fatalf("%q: a duplicate name not refused: %v", data, err)
		case !dup && err != nil:
			t.Fatalf("%q: %v", data, err)
		case !dup:
			a, _ := json.Marshal(want)
			b, _ := json.Marshal(got)
			if string(a) != string(b) {
				t.Fatalf("%q: %s, want %s", data, b, a)
			}
		}
	})
}

// hasDuplicate is the oracle: DecodeOrdered keeps every member.
func hasDuplicate(t *testing.T, data []byte) bool {
	v, err := DecodeOrdered(data)
	if err != nil {
		t.Skip(err) // deeper than DecodeOrdered reads
	}
	var walk func(any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case OrderedObject:
			seen := map[string]bool{}
			for _, m := range x {
				if seen[m.Key] || walk(m.Value) {
					return true
				}
				seen[m.Key] = true
			}
		case []any:
			for _, m := range x {
				if walk(m) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}
