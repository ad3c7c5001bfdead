package hookconfig

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

const utf8Mark = "\xef\xbb\xbf"

// TestAgentFileBOM: every agent's JSON hook file read as a hook source
// reads the same past a leading byte order mark (the agents skip it, and
// run the file's hooks): Claude-shaped settings, flat hooks.json files,
// Gemini's and Qwen's settings, Copilot's and Kiro's json. A second mark,
// or garbage after one, is still refused with the path.
func TestAgentFileBOM(t *testing.T) {
	for _, a := range agents.All() {
		if a.Source.Dir {
			continue // a folder of scripts, no JSON
		}
		doc, _, err := a.Install(pyjson.OrderedObject{}, func(ev string) string { return "/bin/echo " + ev })
		if err != nil {
			t.Fatalf("%s: Install: %v", a.Name, err)
		}
		plain := pyjson.Encode(doc, pyjson.JSIndent)
		want, _, err := ParseAgentFile(a.Name, plain, "/p/hooks.json")
		if err != nil {
			t.Fatalf("%s: the plain file: %d entries, %v", a.Name, len(want), err)
		}
		got, _, err := ParseAgentFile(a.Name, append([]byte(utf8Mark), plain...), "/p/hooks.json")
		if err != nil || len(got) != len(want) {
			t.Errorf("%s: with a BOM: %d entries (want %d), %v", a.Name, len(got), len(want), err)
		}
		for _, bad := range []string{utf8Mark + utf8Mark + string(plain), utf8Mark + "{nope", utf8Mark} {
			_, _, err := ParseAgentFile(a.Name, []byte(bad), "/p/hooks.json")
			if err == nil || !strings.Contains(err.Error(), "/p/hooks.json") || !strings.Contains(err.Error(), "not valid JSON") {
				t.Errorf("%s: %q: err %v, want not valid JSON naming the file", a.Name, bad, err)
			}
		}
	}
}

// TestConfigBOM: Hermes' config with one leading mark is read as PyYAML
// reads it (yaml.v3 skips it too). With two, PyYAML (Hermes) keeps the
// second in the first key ("\ufeffhooks"), so Hermes would see no hooks
// at all, while yaml.v3 skips both: refused at line 1, naming the fix,
// rather than loading hooks Hermes drops or dropping them unsaid.
func TestConfigBOM(t *testing.T) {
	yml := "hooks:\n  pre_tool_call:\n    - command: /bin/true\n"
	cfg, err := ParseConfig([]byte(utf8Mark+yml), "/h/config.yaml")
	if err != nil || len(cfg.Entries) != 1 {
		t.Fatalf("one mark: %v, %v", cfg, err)
	}
	_, err = ParseConfig([]byte(utf8Mark+utf8Mark+yml), "/h/config.yaml")
	if err == nil || !strings.Contains(err.Error(), "/h/config.yaml:1") || !strings.Contains(err.Error(), "byte order mark") {
		t.Fatalf("two marks: err %v, want refused at line 1 naming the marks", err)
	}
	if cfg, err := ParseConfig([]byte(utf8Mark), "/h/config.yaml"); err != nil || len(cfg.Entries) != 0 {
		t.Fatalf("only a mark: %v, %v (want an empty config, as PyYAML's None)", cfg, err)
	}
}
