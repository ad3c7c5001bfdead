package agents

import (
	"fmt"
	"strings"
	"testing"
)

// TestParseLayerBound: a project's TOML layer with more keys and tables
// than maxLayerMarks is refused unparsed (go-toml's parse of one grows
// with their square); the user's own file, and a layer at the bound, are
// parsed and read.
func TestParseLayerBound(t *testing.T) {
	codex, _ := Lookup("codex")
	user, project := SwitchFile{User: true}, SwitchFile{}
	tables := func(n int) []byte {
		var b strings.Builder
		b.WriteString("[features]\nhooks = false\n") // 2 marks
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "[t%d]\na=1\n", i) // 2 marks each
		}
		return []byte(b.String())
	}
	atBound, over := tables(maxLayerMarks/2-1), tables(maxLayerMarks/2)
	for _, c := range []struct {
		name    string
		f       SwitchFile
		data    []byte
		refused bool
	}{
		{"project at the bound", project, atBound, false},
		{"project over it", project, over, true},
		{"user over it", user, over, false},
		{"project absent", project, nil, false},
	} {
		p, err := codex.ParseLayer(c.f, c.data)
		if (err != nil) != c.refused {
			t.Errorf("%s: error %v, want refused %v", c.name, err, c.refused)
			continue
		}
		_, off := codex.SwitchesIn([]SwitchFile{c.f}, []ParsedFile{p})
		if want := c.data != nil && !c.refused; off != want {
			t.Errorf("%s: switched off %v, want %v", c.name, off, want)
		}
	}
}

// TestSwitchKeysAsSpelt: Codex reads its config.toml with serde, whose
// keys match as spelt: [Features] is not [features], and sets nothing.
// go-toml's decoding into a struct matched it case-insensitively, and
// doctor said a switch Codex never reads turned every hook off.
func TestSwitchKeysAsSpelt(t *testing.T) {
	codex, _ := Lookup("codex")
	for _, data := range []string{"[Features]\nhooks = false\n", "[FEATURES]\ncodex_hooks = false\n"} {
		if off, isOff := codex.Switches([][]byte{[]byte(data)}); isOff {
			t.Errorf("Switches(%q) = %+v, want nothing switched off", data, off)
		}
	}
	const key = `/p/.codex/hooks.json:pre_tool_use:0:0`
	data := "[Hooks.State.\"" + key + "\"]\nenabled = false\n"
	if got := codex.EntriesOff([]byte(data))("/p/.codex/hooks.json", FileEntry{Event: "PreToolUse"}); got != "" {
		t.Errorf("EntriesOff(%q) = %q, want on", data, got)
	}
}
