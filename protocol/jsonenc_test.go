package protocol

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// The three styles against what Python's json.dumps and JavaScript's
// JSON.stringify print for the same string (expected values produced by
// those two and pasted here).
func TestAppendJSONStringEscaping(t *testing.T) {
	s := "a/b\x01\x08\x0c\n\r\t\x1f\x7f\"\\ é 😀 \u2028"
	cases := map[pyjson.Style]string{
		pyjson.Compact:     "\"a/b\\u0001\\b\\f\\n\\r\\t\\u001f\x7f\\\"\\\\ é 😀 \u2028\"",
		pyjson.Python:      "\"a/b\\u0001\\b\\f\\n\\r\\t\\u001f\x7f\\\"\\\\ é 😀 \u2028\"",
		pyjson.PythonASCII: `"a/b\u0001\b\f\n\r\t\u001f\u007f\"\\ \u00e9 \ud83d\ude00 \u2028"`,
	}
	for style, want := range cases {
		if got := string(pyjson.Encode(s, style)); got != want {
			t.Errorf("style %d:\n got %q\nwant %q", style, got, want)
		}
	}
}

func TestAppendJSONSeparatorsAndOrder(t *testing.T) {
	v := Object{{"b", []any{json.Number("1"), map[string]any{"x": nil}}}, {"a", true}}
	if got := string(pyjson.Encode(v, pyjson.Python)); got != `{"b": [1, {"x": null}], "a": true}` {
		t.Errorf("Python: %s", got)
	}
	if got := string(pyjson.Encode(v, pyjson.Compact)); got != `{"b":[1,{"x":null}],"a":true}` {
		t.Errorf("Compact: %s", got)
	}
	m := map[string]any{"z": "1", "a": "2", "m": map[string]string{"y": "1", "b": "2"}}
	if got := string(pyjson.Encode(m, pyjson.Compact)); got != `{"a":"2","m":{"b":"2","y":"1"},"z":"1"}` {
		t.Errorf("maps are sorted: %s", got)
	}
	if got := string(pyjson.Append([]byte("prefix:"), []string{"a", "b"}, pyjson.Python)); got != `prefix:["a", "b"]` {
		t.Errorf("append: %s", got)
	}
	if got := string(pyjson.Encode(Object{}, pyjson.Python)); got != `{}` {
		t.Errorf("empty object: %s", got)
	}
	if got := string(pyjson.Encode([]any{}, pyjson.Python)); got != `[]` {
		t.Errorf("empty array: %s", got)
	}
	b, _ := Object{{"k", "<&>"}}.MarshalJSON()
	if string(b) != `{"k":"<&>"}` {
		t.Errorf("Object.MarshalJSON escapes HTML: %s", b)
	}
}

func TestAppendJSONNumbers(t *testing.T) {
	cases := []struct {
		v    any
		want string
	}{
		{json.Number("12.50"), "12.50"}, // passed on exactly as the host wrote it
		{json.Number("-0"), "-0"},
		{json.Number("1E+3"), "1E+3"},
		{json.Number("abc"), `"abc"`},
		{json.Number("01"), `"01"`},
		{json.Number(""), `""`},
		{json.Number("1."), `"1."`},
		{json.Number(" 1"), `" 1"`},
		{json.Number("NaN"), `"NaN"`},
		{42, "42"}, {int8(-8), "-8"}, {int16(16), "16"}, {int32(-32), "-32"}, {int64(math.MinInt64), "-9223372036854775808"},
		{uint(7), "7"}, {uint8(255), "255"}, {uint16(1), "1"}, {uint32(2), "2"}, {uint64(math.MaxUint64), "18446744073709551615"},
		{0.5, "0.5"}, {float32(0.25), "0.25"}, {-2.0, "-2"}, {0.0, "0"},
		{math.NaN(), "null"}, {math.Inf(1), "null"}, {math.Inf(-1), "null"},
		{1e21, "1e+21"},
	}
	for _, tc := range cases {
		if got := string(pyjson.Encode(tc.v, pyjson.Compact)); got != tc.want {
			t.Errorf("%T %v → %s, want %s", tc.v, tc.v, got, tc.want)
		}
		if got := pyjson.Encode(tc.v, pyjson.Python); !json.Valid(got) {
			t.Errorf("%T %v → invalid JSON %s", tc.v, tc.v, got)
		}
	}
}

type plainStruct struct {
	B string `json:"b"`
	A int    `json:"a"`
}

func TestAppendJSONOtherGoValues(t *testing.T) {
	cases := []struct {
		v    any
		want string
	}{
		{nil, "null"},
		{false, "false"},
		{json.RawMessage(`{"b": 1, "a": [true]}`), `{"a":[true],"b":1}`},
		{json.RawMessage(`{broken`), `"{broken"`},
		{errors.New("boom"), `"boom"`},
		{plainStruct{B: "x", A: 1}, `{"a":1,"b":"x"}`},
		{[]int{1, 2}, `[1,2]`},
		{map[string]int{"b": 1, "a": 2}, `{"a":2,"b":1}`},
		{[]byte("hi"), `"aGk="`},
		{weird(nil), `"<weird>"`},
		{[]any{weird(nil), map[string]any{"w": weird(nil)}}, `["<weird>",{"w":"<weird>"}]`},
		{"\xff\xfe", `"` + "\uFFFD\uFFFD" + `"`},
	}
	for _, tc := range cases {
		if got := string(pyjson.Encode(tc.v, pyjson.Compact)); got != tc.want {
			t.Errorf("%T → %s, want %s", tc.v, got, tc.want)
		}
	}
	if got := string(pyjson.Encode("\xff", pyjson.PythonASCII)); got != `"\ufffd"` {
		t.Errorf("invalid UTF-8 in PythonASCII: %s", got)
	}
	for _, v := range []any{make(chan int), func() {}, map[string]any{"c": make(chan struct{})}} {
		b := pyjson.Encode(v, pyjson.Python)
		if !json.Valid(b) {
			t.Errorf("%T → invalid JSON %s", v, b)
		}
	}
}

// Nesting deeper than 512 levels, including a self-referencing map, ends in
// a string instead of running away.
func TestAppendJSONDepthLimit(t *testing.T) {
	var deep any = "leaf"
	for i := 0; i < 600; i++ {
		deep = []any{deep}
	}
	b := pyjson.Encode(deep, pyjson.Compact)
	if !json.Valid(b) || !strings.Contains(string(b), `"<too deeply nested>"`) {
		t.Errorf("deep nesting: valid=%v, %.80s…", json.Valid(b), b)
	}
	self := map[string]any{}
	self["self"] = self
	b = pyjson.Encode(self, pyjson.Python)
	if !json.Valid(b) || !strings.Contains(string(b), `"<too deeply nested>"`) {
		t.Errorf("self-reference: valid=%v", json.Valid(b))
	}
	obj := Object{{"x", nil}}
	obj[0].Value = []any{obj}
	if b := pyjson.Encode(obj, pyjson.Compact); !json.Valid(b) {
		t.Error("self-referencing Object: invalid JSON")
	}
}

// pyjson.Append's contract says it never fails, cycles included. A cycle that
// passes through a type the encoder hands to encoding/json (here a
// []map[string]any) makes encoding/json report the cycle, and the fallback,
// fmt.Sprint, then recurses forever: a fatal stack overflow that no recover
// can catch. Run in a child process so the crash is observable.
func TestAppendJSONCycleThroughOtherTypes(t *testing.T) {
	if os.Getenv("PROTOCOL_TEST_CYCLE_CHILD") == "1" {
		debug.SetMaxStack(64 << 20) // overflow fast if it is going to
		m := map[string]any{}
		m["x"] = []map[string]any{m}
		b := pyjson.Append(nil, m, pyjson.Compact)
		if !json.Valid(b) {
			os.Exit(3)
		}
		os.Exit(0)
	}
	out, err := proctest.CombinedOutputRetrying(t, func() *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^TestAppendJSONCycleThroughOtherTypes$", "-test.count=1")
		cmd.Env = append(os.Environ(), "PROTOCOL_TEST_CYCLE_CHILD=1")
		return cmd
	})
	if err == nil {
		return
	}
	if strings.Contains(string(out), "stack overflow") {
		t.Fatal("regression: pyjson.Append crashes (fatal stack overflow in fmt.Sprint) on a cycle through []map[string]any; its doc promises it never fails, cycles included")
	}
	t.Fatalf("child failed: %v\n%.2000s", err, out)
}

func TestDecodeJSON(t *testing.T) {
	ok := map[string]any{
		`{"a": 1.50, "b": [1, "x", null, true]}`: map[string]any{"a": json.Number("1.50"),
			"b": []any{json.Number("1"), "x", nil, true}},
		" \n\t{}\r\n ":                   map[string]any{},
		`"s"`:                            "s",
		`123456789012345678901234567890`: json.Number("123456789012345678901234567890"),
		`[]`:                             []any{},
		`null`:                           nil,
	}
	for in, want := range ok {
		got, err := pyjson.Decode([]byte(in))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("DecodeJSON(%q) = %#v, %v; want %#v", in, got, err, want)
		}
	}
	for _, in := range []string{``, `   `, `{`, `{} {}`, `{}]`, `{}}`, `1 2`, `{}x`, `[1,]`, `{'a':1}`, `NaN`,
		"{}\f", "{}\u00a0", `{"a":1}{"b":2}`, strings.Repeat("[", 20000)} {
		if v, err := pyjson.Decode([]byte(in)); err == nil {
			t.Errorf("DecodeJSON(%.30q) = %#v, want an error", in, v)
		}
		if json.Valid([]byte(in)) {
			t.Errorf("test bug: %q is valid JSON", in)
		}
	}
}

// Floats from Go hosts are written as each dialect's host writes them:
// Python's repr for Hermes payloads, JavaScript's toString for Claude's.
func TestAppendFloatPerDialect(t *testing.T) {
	cases := []struct {
		f          float64
		python, js string
	}{
		{1, "1.0", "1"},
		{0.1, "0.1", "0.1"},
		{-2.5, "-2.5", "-2.5"},
		{1e16, "1e+16", "10000000000000000"},
		{1e15, "1000000000000000.0", "1000000000000000"},
		{1e-5, "1e-05", "0.00001"},
		{0.0001, "0.0001", "0.0001"},
		{1e-7, "1e-07", "1e-7"},
		{1e21, "1e+21", "1e+21"},
		{123456789012345678, "1.2345678901234568e+17", "123456789012345680"},
		{0, "0.0", "0"},
	}
	for _, c := range cases {
		if got := string(pyjson.Append(nil, c.f, pyjson.Python)); got != c.python {
			t.Errorf("Python %v: got %s want %s", c.f, got, c.python)
		}
		if got := string(pyjson.Append(nil, c.f, pyjson.Compact)); got != c.js {
			t.Errorf("JS %v: got %s want %s", c.f, got, c.js)
		}
	}
}
