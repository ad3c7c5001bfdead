package termsafe

import (
	"encoding/json"
	"testing"
)

func TestEscapeJSON(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":"plain héllo 世界"}`, `{"a":"plain héllo 世界"}`},
		{`{"a":"x` + "\u009b" + `31m"}`, `{"a":"x\u009b31m"}`},
		{`{"a":"` + "\u202e\u200b\u2028" + `"}`, `{"a":"\u202e\u200b\u2028"}`},
		{`{"a":"del` + "\x7f" + `"}`, `{"a":"del\u007f"}`},
		{`{"a":"raw` + "\x1b" + `"}`, `{"a":"raw\u001b"}`},
		{`{"a":"bad` + "\xff" + `"}`, `{"a":"bad\ufffd"}`},
		// An escaped quote does not end the string.
		{`{"a":"q\"` + "\u009b" + `"}`, `{"a":"q\"\u009b"}`},
		{`{"a":"b\\"` + ",\t\"c\":\"\u202e\"}", `{"a":"b\\", "c":"\u202e"}`},
		// A carriage return between members would rewrite the line.
		{"{\"a\":1,\r\"b\":2}", `{"a":1, "b":2}`},
		// Above U+FFFF: a surrogate pair, so the value is kept.
		{`{"a":"ok` + "\U000e0072\U000e0100" + `"}`, `{"a":"ok\udb40\udc72\udb40\udd00"}`},
	} {
		got := string(EscapeJSON([]byte(tc.in)))
		if got != tc.want {
			t.Errorf("EscapeJSON(%q) = %q, want %q", tc.in, got, tc.want)
			continue
		}
		if Escape(got) != got {
			t.Errorf("EscapeJSON(%q) = %q: still unsafe", tc.in, got)
		}
		var a, b any
		if json.Unmarshal([]byte(tc.in), &a) == nil {
			if err := json.Unmarshal([]byte(got), &b); err != nil {
				t.Errorf("EscapeJSON(%q) = %q: no longer JSON: %v", tc.in, got, err)
			} else if ja, jb := mustJSON(t, a), mustJSON(t, b); ja != jb {
				t.Errorf("EscapeJSON(%q) changed the value: %s != %s", tc.in, ja, jb)
			}
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestEscapeJSONCleanDoesNotAllocate(t *testing.T) {
	b := []byte(`{"seq":1,"tool":"terminal","message":"héllo 世界 😀 \"q\" \\"}`)
	if n := testing.AllocsPerRun(100, func() { _ = EscapeJSON(b) }); n != 0 {
		t.Fatalf("%v allocations for a clean line", n)
	}
}

func FuzzEscapeJSON(f *testing.F) {
	f.Add([]byte(`{"a":"x` + "\u009b" + `"}`))
	f.Add([]byte("{\"a\":\"\\\"\u202e\"}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		got := EscapeJSON(b)
		if Escape(string(got)) != string(got) {
			t.Fatalf("EscapeJSON(%q) = %q: still unsafe", b, got)
		}
		var x, y any
		if json.Unmarshal(b, &x) != nil {
			return
		}
		if err := json.Unmarshal(got, &y); err != nil {
			t.Fatalf("EscapeJSON(%q) = %q: no longer JSON: %v", b, got, err)
		}
		if mustJSON(t, x) != mustJSON(t, y) {
			t.Fatalf("EscapeJSON(%q) = %q changed the value", b, got)
		}
	})
}
