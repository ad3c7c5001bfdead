package agents

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// dotenv's parse, as Gemini CLI and Qwen Code read a .env.
func TestParseDotenv(t *testing.T) {
	for _, c := range []struct {
		in   string
		want map[string]string
	}{
		{"A=1\n", map[string]string{"A": "1"}},
		{"export A=1", map[string]string{"A": "1"}},
		{"A = 1 # note\n", map[string]string{"A": "1"}},
		{"A: 1", map[string]string{"A": "1"}},
		{`A="x\ny"`, map[string]string{"A": "x\ny"}},
		{`A='x\ny'`, map[string]string{"A": `x\ny`}},
		{"A=`q`", map[string]string{"A": "q"}},
		{"A=\"multi\nline\"\nB=2", map[string]string{"A": "multi\nline", "B": "2"}},
		{"A=1\r\nB=2\r\n", map[string]string{"A": "1", "B": "2"}},
		{"A=1\nA=2", map[string]string{"A": "2"}}, // the later wins
		{"# A=1\n", map[string]string{}},
		{"A=\n", map[string]string{"A": ""}},
		{"not a line\n", map[string]string{}},
	} {
		if got := ParseDotenv([]byte(c.in)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseDotenv(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestDotenvNames(t *testing.T) {
	for in, want := range map[string]bool{
		"HERMES_SAFE_MODE=1":              true,
		"  export HERMES_SAFE_MODE = 1":   true,
		"\ufeffHERMES_SAFE_MODE=1":        true,
		"HERMES_SAFE_MODE: 1":             true,
		"# HERMES_SAFE_MODE=1":            false,
		"XHERMES_SAFE_MODE=1":             false,
		"HERMES_SAFE_MODE_OTHER=1":        false,
		"OTHER=1\nHERMES_SAFE_MODE=\"1\"": true,
		// JavaScript's whitespace and line starts, which Go's \s and ^ miss.
		"\u00a0HERMES_SAFE_MODE=1":             true,
		"HERMES_SAFE_MODE\u00a0=1":             true,
		"\vHERMES_SAFE_MODE=1":                 true,
		"A=1\u2028HERMES_SAFE_MODE=1":          true,
		"\u3000export\u3000HERMES_SAFE_MODE=1": true,
		"HERMES_SAFE_MODE\n=1":                 true,
	} {
		if got := DotenvNames([]byte(in), "HERMES_SAFE_MODE"); got != want {
			t.Errorf("DotenvNames(%q) = %v, want %v", in, got, want)
		}
	}
}

// A settings file's "env" as the agent reads it: past a BOM, with Qwen
// Code's comments and expansion, key escapes and a second "ENV" key that
// Go's encoding/json would have matched to "env".
func TestSettingsEnv(t *testing.T) {
	claude, _ := Lookup("claude")
	qwen, _ := Lookup("qwen")
	lookup := func(k string) (string, bool) { return map[string]string{"PWD": "/w"}[k], k == "PWD" }
	for _, c := range []struct {
		a    *Agent
		in   string
		want map[string]any
	}{
		{claude, `{"env": {"A": "x", "B": 1}, "hooks": {}}`, map[string]any{"A": "x", "B": 1.0}},
		{claude, "\ufeff{\"env\": {\"\\u0041\": \"1\"}}", map[string]any{"A": "1"}},
		{claude, `{"env": {"A": "1"}, "ENV": null}`, map[string]any{"A": "1"}},
		{claude, `{"env": `, nil},
		{qwen, "// c\n{\"env\": {\"\\u0041\": \"$PWD/.qh\"}, /* x */ \"ENV\": null}", map[string]any{"A": "/w/.qh"}},
	} {
		got, err := c.a.SettingsEnv([]byte(c.in), lookup)
		if err != nil || len(got) != len(c.want) {
			t.Errorf("%s %q: %v, %v; want %v", c.a.Name, c.in, got, err, c.want)
			continue
		}
		for k, v := range c.want {
			if !reflect.DeepEqual(got[k], v) && fmtNum(got[k]) != fmtNum(v) {
				t.Errorf("%s %q: %s = %#v, want %#v", c.a.Name, c.in, k, got[k], v)
			}
		}
	}
}

func fmtNum(v any) string { return strings.TrimSpace(strings.Trim(fmt.Sprint(v), "{}")) }

// Where each agent takes hook environment from: the project's files, the
// home folder's never (they are the user's own).
func TestRepoEnvFiles(t *testing.T) {
	paths := func(groups [][]EnvFile) string {
		var out []string
		for _, g := range groups {
			var ps []string
			for _, f := range g {
				ps = append(ps, f.Path+"@"+f.Within)
			}
			out = append(out, strings.Join(ps, " "))
		}
		return strings.Join(out, " | ")
	}
	for _, c := range []struct {
		agent, dir, home, want string
	}{
		{"claude", "/p", "/home/u", "/p/.claude/settings.json@/p | /p/.claude/settings.local.json@/p"},
		{"claude", "/home/u", "/home/u", ""},
		{"gemini", "/home/u/src/p", "/home/u", "/home/u/src/p/.gemini/.env@/home/u/src/p /home/u/src/p/.env@/home/u/src/p /home/u/src/.gemini/.env@/home/u/src /home/u/src/.env@/home/u/src"},
		{"gemini", "/w/p", "/home/u", "/w/p/.gemini/.env@/w/p /w/p/.env@/w/p /w/.gemini/.env@/w /w/.env@/w /.gemini/.env@/ /.env@/"},
		{"gemini", "/home/u", "/home/u", ""},
		{"qwen", "/home/u/p", "/home/u", "/home/u/p/.qwen/.env@/home/u/p /home/u/p/.env@/home/u/p | /home/u/p/.qwen/settings.json@/home/u/p"},
		{"qwen", "/home/u", "/home/u", ""},
		{"codex", "/p", "/home/u", ""},
		{"claude", "relative", "/home/u", ""},
	} {
		a, _ := Lookup(c.agent)
		got := paths(a.RepoEnvFiles(c.dir, c.home))
		if got != c.want {
			t.Errorf("%s in %s: %q, want %q", c.agent, c.dir, got, c.want)
		}
	}
}

func FuzzParseDotenv(f *testing.F) {
	for _, s := range []string{"A=1", "export A=\"x\\n\"", "A='", "A=`\n`", "\r\r=\r"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		env := ParseDotenv(data)
		for k := range env {
			if k == "" {
				t.Fatal("an empty name")
			}
		}
		_ = PlainDotenv(data)
		_ = DotenvNames(data, "HERMES_SAFE_MODE")
	})
}

// DotenvNames is a scan; these regular expressions say the same (slowly):
// before the name a line start of JavaScript's, its whitespace, an
// optional export; after it whitespace, = or :.
func FuzzDotenvNames(f *testing.F) {
	ws := `[\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]`
	before := regexp.MustCompile(`(?:\A|[\n\r\x{2028}\x{2029}])` + ws + `*(?:export` + ws + `+)?\z`)
	after := regexp.MustCompile(`\A` + ws + `*[=:]`)
	for _, s := range []string{"H=1", " export H: 1", "\u00a0H=1", "A=1\u2028H=1", "exportH=1", "xH=1", "export\u3000H\u00a0=", "\n\nexport\n H\n=", "!H:0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		want := false
		for i := 0; i < len(s) && !want; i++ {
			want = s[i] == 'H' && (i == 0 || !wordByte(s[i-1])) &&
				before.MatchString(s[:i]) && after.MatchString(s[i+1:])
		}
		if got := DotenvNames([]byte(s), "H"); got != want {
			t.Errorf("DotenvNames(%q) = %v, the regexps say %v", s, got, want)
		}
	})
}

// A .env far above where the agent starts is still one it loads: Gemini
// CLI walks to the root. The walk stopped at 256 folders, so a .env 260
// folders up went unchecked (an attacker's re-read).
func TestRepoEnvFilesWalkToTheRoot(t *testing.T) {
	gemini, _ := Lookup("gemini")
	dir := "/top" + strings.Repeat("/d", 300)
	files := gemini.RepoEnvFiles(dir, "/home/u")
	found := false
	for _, group := range files {
		for _, f := range group {
			found = found || f.Path == "/top/.env"
		}
	}
	if !found {
		t.Errorf("gemini started 300 folders below /top: /top/.env is not among the files it loads")
	}
}

// TestRepoEnvRefuses: Qwen Code 0.24.4 takes no loader variable
// (isLoaderEnvKey: lower-cased, "_" read as "-") and none of its
// project-file exclusions (lower-cased) from a project's files; the
// other agents refuse none.
func TestRepoEnvRefuses(t *testing.T) {
	qwen, _ := Lookup("qwen")
	claude, _ := Lookup("claude")
	for name, want := range map[string]bool{
		"BASH_ENV": true, "bash-env": true, "BASH_FUNC_jq%%": true, "NODE_OPTIONS": true, "PYTHONSTARTUP": true,
		"GIT_CONFIG_COUNT": true, "git_config_global": true, "XDG_CONFIG_HOME": true, "GIT_EXTERNAL_DIFF": true, "GIT_EXEC_PATH": true,
		"GIT_SSH_COMMAND": true, "git_askpass": true, "GIT_EDITOR": true, "GIT_TEMPLATE_DIR": true,
		// Not on either list: taken.
		"GIT_DIR": false, "LD_LIBRARY_PATH": false, "PYTHONPATH": false, "SHELLOPTS": false,
		// The exclusions are compared without reading "-" as "_".
		"git-config-count": false,
		// Its patterns: git's numbered configuration pairs.
		"GIT_CONFIG_KEY_0": true, "git_config_value_12": true, "GIT_CONFIG_KEY_": false, "GIT_CONFIG_KEY_x": false,
	} {
		if got := qwen.RepoEnvRefuses(name); got != want {
			t.Errorf("qwen RepoEnvRefuses(%q) = %v, want %v", name, got, want)
		}
		if claude.RepoEnvRefuses(name) {
			t.Errorf("claude RepoEnvRefuses(%q)", name)
		}
	}
}
