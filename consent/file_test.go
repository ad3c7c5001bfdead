package consent

import (
	"bytes"
	"encoding/json"
	"testing"
)

// Expected values were produced with Python 3: json.dumps(json.loads(s)).
func TestPyNumber(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"1.5", "1.5"}, {"1.50", "1.5"}, {"100.0", "100.0"}, {"1e5", "100000.0"},
		{"1E5", "100000.0"}, {"1e16", "1e+16"}, {"1e15", "1000000000000000.0"},
		{"123456789012345678.0", "1.2345678901234568e+17"}, {"0.0001", "0.0001"},
		{"0.00001", "1e-05"}, {"1.5e-5", "1.5e-05"}, {"-0.0", "-0.0"}, {"-0", "0"},
		{"0", "0"}, {"12345678901234567890", "12345678901234567890"}, {"1e22", "1e+22"},
		{"2.5e-300", "2.5e-300"}, {"-1.25e+300", "-1.25e+300"}, {"3.14159", "3.14159"},
		{"0.1", "0.1"}, {"9007199254740993.0", "9007199254740992.0"},
		{"1.7976931348623157e308", "1.7976931348623157e+308"}, {"5e-324", "5e-324"},
		{"0.5", "0.5"}, {"-12.0e1", "-120.0"},
		// Out of float64 range: Python writes Infinity, which is not JSON;
		// we keep the text so the file stays readable.
		{"1e400", "1e400"},
	} {
		if got := pyNumber(tc.in); got != tc.want {
			t.Errorf("pyNumber(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestEncodeEmptyContainers(t *testing.T) {
	f := parseFile([]byte(`{"approvals": [], "a": {}, "b": [], "c": [{}]}`))
	want := "{\n  \"a\": {},\n  \"approvals\": [],\n  \"b\": [],\n  \"c\": [\n    {}\n  ]\n}\n"
	if got := string(f.encode()); got != want {
		t.Errorf("got %q want %q", got, want)
	}
}

// FuzzLoad: parsing arbitrary bytes never panics; whatever parses is
// written as valid JSON that parses again to the same bytes (a rewrite is
// stable, so two tools rewriting the file do not fight over its form).
func FuzzLoad(f *testing.F) {
	for _, seed := range []string{
		`{"approvals": [{"event": "pre_tool_call", "command": "/x/hook.sh", "approved_at": "2026-07-01T12:00:00Z", "script_mtime_at_approval": null}]}`,
		"\uFEFF{\"approvals\": []}",
		`{"approvals": {"event": "e"}}`,
		`{"approvals": [1, "x", null, [], {"event": 1}], "other": {"z": 1.50, "a": -0}}`,
		`[]`, ``, `{`, `{"approvals": []} x`, `"\ud800"`, `{"a": 1e400}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := parseFile(data)
		_, _ = file.Lookup("pre_tool_call", "/x/hook.sh")
		for _, e := range file.Approvals {
			_ = e.commandIs("c")
		}
		if file.Invalid != nil {
			if len(file.Approvals) != 0 {
				t.Fatal("invalid file with approvals")
			}
			return
		}
		out := file.encode()
		if !json.Valid(out) {
			t.Fatalf("encoded invalid JSON: %q", out)
		}
		again := parseFile(out)
		if again.Invalid != nil {
			t.Fatalf("re-parse failed: %v\n%q", again.Invalid, out)
		}
		if len(again.Approvals) != len(file.Approvals) {
			t.Fatalf("approvals %d -> %d", len(file.Approvals), len(again.Approvals))
		}
		if out2 := again.encode(); !bytes.Equal(out, out2) {
			t.Fatalf("rewrite not stable:\n%q\n%q", out, out2)
		}
	})
}
