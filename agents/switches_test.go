package agents

import (
	"strings"
	"testing"
	"time"
)

// TestSwitches: each agent's switch files merged as the agent merges them
// (the highest file that sets the switch decides), and the setting named
// as the file spells it.
func TestSwitches(t *testing.T) {
	off := []byte(`{"disableAllHooks": true}`)
	on := []byte(`{"disableAllHooks": false}`)
	tests := []struct {
		agent    string
		files    []string // nil entries: "-" (absent)
		wantOff  bool
		wantFile int
		setting  string
		fix      string
	}{
		{"claude", []string{"-", "-", "-"}, false, 0, "", ""},
		{"claude", []string{string(off), "-", "-"}, true, 0, `"disableAllHooks" is true`, `remove "disableAllHooks"`},
		{"claude", []string{"-", string(off), "-"}, true, 1, `"disableAllHooks" is true`, "install claude --managed"},
		{"claude", []string{"-", "-", string(off)}, true, 2, "", "--managed"},
		// The project's false outranks the user's true, the local file's
		// true the project's false.
		{"claude", []string{string(off), string(on), "-"}, false, 0, "", ""},
		{"claude", []string{"-", string(on), string(off)}, true, 2, "", ""},
		{"claude", []string{"-", string(off), string(on)}, false, 0, "", ""},
		// Not a boolean, not JSON, not an object: sets nothing.
		{"claude", []string{"-", `{"disableAllHooks": "true"}`, "-"}, false, 0, "", ""},
		{"claude", []string{"-", `{"disableAllHooks": 1}`, "-"}, false, 0, "", ""},
		{"claude", []string{"-", `[true]`, "-"}, false, 0, "", ""},
		{"claude", []string{string(off), `{"disableAllHooks": tru`, "-"}, true, 0, "", ""},
		// A UTF-8 byte order mark first: Claude Code reads the file all
		// the same (e2e TestDoctorSwitches/ClaudeCode/ProjectBOM).
		{"claude", []string{"-", "\ufeff" + string(off), "-"}, true, 1, `"disableAllHooks" is true`, ""},
		// Keys given twice: the last wins (JSON.parse).
		{"claude", []string{"-", `{"disableAllHooks": false, "disableAllHooks": true}`, "-"}, true, 1, "", ""},

		{"codex", []string{"-", "-"}, false, 0, "", ""},
		{"codex", []string{"[features]\nhooks = false\n", "-"}, true, 0, "[features] hooks = false", "make that line hooks = true under [features]"},
		{"codex", []string{"features.hooks = false\n", "-"}, true, 0, "[features] hooks = false", ""},
		{"codex", []string{"features = { codex_hooks = false }\n", "-"}, true, 0, "[features] codex_hooks = false", "make that line codex_hooks = true"},
		{"codex", []string{"-", "[features]\nhooks = false\n"}, true, 1, "[features] hooks = false", "codex --enable hooks"},
		// The project's true outranks the user's false.
		{"codex", []string{"[features]\nhooks = false\n", "[features]\nhooks = true\n"}, false, 0, "", ""},
		// Codex merges its layers key by key, then reads hooks, and
		// codex_hooks only where no layer sets hooks (as Codex 0.171.0
		// runs them: e2e TestDoctorSwitches/Codex). In one file, in
		// either order:
		{"codex", []string{"[features]\nhooks = true\ncodex_hooks = false\n", "-"}, false, 0, "", ""},
		{"codex", []string{"[features]\ncodex_hooks = false\nhooks = true\n", "-"}, false, 0, "", ""},
		{"codex", []string{"[features]\ncodex_hooks = true\nhooks = false\n", "-"}, true, 0, "[features] hooks = false", "make that line hooks = true"},
		// Across files: a higher file's codex_hooks does not outrank a
		// lower file's hooks.
		{"codex", []string{"[features]\nhooks = false\n", "[features]\ncodex_hooks = true\n"}, true, 0, "[features] hooks = false", "make that line hooks = true"},
		{"codex", []string{"[features]\nhooks = true\n", "[features]\ncodex_hooks = false\n"}, false, 0, "", ""},
		{"codex", []string{"[features]\ncodex_hooks = false\n", "[features]\nhooks = true\n"}, false, 0, "", ""},
		{"codex", []string{"[features]\ncodex_hooks = true\n", "[features]\ncodex_hooks = false\n"}, true, 1, "[features] codex_hooks = false", "codex --enable hooks"},
		// A UTF-8 byte order mark first: Codex reads the file all the same.
		{"codex", []string{"-", "\ufeff[features]\nhooks = false\n"}, true, 1, "[features] hooks = false", ""},
		{"codex", []string{"[features]\nhooks = \"false\"\n", "-"}, false, 0, "", ""},
		{"codex", []string{"[other]\nhooks = false\n", "-"}, false, 0, "", ""},
		// Not TOML: sets nothing (Codex refuses to start on it).
		{"codex", []string{"[features\nhooks = false\n", "-"}, false, 0, "", ""},
		// GitHub Copilot CLI: the repository's .github/copilot/settings.json
		// (committed) or settings.local.json with a top-level
		// "disableAllHooks": true skips every hook of every source, the
		// user's ~/.copilot/hooks included; policy hooks stay on.
		{"copilot", []string{"-", "-"}, false, 0, "", ""},
		{"copilot", []string{string(off), "-"}, true, 0, `"disableAllHooks" is true`, "install copilot --managed"},
		{"copilot", []string{"-", string(off)}, true, 1, `"disableAllHooks" is true`, "install copilot --managed"},
		{"copilot", []string{string(off), string(on)}, false, 0, "", ""},
		{"copilot", []string{`{"disableAllHooks": "true"}`, "-"}, false, 0, "", ""},
		// An agent without switch files.
		{"cursor", []string{`{"disableAllHooks": true}`}, false, 0, "", ""},
	}
	for _, tc := range tests {
		a, _ := Lookup(tc.agent)
		contents := make([][]byte, len(tc.files))
		for i, f := range tc.files {
			if f != "-" {
				contents[i] = []byte(f)
			}
		}
		got, isOff := a.Switches(contents)
		if isOff != tc.wantOff || isOff && got.File != tc.wantFile {
			t.Errorf("%s %q: off %v in file %d, want off %v in file %d", tc.agent, tc.files, isOff, got.File, tc.wantOff, tc.wantFile)
			continue
		}
		if tc.setting != "" && got.Setting != tc.setting {
			t.Errorf("%s %q: setting %q, want %q", tc.agent, tc.files, got.Setting, tc.setting)
		}
		if !strings.Contains(got.Fix, tc.fix) {
			t.Errorf("%s %q: fix %q, want it to name %q", tc.agent, tc.files, got.Fix, tc.fix)
		}
	}
}

// TestSwitchPath: the user's files in the home folder, or where the
// agent's variable moves it; the project's under the project.
func TestSwitchPath(t *testing.T) {
	codex, _ := Lookup("codex")
	env := func(k string) string { return map[string]string{"CODEX_HOME": "/srv/codex"}[k] }
	none := func(string) string { return "" }
	files := codex.SwitchFiles()
	if len(files) != 2 || !files[0].User || files[1].User || !files[1].IfTrusted {
		t.Fatalf("codex switch files = %+v", files)
	}
	if got := files[0].SwitchPath("/home/u", "/p", none); got != "/home/u/.codex/config.toml" {
		t.Errorf("user file = %q", got)
	}
	if got := files[0].SwitchPath("/home/u", "/p", env); got != "/srv/codex/config.toml" {
		t.Errorf("user file under CODEX_HOME = %q", got)
	}
	if got := files[1].SwitchPath("/home/u", "/p", env); got != "/p/.codex/config.toml" {
		t.Errorf("project file = %q", got)
	}
}

// FuzzSwitches: no switch file content makes the reading panic or take
// long (doctor reads a repository's files).
func FuzzSwitches(f *testing.F) {
	for _, s := range []string{`{"disableAllHooks": true}`, "[features]\nhooks = false\n", "features = { codex_hooks = false }",
		"\ufeff{\"disableAllHooks\": true}", "\ufeff[features]\nhooks = false\n",
		"a = " + strings.Repeat("[", 1000) + strings.Repeat("]", 1000), strings.Repeat(`{"a":`, 5000)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range []string{"claude", "codex"} {
			a, _ := Lookup(name)
			start := time.Now()
			off, isOff := a.Switches([][]byte{data, data, data})
			if isOff && (off.Setting == "" || off.Fix == "") {
				t.Fatalf("%s: off without a setting or fix: %+v", name, off)
			}
			_ = a.EntriesOff(data)("/p/.codex/hooks.json", FileEntry{Event: "PreToolUse"})
			if d := time.Since(start); d > 10*time.Second {
				t.Fatalf("%s: %v to read %d bytes", name, d, len(data))
			}
		}
	})
}

// TestEntriesOff: Codex's per-hook state, in the user's config.toml, as a
// table or inline; only a boolean false turns the entry off.
func TestEntriesOff(t *testing.T) {
	codex, _ := Lookup("codex")
	claude, _ := Lookup("claude")
	e := FileEntry{Event: "PreToolUse", Group: 0, Handler: 0}
	const file = "/p/.codex/hooks.json"
	tests := []struct {
		data string
		want bool
	}{
		{"", false},
		{"[hooks.state.\"/p/.codex/hooks.json:pre_tool_use:0:0\"]\nenabled = false\n", true},
		{"[hooks.state.\"/p/.codex/hooks.json:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:1\"\nenabled = false\n", true},
		{"hooks.state.\"/p/.codex/hooks.json:pre_tool_use:0:0\" = { enabled = false }\n", true},
		{"[hooks.state.\"/p/.codex/hooks.json:pre_tool_use:0:0\"]\nenabled = true\n", false},
		{"[hooks.state.\"/p/.codex/hooks.json:pre_tool_use:0:0\"]\nenabled = \"false\"\n", false},
		{"[hooks.state.\"/p/.codex/hooks.json:pre_tool_use:0:1\"]\nenabled = false\n", false},
		{"[hooks.state.\"/q/.codex/hooks.json:pre_tool_use:0:0\"]\nenabled = false\n", false},
		{"[hooks.state\nenabled = false\n", false},
		// A UTF-8 byte order mark first: Codex reads the file all the same.
		{"\ufeff[hooks.state.\"/p/.codex/hooks.json:pre_tool_use:0:0\"]\nenabled = false\n", true},
	}
	for _, tc := range tests {
		got := codex.EntriesOff([]byte(tc.data))(file, e)
		if (got != "") != tc.want {
			t.Errorf("%q: %q, want off %v", tc.data, got, tc.want)
		}
		if tc.want && !strings.Contains(got, "enabled = false") {
			t.Errorf("%q: %q does not name the setting", tc.data, got)
		}
	}
	if got := claude.EntriesOff([]byte(tests[1].data))(file, e); got != "" {
		t.Errorf("claude: %q, want nothing (no per-hook state)", got)
	}
}
