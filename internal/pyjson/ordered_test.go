package pyjson

import (
	"bytes"
	"errors"
	"os"
	"testing"
)

// TestJSIndentRoundTrip: a file node wrote with JSON.stringify(v, null, 2)
// (testdata/jsonstringify.json: escapes, U+2028 raw, -0, 1e21, empty
// containers, nesting) decodes in order and re-encodes to the same bytes,
// which is what lets install edit Claude Code's and Cursor's files without
// touching what it does not own.
func TestJSIndentRoundTrip(t *testing.T) {
	data, err := os.ReadFile("testdata/jsonstringify.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := DecodeOrdered(data)
	if err != nil {
		t.Fatal(err)
	}
	got := string(Encode(v, JSIndent)) + "\n"
	if got != string(data) {
		t.Fatalf("round trip differs:\n%s\nwant:\n%s", got, data)
	}
}

func TestOrderedObjectEdit(t *testing.T) {
	v, err := DecodeOrdered([]byte(`{"b":1,"a":{"y":2,"x":3}}`))
	if err != nil {
		t.Fatal(err)
	}
	o := v.(OrderedObject)
	o = o.Set("c", true).Set("b", 9).Delete("a")
	if got := string(Encode(o, Compact)); got != `{"b":9,"c":true}` {
		t.Fatalf("edited = %s", got)
	}
	if _, ok := o.Get("a"); ok {
		t.Fatal("deleted key still there")
	}
	for _, bad := range []string{`{"a":1} {}`, `{"a":}`, `[1,`, ``} {
		if _, err := DecodeOrdered([]byte(bad)); err == nil {
			t.Errorf("DecodeOrdered(%q) succeeded", bad)
		}
	}
}

// FuzzDecodeOrdered: what DecodeOrdered accepts re-encodes (JSON.stringify
// layout) to text that decodes to the same document.
func FuzzDecodeOrdered(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[1,{"c":null}]}`, `[]`, `"x"`, `{"a":1.50,"b":-0,"c":1e21}`, `{"a":"\u2028\n"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := DecodeOrdered(data)
		if err != nil {
			return
		}
		once := Encode(v, JSIndent)
		w, err := DecodeOrdered(once)
		if err != nil {
			t.Fatalf("re-encoded %q does not decode: %v", once, err)
		}
		if twice := Encode(w, JSIndent); string(twice) != string(once) {
			t.Fatalf("not stable:\n%s\n%s", once, twice)
		}
	})
}

// TestDecodeOrderedDepth: a document nested deeper than encoding/json
// allows (10000) is an error, not a stack overflow: json.Decoder's Token,
// which DecodeOrdered walks, has no bound of its own, and a hook file of
// a few MB of '[' (a repository can ship one) crashed install and doctor.
func TestDecodeOrderedDepth(t *testing.T) {
	deep := bytes.Repeat([]byte("["), 4<<20)
	_, err := DecodeOrdered(deep)
	var de *DepthError
	if !errors.As(err, &de) || de.Offset != MaxDepth+1 {
		t.Fatalf("err = %v, want a DepthError at %d", err, MaxDepth+1)
	}
	ok := append(bytes.Repeat([]byte("["), MaxDepth), bytes.Repeat([]byte("]"), MaxDepth)...)
	if _, err := DecodeOrdered(ok); err != nil {
		t.Fatalf("%d deep: %v", MaxDepth, err)
	}
}
