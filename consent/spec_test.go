package consent

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
)

// An approval pins the digest of its hook's Spec (an http hook's URL,
// headers and allowedEnvVars): the same Spec is unchanged, any other one —
// or none where one was pinned, or one where none was — needs a new
// approval.
func TestCompareSpec(t *testing.T) {
	const a, b = "http\nurl \"https://x/h\"", "http\nurl \"https://x/h\"\nheader \"Authorization\" \"Bearer $T\""
	for _, tc := range []struct {
		name    string
		pinned  string // the approval's digest
		spec    string // the hook's Spec now
		changed bool
		why     string
	}{
		{"same spec", specDigest(a), a, false, ""},
		{"same spec, upper-case digest", strings.ToUpper(specDigest(a)), a, false, ""},
		{"a header added", specDigest(a), b, true, "its URL, headers or allowedEnvVars differ"},
		{"an opa entry's header added", specDigest("opa\nurl \"http://o/v1/data/p\""), "opa\nurl \"http://o/v1/data/p\"\nheader \"Authorization\" \"Bearer $T\"", true, "its URL, headers or allowed_env_vars differ"},
		{"approved before specs were pinned", "", a, true, "covers only its URL"},
		{"no longer an http hook", specDigest(a), "", true, "is not one now"},
		{"a malformed pin", "\x00invalid", a, true, "differ"},
		{"neither has one", "", "", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := Entry{SpecSHA256: tc.pinned, Files: []FileRecord{}}
			tg := &cmdpin.Target{Spec: tc.spec, Opaque: "an HTTP endpoint"}
			d := compare(e, &Request{Command: "https://x/h"}, tg, nil)
			if got := d.Kind == DriftHash; got != tc.changed {
				t.Fatalf("changed = %v, want %v (%+v)", got, tc.changed, d)
			}
			if tc.changed && !strings.Contains(d.Message(), tc.why) {
				t.Fatalf("message %q lacks %q", d.Message(), tc.why)
			}
		})
	}
}

// The Spec digest is written to the allowlist and read back, and Inspect
// compares against it.
func TestStore_ApprovalPinsTheSpec(t *testing.T) {
	s := newTestStore(t)
	spec := "http\nurl \"https://hooks.example/a\""
	h := Request{Event: "PreToolUse", Command: "https://hooks.example/a", Target: &cmdpin.Target{Opaque: "an HTTP endpoint", Spec: spec}}
	res, err := s.ApproveHook(h)
	if err != nil {
		t.Fatal(err)
	}
	if res.Entry.SpecSHA256 != specDigest(spec) {
		t.Fatalf("approval pinned %q", res.Entry.SpecSHA256)
	}
	if raw := readFile(t, s.Path()); !strings.Contains(raw, `"spec_sha256_at_approval": "`+specDigest(spec)+`"`) {
		t.Fatalf("the digest is not in the file:\n%s", raw)
	}
	f, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	if st := Inspect(h, f); !st.Approved || st.Drift.Kind != DriftNone {
		t.Fatalf("unchanged: %+v", st)
	}
	h.Target = &cmdpin.Target{Opaque: "an HTTP endpoint", Spec: spec + "\nallowed_env \"SECRET\""}
	if st := Inspect(h, f); st.Drift.Kind != DriftHash {
		t.Fatalf("changed spec: %+v", st)
	}
	// A null is no pin (Hermes-style), anything else that is not a digest
	// pins what nothing matches.
	for raw, want := range map[string]string{`null`: "", `1`: "\x00invalid", `""`: "\x00invalid"} {
		f := parseFile([]byte(`{"approvals": [{"event": "e", "command": "c", "spec_sha256_at_approval": ` + raw + `}]}`))
		if got := f.Approvals[0].SpecSHA256; got != want {
			t.Errorf("%s read as %q, want %q", raw, got, want)
		}
	}
}
