package hookconfig

import "testing"

// A Gemini CLI group's sequential: true marks its entries, and only the
// boolean true does (Gemini tests entry.sequential === true): the
// dispatcher then runs the firing's Gemini hooks one after another.
func TestGeminiSequentialGroup(t *testing.T) {
	data := []byte(`{"hooks":{"BeforeTool":[
		{"matcher":"a","sequential":true,"hooks":[{"type":"command","command":"./one.sh"},{"type":"command","command":"./two.sh"}]},
		{"matcher":"b","sequential":"true","hooks":[{"type":"command","command":"./text.sh"}]},
		{"matcher":"c","hooks":[{"type":"command","command":"./plain.sh"}]}]}}`)
	entries, _, err := parseGeminiFile(data, "g.json", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"./one.sh": true, "./two.sh": true, "./text.sh": false, "./plain.sh": false}
	if len(entries) != len(want) {
		t.Fatalf("%d entries, want %d", len(entries), len(want))
	}
	for _, e := range entries {
		if e.Sequential != want[e.Command] {
			t.Errorf("%s: Sequential = %v, want %v", e.Command, e.Sequential, want[e.Command])
		}
	}
	// A Claude Code file has no such key: a group's sequential marks nothing.
	claude, _, err := parseClaudeSettings([]byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","sequential":true,"hooks":[{"type":"command","command":"./c.sh"}]}]}}`), "s.json")
	if err != nil || len(claude) != 1 {
		t.Fatalf("claude settings: %d entries, %v", len(claude), err)
	}
	if claude[0].Sequential {
		t.Error("a Claude Code group's sequential key marked its entry Sequential")
	}
}
