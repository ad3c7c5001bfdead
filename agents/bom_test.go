package agents

import (
	"strings"
	"testing"
)

// TestSkipBOM: which agents read their files past a leading UTF-8 byte
// order mark, as run in e2e TestBOMAgentFiles and TestDoctorSwitches
// (Claude Code, Codex, Qwen Code read the file; Gemini CLI exits on it,
// Copilot CLI runs none of its hooks): SkipBOM gives the file as each
// reads it, BOMError says why one refuses it. A second mark is left for
// the parser to refuse by every agent; a file without one is read whole.
func TestSkipBOM(t *testing.T) {
	const mark = "\ufeff"
	for _, c := range []struct {
		agent  string
		refuse bool
	}{
		{"claude", false},
		{"codex", false},
		{"qwen", false},
		{"gemini", true},
		{"copilot", true},
	} {
		a, ok := Lookup(c.agent)
		if !ok {
			t.Fatalf("no agent %s", c.agent)
		}
		for _, in := range []struct{ data, skipped string }{
			{"{}", "{}"},
			{"", ""},
			{mark + "{}", "{}"},
			{mark, ""},
			{mark + mark + "{}", mark + "{}"},
			{" " + mark + "{}", " " + mark + "{}"},
		} {
			want := in.skipped
			if c.refuse {
				want = in.data
			}
			if got := string(a.SkipBOM([]byte(in.data))); got != want {
				t.Errorf("%s.SkipBOM(%q) = %q, want %q", c.agent, in.data, got, want)
			}
			err := a.BOMError([]byte(in.data))
			marked := strings.HasPrefix(in.data, mark)
			if (err != nil) != (c.refuse && marked) {
				t.Errorf("%s.BOMError(%q) = %v, want an error: %v", c.agent, in.data, err, c.refuse && marked)
			}
			if err != nil && !strings.Contains(err.Error(), a.Title) {
				t.Errorf("%s.BOMError(%q) = %v, want it to name %s", c.agent, in.data, err, a.Title)
			}
		}
	}
	var none *Agent // a file no agent reads: one mark skipped
	if got := string(none.SkipBOM([]byte(mark + "{}"))); got != "{}" {
		t.Errorf("nil.SkipBOM = %q, want {}", got)
	}
	if none.BOMError([]byte(mark+"{}")) != nil {
		t.Errorf("nil.BOMError refused a marked file")
	}
}

// TestTrustedBOM: an agent's trust file after a byte order mark trusts
// the folder only for an agent that reads past the mark: doctor must not
// say a project's hooks run where the agent reads no trust at all.
func TestTrustedBOM(t *testing.T) {
	const p = "/home/u/src/app"
	for _, c := range []struct {
		agent, file string
		want        bool
	}{
		{"codex", "\ufeff[projects.\"/home/u/src/app\"]\ntrust_level = \"trusted\"\n", true},
		{"gemini", `{"/home/u/src/app": "TRUST_FOLDER"}`, true},
		{"gemini", "\ufeff" + `{"/home/u/src/app": "TRUST_FOLDER"}`, false},
		{"copilot", `{"trustedFolders": ["/home/u/src/app"]}`, true},
		{"copilot", "\ufeff" + `{"trustedFolders": ["/home/u/src/app"]}`, false},
	} {
		a, _ := Lookup(c.agent)
		if got := a.Trusted([]byte(c.file), p); got != c.want {
			t.Errorf("%s.Trusted(%q) = %v, want %v", c.agent, c.file, got, c.want)
		}
	}
}

// TestReadPastBOM: the one call the JSON readers make gives what the two
// it stands for give, for every agent and input: BOMError's refusal with
// no bytes, or SkipBOM's bytes with no error.
func TestReadPastBOM(t *testing.T) {
	const mark = "\ufeff"
	for _, a := range append(All(), nil) {
		for _, in := range []string{"{}", "", mark + "{}", mark, mark + mark + "{}", " " + mark + "{}"} {
			got, err := a.ReadPastBOM([]byte(in))
			wantErr := a.BOMError([]byte(in))
			if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
				t.Errorf("%v.ReadPastBOM(%q) error = %v, want %v", a, in, err, wantErr)
			}
			if err == nil && string(got) != string(a.SkipBOM([]byte(in))) {
				t.Errorf("%v.ReadPastBOM(%q) = %q, want %q", a, in, got, a.SkipBOM([]byte(in)))
			}
			if err != nil && got != nil {
				t.Errorf("%v.ReadPastBOM(%q) = %q with an error, want no bytes", a, in, got)
			}
		}
	}
}
