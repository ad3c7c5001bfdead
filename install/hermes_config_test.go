package install

import (
	"errors"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

const plugin = "hermes-hooks"

// Issue 27: `install hermes` enables the plugin in plugins.enabled, keeping
// every other byte; uninstall takes exactly that out again.
var enableCases = []struct {
	name string
	in   string
	want string // "" with errLine: refused
	// back: DisableHermesPlugin(want) gives in again, byte for byte.
	back    bool
	errLine int
	note    string
}{
	{name: "empty file", in: "", want: "plugins:\n  enabled:\n  - hermes-hooks\n", back: true},
	{name: "comments only", in: "# my config\n", want: "# my config\nplugins:\n  enabled:\n  - hermes-hooks\n", back: true},
	{name: "no plugins key", in: "model: x  # keep\nhooks: {}\n",
		want: "model: x  # keep\nhooks: {}\nplugins:\n  enabled:\n  - hermes-hooks\n", back: true},
	{name: "no final newline", in: "model: x",
		want: "model: x\nplugins:\n  enabled:\n  - hermes-hooks\n"},
	{name: "document start marker", in: "---\nmodel: x\n", want: "---\nmodel: x\nplugins:\n  enabled:\n  - hermes-hooks\n", back: true},
	{name: "crlf", in: "model: x\r\n", want: "model: x\r\nplugins:\r\n  enabled:\r\n  - hermes-hooks\r\n", back: true},
	{name: "empty plugins", in: "plugins:\nmodel: x\n", want: "plugins:\n  enabled:\n  - hermes-hooks\nmodel: x\n"},
	{name: "empty plugins with comment", in: "plugins:   # later\nmodel: x\n",
		want: "plugins:   # later\n  enabled:\n  - hermes-hooks\nmodel: x\n"},
	{name: "plugins without enabled", in: "plugins:\n    disabled:\n      - a\nz: 1\n",
		want: "plugins:\n    enabled:\n    - hermes-hooks\n    disabled:\n      - a\nz: 1\n", back: true},
	{name: "empty enabled", in: "plugins:\n  enabled:\n  disabled: [x]\n",
		want: "plugins:\n  enabled:\n  - hermes-hooks\n  disabled: [x]\n"},
	{name: "block list, indented items", in: "plugins:\n  enabled:\n    - a   # first\n    - 'b'\n  # after\nz: 1\n",
		want: "plugins:\n  enabled:\n    - a   # first\n    - 'b'\n    - hermes-hooks\n  # after\nz: 1\n", back: true},
	{name: "block list, items at the key's column", in: "plugins:\n  enabled:\n  - a\n",
		want: "plugins:\n  enabled:\n  - a\n  - hermes-hooks\n", back: true},
	{name: "block list, last line without newline", in: "plugins:\n  enabled:\n  - a",
		want: "plugins:\n  enabled:\n  - a\n  - hermes-hooks\n"},
	{name: "flow list", in: "plugins:\n  enabled: [a, \"b,c\"]  # x\n",
		want: "plugins:\n  enabled: [a, \"b,c\", hermes-hooks]  # x\n", back: true},
	{name: "empty flow list", in: "plugins:\n  enabled: []\n", want: "plugins:\n  enabled: [hermes-hooks]\n", back: true},
	{name: "empty flow list with space", in: "plugins:\n  enabled: [ ]\n", want: "plugins:\n  enabled: [hermes-hooks ]\n", back: true},
	{name: "flow list, spaces inside", in: "plugins:\n  enabled: [ a ]\n", want: "plugins:\n  enabled: [ a, hermes-hooks ]\n", back: true},
	{name: "flow mapping with a flow list", in: "plugins: {enabled: [a]}\n", want: "plugins: {enabled: [a, hermes-hooks]}\n", back: true},
	{name: "unicode before the list", in: "plugins:\n  enabled: [é]\n", want: "plugins:\n  enabled: [é, hermes-hooks]\n", back: true},
	{name: "already enabled", in: "plugins:\n  enabled:\n  - hermes-hooks\n", want: "plugins:\n  enabled:\n  - hermes-hooks\n"},
	{name: "already enabled, flow", in: "plugins: {enabled: [hermes-hooks]}\n", want: "plugins: {enabled: [hermes-hooks]}\n"},
	{name: "disabled too", in: "plugins:\n  enabled: []\n  disabled: [hermes-hooks]\n",
		want: "plugins:\n  enabled: [hermes-hooks]\n  disabled: [hermes-hooks]\n", back: true,
		note: "plugins.disabled lists hermes-hooks (line 3)"},

	{name: "not yaml", in: "plugins: [\n", errLine: 1},
	{name: "a list at the top", in: "- a\n", errLine: 1},
	{name: "a flow mapping at the top", in: "{plugins: {}}\n", errLine: 1},
	{name: "two documents", in: "a: 1\n---\nb: 2\n", errLine: 2},
	{name: "plugins twice", in: "plugins:\n  enabled: []\nplugins: {}\n", errLine: 3},
	{name: "plugins is a list", in: "plugins: [a]\n", errLine: 1},
	{name: "plugins is null", in: "plugins: null\n", errLine: 1},
	{name: "plugins alias", in: "base: &b {enabled: [a]}\nplugins: *b\n", errLine: 2},
	{name: "merge key", in: "base: &b {x: 1}\nplugins:\n  <<: *b\n", errLine: 3},
	{name: "empty flow mapping", in: "plugins: {}\n", errLine: 1},
	{name: "enabled is text", in: "plugins:\n  enabled: a\n", errLine: 2},
	{name: "enabled is null", in: "plugins:\n  enabled: ~\n", errLine: 2},
	{name: "flow list over lines", in: "plugins:\n  enabled: [a,\n    b]\n", errLine: 2},
	{name: "nested flow list", in: "plugins:\n  enabled: [[a]]\n", errLine: 2},
	{name: "last item a block scalar", in: "plugins:\n  enabled:\n  - |\n    a\n", errLine: 3},
	{name: "last item a mapping", in: "plugins:\n  enabled:\n  - a: 1\n", errLine: 3},
	{name: "ends with a document end", in: "a: 1\n...\n", errLine: 1},
}

func TestEnableHermesPlugin(t *testing.T) {
	for _, tc := range enableCases {
		t.Run(tc.name, func(t *testing.T) {
			out, changed, note, err := EnableHermesPlugin([]byte(tc.in), plugin)
			if tc.errLine != 0 {
				var ee *EditError
				if !errors.As(err, &ee) || ee.Line != tc.errLine {
					t.Fatalf("got %q, %v; want refused at line %d", out, err, tc.errLine)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want || changed != (tc.in != tc.want) {
				t.Fatalf("got (changed %v)\n%s\nwant\n%s", changed, out, tc.want)
			}
			if !strings.Contains(note, tc.note) || (tc.note == "") != (note == "") {
				t.Errorf("note %q, want %q", note, tc.note)
			}
			again, changed, _, err := EnableHermesPlugin(out, plugin)
			if err != nil || changed || string(again) != string(out) {
				t.Errorf("a second enable changed %q to %q (%v)", out, again, err)
			}
			back, changed, err := DisableHermesPlugin(out, plugin)
			if err != nil || !changed || decode(t, back)["plugins"] != nil && listed(t, back) {
				t.Fatalf("disable: %q, %v, %v", back, changed, err)
			}
			if tc.back && string(back) != tc.in {
				t.Errorf("disable gave\n%q\nwant the original\n%q", back, tc.in)
			}
		})
	}
}

var disableCases = []struct{ name, in, want string }{
	{"not listed", "plugins:\n  enabled: [a]\n", "plugins:\n  enabled: [a]\n"},
	{"no plugins", "a: 1\n", "a: 1\n"},
	{"empty file", "", ""},
	{"listed twice", "plugins:\n  enabled:\n  - hermes-hooks\n  - a\n  - hermes-hooks\n", "plugins:\n  enabled:\n  - a\n"},
	{"first of a flow list", "plugins:\n  enabled: [hermes-hooks, a]\n", "plugins:\n  enabled: [a]\n"},
	{"middle of a flow list", "plugins:\n  enabled: [a, hermes-hooks,  b]\n", "plugins:\n  enabled: [a, b]\n"},
	{"quoted", "plugins:\n  enabled:\n  - \"hermes-hooks\"\n  - a\n", "plugins:\n  enabled:\n  - a\n"},
	{"the key stays beside others", "plugins:\n  disabled: []\n  enabled:\n    - hermes-hooks\n", "plugins:\n  disabled: []\n"},
	{"the only plugin", "x: 1\nplugins:\n  # mine\n  enabled:\n  - hermes-hooks\ny: 2\n", "x: 1\n  # mine\ny: 2\n"},
}

func TestDisableHermesPlugin(t *testing.T) {
	for _, tc := range disableCases {
		t.Run(tc.name, func(t *testing.T) {
			out, changed, err := DisableHermesPlugin([]byte(tc.in), plugin)
			if err != nil || string(out) != tc.want || changed != (tc.in != tc.want) {
				t.Fatalf("got %q (changed %v, %v), want %q", out, changed, err, tc.want)
			}
		})
	}
	// A line this edit cannot take apart is refused, not half-edited.
	if _, _, err := DisableHermesPlugin([]byte("plugins:\n  enabled: [a,\n    hermes-hooks]\n"), plugin); err == nil {
		t.Error("a list over lines was edited")
	}
}

func decode(t testing.TB, b []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := yaml.Unmarshal(b, &v); err != nil {
		t.Fatalf("%q: %v", b, err)
	}
	return v
}

// listed: plugins.enabled of b holds the plugin.
func listed(t testing.TB, b []byte) bool {
	t.Helper()
	p, _ := decode(t, b)["plugins"].(map[string]any)
	list, _ := p["enabled"].([]any)
	for _, x := range list {
		if x == plugin {
			return true
		}
	}
	return false
}

// Any input: refused, or edited so that the plugin is listed, a second
// enable changes nothing, and disable takes it out again leaving every
// other setting as it was.
func FuzzEnableHermesPlugin(f *testing.F) {
	for _, tc := range enableCases {
		f.Add(tc.in)
	}
	for _, tc := range disableCases {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, changed, _, err := EnableHermesPlugin([]byte(in), plugin)
		if err != nil {
			var ee *EditError
			if !errors.As(err, &ee) || ee.Line < 1 {
				t.Fatalf("error without a line: %v", err)
			}
			return
		}
		if !listed(t, out) || changed == (string(out) == in) {
			t.Fatalf("enable gave %q (changed %v)", out, changed)
		}
		if again, ch, _, err := EnableHermesPlugin(out, plugin); err != nil || ch || string(again) != string(out) {
			t.Fatalf("second enable of %q: %q %v %v", out, again, ch, err)
		}
		back, _, err := DisableHermesPlugin(out, plugin)
		if err != nil {
			t.Fatalf("disable of %q: %v", out, err)
		}
		if listed(t, back) {
			t.Fatalf("disable left the plugin in %q", back)
		}
		if changed && !sameSettings(decode(t, []byte(in)), decode(t, back)) {
			t.Fatalf("enable then disable changed settings:\n%q\n%q", in, back)
		}
	})
}

// sameSettings compares two documents but for an empty plugins.enabled or
// plugins (which disable removes, and enable may have found empty).
func sameSettings(a, b map[string]any) bool {
	norm := func(m map[string]any) string {
		if m == nil {
			m = map[string]any{}
		}
		m = cloneValue(m).(map[string]any)
		if p, ok := m["plugins"].(map[string]any); ok {
			if l, _ := p["enabled"].([]any); len(l) == 0 {
				delete(p, "enabled")
			}
			if len(p) == 0 {
				delete(m, "plugins")
			}
		} else if m["plugins"] == nil {
			delete(m, "plugins")
		}
		out, _ := yaml.Marshal(m)
		return string(out)
	}
	return norm(a) == norm(b)
}
