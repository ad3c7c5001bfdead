package agents

import (
	"reflect"
	"strings"
	"testing"
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
	} {
		if got := DotenvNames([]byte(in), "HERMES_SAFE_MODE"); got != want {
			t.Errorf("DotenvNames(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestParseSettingsEnv(t *testing.T) {
	got, err := ParseSettingsEnv([]byte(`{"env": {"A": "x", "B": 1, "C": true}, "hooks": {}}`))
	if err != nil || !reflect.DeepEqual(got, map[string]string{"A": "x", "B": "1", "C": "true"}) {
		t.Errorf("got %q, %v", got, err)
	}
	if _, err := ParseSettingsEnv([]byte(`{"env": `)); err == nil {
		t.Error("a truncated file read as setting nothing, without an error")
	}
}

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
		_, _ = ParseSettingsEnv(data)
		_ = DotenvNames(data, "HERMES_SAFE_MODE")
	})
}
