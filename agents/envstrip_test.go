package agents

import (
	"strings"
	"testing"
)

// TestStrippedGemini: which variables Gemini CLI strips from its hooks'
// environment, from its settings files merged as it merges them (system
// defaults, the user's, the workspace's, the system's; the highest file
// that sets "enabled", "allowed" or "blocked" gives it, lists replaced
// whole), and which file decides. Read from 0.61.0's
// environmentSanitization.ts: a name in "allowed" passes the blocked list
// and strict mode but not a value that looks like a secret; a name in
// "blocked" is stripped even from the always-allowed list (HOME); strict
// mode (GITHUB_SHA, SURFACE=Github) strips anything not allowed.
// hermes-hooks' controls reached `hook gemini` stripped, unseen.
func TestStrippedGemini(t *testing.T) {
	const (
		on      = `{"security": {"environmentVariableRedaction": {"enabled": true}}}`
		block   = `{"security": {"environmentVariableRedaction": {"enabled": true, "blocked": ["hermes_home"]}}}`
		blockNo = `{"security": {"environmentVariableRedaction": {"blocked": ["HERMES_HOME"]}}}`
		allow   = `{"security": {"environmentVariableRedaction": {"allowed": ["HERMES_HOME"]}}}`
		allowNo = `{"security": {"environmentVariableRedaction": {"allowed": []}}}`
	)
	for _, c := range []struct {
		name                            string
		defaults, user, project, system string
		variable, value                 string
		strict                          bool
		stripped, byProject, byValue    bool
		file                            int // into system defaults, user, project, system
		setting                         string
	}{
		{name: "nothing set", variable: "HERMES_HOME", value: "/h"},
		{name: "redaction on, a plain name passes", user: on, variable: "HERMES_HOME", value: "/h"},
		{name: "blocked without enabled", user: blockNo, variable: "HERMES_HOME", value: "/h"},
		{name: "the project blocks it", project: block, variable: "HERMES_HOME", value: "/h",
			stripped: true, byProject: true, file: 2, setting: `"blocked" names HERMES_HOME`},
		{name: "the project blocks, the user enables", user: on, project: blockNo, variable: "HERMES_HOME",
			stripped: true, byProject: true, file: 2},
		{name: "the user blocks", user: block, variable: "HERMES_HOME", value: "/h", stripped: true, file: 1},
		{name: "the user allows over the project's block", user: allow, project: block, variable: "HERMES_HOME"},
		{name: "the project's allow list replaces the user's", user: allow,
			project:  `{"security": {"environmentVariableRedaction": {"enabled": true, "blocked": ["HERMES_HOME"], "allowed": []}}}`,
			variable: "HERMES_HOME", stripped: true, byProject: true, file: 2},
		{name: "the system's allow list outranks the project's", system: allow,
			project:  `{"security": {"environmentVariableRedaction": {"enabled": true, "blocked": ["HERMES_HOME"], "allowed": []}}}`,
			variable: "HERMES_HOME"},
		{name: "the system blocks", system: block, variable: "HERMES_HOME", stripped: true, file: 3},
		{name: "system defaults block, the user turns redaction off", defaults: block,
			user: `{"security": {"environmentVariableRedaction": {"enabled": false}}}`, variable: "HERMES_HOME"},
		{name: "the project's security not an object drops the user's block", user: block, project: `{"security": null}`,
			variable: "HERMES_HOME"},
		{name: "the project's redaction not an object drops the user's allow", user: allow,
			project: `{"security": {"environmentVariableRedaction": "x"}}`, strict: true,
			variable: "HERMES_HOME", stripped: true, byProject: true, file: 2},
		{name: "a string enabled is JavaScript's true", project: `{"security": {"environmentVariableRedaction": {"enabled": "false", "blocked": ["HERMES_HOME"]}}}`,
			variable: "HERMES_HOME", stripped: true, byProject: true, file: 2},
		{name: "comments and expansion", project: "// c\n{\"security\": {\"environmentVariableRedaction\": {\"enabled\": \"${UNSET:-1}\", /* x */ \"blocked\": [\"HERMES_HOOKS_MANAGED_CONFIG\"]}}}",
			variable: "HERMES_HOOKS_MANAGED_CONFIG", stripped: true, byProject: true, file: 2},
		{name: "strict mode", strict: true, variable: "HERMES_HOME", value: "/h", stripped: true, file: -1, setting: "GITHUB_SHA"},
		{name: "strict mode, the user allows", strict: true, user: allow, variable: "HERMES_HOME"},
		{name: "strict mode keeps GEMINI_CLI_ and the allow-list", strict: true, variable: "GEMINI_CLI_X"},
		{name: "strict mode keeps HOME", strict: true, variable: "HOME"},
		{name: "blocked strips HOME too", project: `{"security": {"environmentVariableRedaction": {"enabled": true, "blocked": ["HOME"]}}}`,
			variable: "HOME", stripped: true, byProject: true, file: 2},
		{name: "a secret's name", user: on, variable: "HERMES_HOOKS_KEY_PASSWORD", stripped: true, file: 1},
		{name: "a secret's value, allowed or not", user: allow, project: on, variable: "HERMES_HOME", value: "/home/u/honeyj.a.b",
			stripped: true, byProject: true, byValue: true, file: 2},
		{name: "a plain path", user: on, variable: "HERMES_HOME", value: "/home/u/.hermes-team"},
	} {
		a, _ := Lookup("gemini")
		files := a.StripFiles("/home/u", "/work/repo", func(string) string { return "" }, "linux")
		if len(files) != 4 || !files[2].Project || !files[0].System || !files[3].System || files[3].Path != "/etc/gemini-cli/settings.json" {
			t.Fatalf("files %+v", files)
		}
		parsed := make([]ParsedFile, 4)
		for i, data := range []string{c.defaults, c.user, c.project, c.system} {
			if data != "" {
				parsed[i] = a.Parse([]byte(data))
			}
		}
		got := a.StrippedOf(files, parsed, []string{c.variable}, map[string]string{c.variable: c.value}, c.strict)
		if !c.stripped {
			if len(got) != 0 {
				t.Errorf("%s: %+v, want nothing stripped", c.name, got)
			}
			continue
		}
		if len(got) != 1 {
			t.Errorf("%s: %+v, want %s stripped", c.name, got, c.variable)
			continue
		}
		s := got[0]
		if s.Name != c.variable || s.File != c.file || s.ByProject != c.byProject || s.ByValue != c.byValue || !strings.Contains(s.Setting, c.setting) {
			t.Errorf("%s: %+v, want file %d by project %v by value %v setting %q", c.name, s, c.file, c.byProject, c.byValue, c.setting)
		}
		if fix := a.StripFix(files, parsed, s); fix == "" {
			t.Errorf("%s: no fix", c.name)
		}
	}
}

// TestStripFilesGemini: where Gemini CLI's settings files are: the
// system's moved by GEMINI_CLI_SYSTEM_SETTINGS_PATH (the defaults beside
// it), the user's by GEMINI_CLI_HOME, and no workspace file of its own
// in the home folder.
func TestStripFilesGemini(t *testing.T) {
	a, _ := Lookup("gemini")
	env := map[string]string{"GEMINI_CLI_SYSTEM_SETTINGS_PATH": "/opt/g/s.json", "GEMINI_CLI_HOME": "/gh"}
	files := a.StripFiles("/home/u", "/gh", func(k string) string { return env[k] }, "linux")
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	if got := strings.Join(paths, " "); got != "/opt/g/system-defaults.json /gh/.gemini/settings.json /opt/g/s.json" {
		t.Errorf("files %s", got)
	}
	if q, _ := Lookup("qwen"); q.StripsEnv() {
		t.Error("Qwen Code strips no variable by its settings (sanitizeChildEnv: its own tokens only)")
	}
}

// TestStripFixGemini: the fix names the file whose allow-list decides:
// the system settings for a project's setting (they outrank a folder's),
// the system's own list when it sets one, else the user's file.
func TestStripFixGemini(t *testing.T) {
	a, _ := Lookup("gemini")
	files := a.StripFiles("/home/u", "/work/repo", func(string) string { return "" }, "linux")
	parse := func(docs ...string) []ParsedFile {
		out := make([]ParsedFile, 4)
		for i, d := range docs {
			if d != "" {
				out[i] = a.Parse([]byte(d))
			}
		}
		return out
	}
	block := `{"security": {"environmentVariableRedaction": {"enabled": true, "blocked": ["HERMES_HOME"]}}}`
	for _, c := range []struct {
		parsed []ParsedFile
		want   string
	}{
		{parse("", "", block, ""), `"allowed" in /etc/gemini-cli/settings.json (Gemini CLI's system settings, which outrank a folder's)`},
		{parse("", block, "", ""), `"allowed" in /home/u/.gemini/settings.json (`},
		{parse("", block, "", `{"security": {"environmentVariableRedaction": {"allowed": ["X"]}}}`), `"allowed" in /etc/gemini-cli/settings.json (its list replaces yours)`},
	} {
		got := a.StrippedOf(files, c.parsed, []string{"HERMES_HOME"}, nil, false)
		if len(got) != 1 {
			t.Fatalf("%+v", got)
		}
		if fix := a.StripFix(files, c.parsed, got[0]); !strings.Contains(fix, c.want) {
			t.Errorf("fix %q, want %q in it", fix, c.want)
		}
	}
}

// TestStripMayDecide: a settings file without the redaction key cannot
// change what Gemini CLI strips, unless it spells a key with a \u escape
// (decoded, it may be that key); an agent without such settings never.
func TestStripMayDecide(t *testing.T) {
	gemini, _ := Lookup("gemini")
	claude, _ := Lookup("claude")
	for data, want := range map[string]bool{
		`{"hooks": {}}`: false,
		`{"security": {"environmentVariableRedaction": {"enabled": true}}}`:      true,
		`{"security": {"environmentVariableRedactio\u006e": {"enabled": true}}}`: true,
		`{"context": {"fileName": "GEMINI.md"}}`:                                 false,
		``:                                                                       false,
	} {
		if got := gemini.StripMayDecide([]byte(data)); got != want {
			t.Errorf("gemini %s: %v, want %v", data, got, want)
		}
		if claude.StripMayDecide([]byte(data)) {
			t.Errorf("claude %s: may decide", data)
		}
	}
}
