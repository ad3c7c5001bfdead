package consent

import (
	"bytes"
	"encoding/json"
	"testing"
)

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
		`{"approvals": [{"event": "PreToolUse", "command": "https://x/h", "files_at_approval": [], "approved_by_text": true, "spec_sha256_at_approval": "ab"}]}`,
		`{"approvals": [{"event": "e", "command": "make x", "approved_by_text": true, "text_only_acknowledged": "yes"}]}`,
		`{"approvals": [{"event": "e", "command": "c", "spec_sha256_at_approval": 7}]}`,
		`{"approvals": [], "project_approvals": [{"event": "e", "command": "./g", "project_root": "/a", "source": "/a/h", "files_at_approval": [{"path": "/a/g", "sha256": "ab", "in_repository": "g"}], "repository": {"ids": ["git:/a/.git", "url:h/o/r"], "source": "h", "source_sha256": "cd", "project": "."}}]}`,
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
