package agents

import (
	"strings"
	"testing"
)

// TestSwitchesGeminiQwen: Gemini CLI's hooksConfig.enabled and Qwen
// Code's disableAllHooks, in the user's settings and the workspace's, as
// each CLI merges them (the workspace's over the user's) and reads the
// merged value: Gemini runs hooks unless enabled is a JavaScript false
// (false, 0, ""; null and anything not set leave its default, on), Qwen
// runs none when disableAllHooks is any JavaScript true. Both read their
// settings with comments. Doctor read neither switch, and said the
// user's guards fire in a repository that turned them off (attacker
// review; e2e TestDoctorSwitches).
func TestSwitchesGeminiQwen(t *testing.T) {
	for _, c := range []struct {
		agent, user, project string
		off                  bool
		file                 int
	}{
		{"gemini", ``, `{"hooksConfig": {"enabled": false}}`, true, 1},
		{"gemini", `{"hooksConfig": {"enabled": false}}`, ``, true, 0},
		{"gemini", `{"hooksConfig": {"enabled": false}}`, `{"hooksConfig": {"enabled": true}}`, false, 0},
		{"gemini", `{"hooksConfig": {"enabled": false}}`, `{"hooksConfig": {"enabled": null}}`, false, 0},
		{"gemini", `{"hooksConfig": {"enabled": false}}`, `{"hooksConfig": {}}`, true, 0},
		{"gemini", `{"hooksConfig": {"enabled": false}}`, `{"hooksConfig": 5}`, false, 0},
		{"gemini", ``, `{"hooksConfig": {"enabled": 0}}`, true, 1},
		{"gemini", ``, `{"hooksConfig": {"enabled": ""}}`, true, 1},
		{"gemini", ``, `{"hooksConfig": {"enabled": "false"}}`, true, 1},
		{"gemini", ``, `{"hooksConfig": {"enabled": "FALSE"}}`, true, 1},
		{"gemini", ``, `{"hooksConfig": {"enabled": "no"}}`, false, 0},
		{"gemini", `{"hooksConfig": {"enabled": false}}`, `{"hooksConfig": {"enabled": "True"}}`, false, 0},
		{"gemini", ``, `{"hooksConfig": {"enabled": []}}`, false, 0},
		{"gemini", ``, "// c\n{\"hooksConfig\": {/* x */ \"enabled\": false}}", true, 1},
		{"gemini", ``, `{"hooksConfig": {"enabled": false}, "x": 1e400}`, true, 1},
		{"gemini", ``, `{"hooksConfig": {"enabled": false},}`, false, 0},
		{"gemini", ``, `{"enabled": false}`, false, 0},
		{"qwen", ``, `{"disableAllHooks": true}`, true, 1},
		{"qwen", ``, `{"disableAllHooks": 1}`, true, 1},
		{"qwen", ``, `{"disableAllHooks": "no"}`, true, 1},
		{"qwen", ``, `{"disableAllHooks": {}}`, true, 1},
		{"qwen", ``, `{"disableAllHooks": 0}`, false, 0},
		{"qwen", ``, "\ufeff// c\n{\"disableAllHooks\": true}", true, 1},
		{"qwen", `{"disableAllHooks": true}`, `{"disableAllHooks": false}`, false, 0},
		{"qwen", `{"disableAllHooks": true}`, `{"disableAllHooks": null}`, false, 0},
		{"qwen", `{"disableAllHooks": true}`, `{}`, true, 0},
		{"qwen", ``, `{"disableAllHooks": true`, false, 0},
	} {
		a, _ := Lookup(c.agent)
		contents := [][]byte{nil, nil}
		if c.user != "" {
			contents[0] = []byte(c.user)
		}
		if c.project != "" {
			contents[1] = []byte(c.project)
		}
		got, off := a.Switches(contents)
		if off != c.off || off && got.File != c.file {
			t.Errorf("%s user %s project %s: %+v off %v, want off %v in file %d", c.agent, c.user, c.project, got, off, c.off, c.file)
		}
	}
}

// TestLinesOffGemini: hooksConfig.disabled across Gemini CLI's files,
// merged as a union: a workspace's list naming the line install wrote in
// the user's file skips it, whatever the user's own list says.
func TestLinesOffGemini(t *testing.T) {
	gemini, _ := Lookup("gemini")
	const line = "exec hermes-hooks hook gemini BeforeTool"
	q := `"` + line + `"`
	for _, c := range []struct {
		user, project string
		off           bool
		file          int
	}{
		{``, `{"hooksConfig": {"disabled": [` + q + `]}}`, true, 1},
		{`{"hooksConfig": {"disabled": ["other"]}}`, `{"hooksConfig": {"disabled": [` + q + `]}}`, true, 1},
		{`{"hooksConfig": {"disabled": [` + q + `]}}`, `{"hooksConfig": {"disabled": []}}`, true, 0},
		{`{"hooksConfig": {"disabled": [` + q + `]}}`, `{"hooksConfig": {"enabled": true}}`, true, 0},
		{``, `{"hooksConfig": {"disabled": ` + q + `}}`, true, 1},
		{``, `{"hooksConfig": {"disabled": ["exec hermes-hooks"]}}`, false, 0},
		{``, `{"hooksConfig": {"disabled": [1, null, ` + q + `]}}`, true, 1},
		// A hooksConfig that is not an object drops the lists below it.
		{`{"hooksConfig": {"disabled": [` + q + `]}}`, `{"hooksConfig": []}`, false, 0},
		// After such a drop, an object's string is searched as a string.
		{`{"hooksConfig": 1}`, `{"hooksConfig": {"disabled": "x exec hermes-hooks hook gemini BeforeTool y"}}`, true, 1},
		{`{"hooksConfig": 1}`, `{"hooksConfig": {"disabled": "exec hermes-hooks"}}`, false, 0},
		{`{"hooksConfig": 1}`, `{"hooksConfig": {"disabled": [` + q + `]}}`, true, 1},
		{``, "{\"hooksConfig\": {\"disabled\": [" + q + "]}} // c", true, 1},
	} {
		contents := [][]byte{nil, nil}
		if c.user != "" {
			contents[0] = []byte(c.user)
		}
		if c.project != "" {
			contents[1] = []byte(c.project)
		}
		parsed := []ParsedFile{gemini.Parse(contents[0]), gemini.Parse(contents[1])}
		got, off := gemini.LinesOff(gemini.SwitchFiles(), parsed)(line)
		if off != c.off || off && got.File != c.file {
			t.Errorf("user %s project %s: %+v off %v, want off %v in file %d", c.user, c.project, got, off, c.off, c.file)
		}
	}
	qwen, _ := Lookup("qwen")
	if _, off := qwen.LinesOff(qwen.SwitchFiles(), []ParsedFile{qwen.Parse([]byte(`{"hooksConfig": {"disabled": [` + q + `]}}`))})(line); off {
		t.Errorf("Qwen Code read Gemini CLI's disabled list")
	}
}

// TestSwitchesEnvExpanded: Gemini CLI and Qwen Code expand $NAME,
// ${NAME} and ${NAME:-DEFAULT} in their settings' strings before reading
// them: "${UNSET:-}" is "" (false) to Gemini, so its hooks stop; doctor
// read the text as written (true) and said they fire.
func TestSwitchesEnvExpanded(t *testing.T) {
	gemini, _ := Lookup("gemini")
	qwen, _ := Lookup("qwen")
	env := map[string]string{"OFF": "false", "EMPTY": "", "ON": "1", "SESSION_ID": ""}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	project := SwitchFile{Path: ".gemini/settings.json"}
	for _, c := range []struct {
		a    *Agent
		data string
		off  bool
	}{
		{gemini, `{"hooksConfig": {"enabled": "${UNSET:-}"}}`, true},
		{gemini, `{"hooksConfig": {"enabled": "$OFF"}}`, true},
		{gemini, `{"hooksConfig": {"enabled": "${EMPTY}"}}`, true},
		{gemini, `{"hooksConfig": {"enabled": "${EMPTY:-x}"}}`, true},
		{gemini, `{"hooksConfig": {"enabled": "$UNSET"}}`, false},
		{gemini, `{"hooksConfig": {"enabled": "${ON}"}}`, false},
		{gemini, `{"hooksConfig": {"enabled": "${UNSET:-false}"}}`, true},
		{qwen, `{"disableAllHooks": "${UNSET:-}"}`, true}, // no defaults: the text stays
		{qwen, `{"disableAllHooks": "${EMPTY:-}"}`, true}, // the variable "EMPTY:-", unset
		{qwen, `{"disableAllHooks": "${SESSION_ID}"}`, true},
		{qwen, `{"disableAllHooks": "${EMPTY}"}`, false},
		{qwen, `{"disableAllHooks": "$ON"}`, true},
	} {
		p, err := c.a.ParseLayerEnv(project, []byte(c.data), lookup)
		if err != nil {
			t.Fatal(err)
		}
		if _, off := c.a.SwitchesIn([]SwitchFile{project}, []ParsedFile{p}); off != c.off {
			t.Errorf("%s %s: off %v, want %v", c.a.Name, c.data, off, c.off)
		}
	}
	const line = "exec hermes-hooks hook gemini BeforeTool"
	p, _ := gemini.ParseLayerEnv(project, []byte(`{"hooksConfig": {"disabled": ["${UNSET:-exec hermes-hooks} hook gemini $EV"]}}`), func(k string) (string, bool) {
		return map[string]string{"EV": "BeforeTool"}[k], k == "EV"
	})
	if _, off := gemini.LinesOff([]SwitchFile{project}, []ParsedFile{p})(line); !off {
		t.Errorf("a disabled entry written with variables did not name the line")
	}
}

// TestSwitchesEnvBounded: a repository's file of many references to a
// long variable would expand to hundreds of MB; doctor refuses it past
// maxExpanded ("cannot read": whether it turns the hooks off cannot be
// told) instead of growing without bound.
func TestSwitchesEnvBounded(t *testing.T) {
	gemini, _ := Lookup("gemini")
	long := strings.Repeat("x", 4096)
	lookup := func(k string) (string, bool) { return long, k == "L" }
	refs := `"` + strings.Repeat("$L", 1<<20) + `"`
	project := SwitchFile{Path: ".gemini/settings.json"}
	for _, data := range []string{
		`{"hooksConfig": {"disabled": [` + refs + `]}}`,
		`{"hooksConfig": {"disabled": [` + strings.Repeat(`"$L",`, 1<<19) + `"x"]}}`,
	} {
		if _, err := gemini.ParseLayerEnv(project, []byte(data), lookup); err == nil {
			t.Errorf("a file expanding to %d MB was read", len(data)/2*len(long)>>20)
		}
	}
	if _, err := gemini.ParseLayerEnv(project, []byte(`{"hooksConfig": {"disabled": ["$L"]}}`), lookup); err != nil {
		t.Errorf("a small file refused: %v", err)
	}
}

// TestGeminiDisabledListMerge: geminiDisabledList over more files than
// Gemini CLI's two, for the merge's turns: the highest file naming a line
// answers; a list after a dropped one (then a string) starts again; a
// string after a list joins it.
func TestGeminiDisabledListMerge(t *testing.T) {
	const line = "exec hermes-hooks hook gemini BeforeTool"
	list := func(s ...any) map[string]any { return map[string]any{"hooksConfig": map[string]any{"disabled": s}} }
	str := func(s string) map[string]any { return map[string]any{"hooksConfig": map[string]any{"disabled": s}} }
	drop := map[string]any{"hooksConfig": 1.0}
	for _, c := range []struct {
		name string
		docs []map[string]any
		off  bool
		file int
	}{
		{"named thrice", []map[string]any{list(line), list(line), list(line)}, true, 2},
		{"named by the lower two", []map[string]any{list(line), list(line), list("other")}, true, 1},
		{"a string joins the list", []map[string]any{list("other"), str(line), nil}, true, 1},
		{"dropped, then a list", []map[string]any{list(line), drop, list("other")}, false, 0},
		{"dropped, a string, then a list", []map[string]any{drop, str("x " + line), list(line)}, true, 2},
		{"dropped, a list, then not named", []map[string]any{drop, str("x " + line), list("other")}, false, 0},
		{"dropped, a string, another string", []map[string]any{drop, str("x " + line), str("y")}, false, 0},
		{"dropped, a string, the string", []map[string]any{drop, str("y"), str(line + " z")}, true, 2},
		{"a string after a list after a drop", []map[string]any{drop, list("other"), str(line)}, true, 2},
	} {
		file, off := geminiDisabledList(c.docs)(line)
		if off != c.off || off && file != c.file {
			t.Errorf("%s: file %d off %v, want off %v in file %d", c.name, file, off, c.off, c.file)
		}
	}
}
