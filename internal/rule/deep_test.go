package rule

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// deepList is a list nested depth times: what a hostile payload of 2×depth
// bytes holds (the host's JSON decoder stops at 10,000 levels).
func deepList(depth int) any {
	var v any = []any{}
	for i := 1; i < depth; i++ {
		v = []any{v}
	}
	return v
}

// A firing's shape, not only its size, must not make a rule build more
// than a small multiple of it: expr's toJSON indents, and the indentation
// of a list nested 9,000 levels (18 KB of payload) is 160 MB.
func TestToJSONOfDeepFiringBounded(t *testing.T) {
	saved := defaultBound
	defaultBound = 5 * time.Minute
	defer func() { defaultBound = saved }()
	in := &Input{Args: map[string]any{"command": "ls", "x": deepList(9000)}}
	in.Payload = map[string]any{"tool_input": in.Args}
	for _, src := range []string{`toJSON(payload) contains "rm -rf"`, `len(toJSON(args.x)) > 0`} {
		r, err := Compile(src)
		if err != nil {
			t.Fatal(err)
		}
		alloc, err := measure(r, in)
		t.Logf("%s: %d KiB, %v", src, alloc>>10, err)
		if errors.Is(err, ErrTimeout) {
			t.Errorf("%s: %v", src, err)
		}
		if alloc > allocBound {
			t.Errorf("%s allocated %d MiB; at most %d", src, alloc>>20, allocBound>>20)
		}
		if err == nil || !strings.Contains(err.Error(), "toJSON") {
			t.Errorf("%s: err = %v; want toJSON refused", src, err)
		}
	}
}

// toJSON builds the bytes expr's (json.MarshalIndent) builds, and
// indentedSize is their length.
func TestToJSONAsMarshalIndent(t *testing.T) {
	for _, v := range []any{
		nil, true, 1.5, "", `a"b\c<>&{[,:]}`, "\u2028é",
		[]any{}, map[string]any{}, []any{[]any{}}, []any{map[string]any{}},
		[]any{1, "x", []any{2, []any{3}}, map[string]any{"k": []any{}, "l": map[string]any{"m": `"]`}}},
		map[string]any{"a": []any{1, 2}, "b": map[string]any{}, `c"":\`: nil},
		deepList(50),
	} {
		want, _ := json.MarshalIndent(v, "", "  ")
		got, err := toJSON(v)
		if err != nil || got != string(want) {
			t.Errorf("toJSON(%v) = %q, %v; want %q", v, got, err, want)
		}
		compact, _ := json.Marshal(v)
		if n := indentedSize(compact); n != len(want) {
			t.Errorf("indentedSize(%s) = %d; want %d", compact, n, len(want))
		}
	}
	if _, err := toJSON(math.NaN()); err == nil {
		t.Error("toJSON(NaN): no error")
	}
}

// FuzzToJSON holds toJSON to json.MarshalIndent on any JSON value.
func FuzzToJSON(f *testing.F) {
	for _, s := range []string{`[]`, `{"a":[1,{"b":"]\"["}],"c":{}}`, `[[[[]]],[{}]]`, `"\\\""`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			return
		}
		want, _ := json.MarshalIndent(v, "", "  ")
		got, err := toJSON(v)
		if compact, _ := json.Marshal(v); len(want) > maxIndentedJSON(len(compact)) {
			return
		}
		if err != nil || got != string(want) {
			t.Fatalf("toJSON(%s) = %q, %v; want %q", s, got, err, want)
		}
	})
}
