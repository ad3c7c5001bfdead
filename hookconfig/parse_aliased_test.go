package hookconfig

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A top-level setting written as an alias (journal: *j) is its anchor's
// value, merge keys resolved, as PyYAML (Hermes) reads it, and so is a
// mapping under it (otlp: *o, headers: *h): such a block was dropped with
// "must be a mapping …; got dict" and the journal or export it set was
// not what the file says.
func TestAliasedSettings(t *testing.T) {
	const otlp = "o: &o {endpoint: 'http://127.0.0.1:4318', timeout: 5}\n"
	for _, tc := range []struct {
		name, yaml string
		check      func(*Config) bool
	}{
		{"journal", "j: &j {path: /j.jsonl, include_payload: true}\njournal: *j\n",
			func(c *Config) bool { return c.Journal.Path == "/j.jsonl" && c.Journal.IncludePayload }},
		{"journal with a merge key", "b: &b {include_payload: true, max_bytes: 8192}\nj: &j {<<: *b, path: /j.jsonl}\njournal: *j\n",
			func(c *Config) bool {
				return c.Journal.Path == "/j.jsonl" && c.Journal.IncludePayload && c.Journal.MaxBytes == 8192
			}},
		{"journal merged inline", "b: &b {include_payload: true, enabled: false}\njournal: {<<: *b}\n",
			func(c *Config) bool { return c.Journal.IncludePayload && c.Journal.Off }},
		{"journal off by a scalar", "off: &off false\njournal: *off\n", func(c *Config) bool { return c.Journal.Off }},
		{"export", "e: &e {file: /x.jsonl, syslog: 'udp://127.0.0.1:514'}\nexport: *e\n",
			func(c *Config) bool { return absEndingIn(c.Export.File, "/x.jsonl") && c.Export.Syslog != nil }},
		{"export with a merge key", otlp + "e: &e {<<: {file: /x.jsonl}, otlp: true}\nexport: *e\n",
			func(c *Config) bool { return absEndingIn(c.Export.File, "/x.jsonl") && c.Export.OTLP != nil }},
		{"export.otlp", otlp + "export: {otlp: *o}\n",
			func(c *Config) bool {
				return c.Export.OTLP != nil && c.Export.OTLP.Endpoint == "http://127.0.0.1:4318" && c.Export.OTLP.Timeout == 5*time.Second
			}},
		{"export.otlp merged", otlp + "export: {otlp: {<<: *o, protocol: http/json}}\n",
			func(c *Config) bool {
				return c.Export.OTLP != nil && c.Export.OTLP.Endpoint == "http://127.0.0.1:4318" && c.Export.OTLP.Protocol == "http/json"
			}},
		{"export.otlp.headers", "h: &h {Authorization: Bearer x}\nexport: {otlp: {endpoint: 'http://127.0.0.1:4318', headers: *h}}\n",
			func(c *Config) bool {
				return c.Export.OTLP != nil && c.Export.OTLP.Headers["Authorization"] == "Bearer x"
			}},
		{"export through two aliases", otlp + "e: &e {otlp: *o}\nexport: *e\n",
			func(c *Config) bool { return c.Export.OTLP != nil && c.Export.OTLP.Endpoint == "http://127.0.0.1:4318" }},
		{"tool_aliases", "a: &a {my_shell: Bash}\ntool_aliases: *a\n",
			func(c *Config) bool { return c.ToolAliases["my_shell"] == "Bash" }},
		{"rules", "r: &r [rules/team.yaml]\nrules: *r\n",
			func(c *Config) bool { return len(c.ruleFiles) == 1 && c.ruleFiles[0].name == "rules/team.yaml" }},
		{"an agent's hook files", "f: &f [s.json]\nclaude_settings: *f\n",
			func(c *Config) bool { return fmt.Sprint(c.AgentFiles) == "map[claude:[s.json]]" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := ParseConfig([]byte(tc.yaml), filepath.Join(string(filepath.Separator)+"cfg", "config.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(cfg) || len(cfg.Warnings) > 0 {
				t.Errorf("journal %+v, export %+v (otlp %+v), tool_aliases %v, rules %v, files %v; warnings %v",
					cfg.Journal, cfg.Export, cfg.Export.OTLP, cfg.ToolAliases, cfg.ruleFiles, cfg.AgentFiles, cfg.Warnings)
			}
		})
	}
}

// What holds for a block written out holds behind an alias: a key given
// twice in the aliased mapping is the file's error (a reviewer of the
// anchor sees two values), and a bad value is warned at the key it is.
func TestAliasedSettingsChecked(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, want string
		isErr            bool
	}{
		{"journal key twice", "j: &j {path: /a, path: /b}\njournal: *j\n", "journal: key 'path' is given twice (lines 1 and 1)", true},
		{"otlp key twice", "o: &o {endpoint: 'http://a:4318', endpoint: 'http://b:4318'}\nexport: {otlp: *o}\n", "export.otlp: key 'endpoint' is given twice", true},
		{"a bad journal value", "j: &j {max_bytes: 10}\njournal: *j\n", "journal.max_bytes: must be a whole number of bytes", false},
		{"a bad export key", "e: &e {kafka: x}\nexport: *e\n", "export.kafka: is not an export key", false},
		{"an alias to a list", "l: &l [a]\nexport: *l\n", "export: must be a mapping (otlp, syslog, file); got list", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := ParseConfig([]byte(tc.yaml), "/c.yaml")
			if tc.isErr {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var warns []string
			for _, w := range cfg.Warnings {
				warns = append(warns, w.String())
			}
			if !strings.Contains(strings.Join(warns, "\n"), tc.want) {
				t.Fatalf("warnings %q, want %q", warns, tc.want)
			}
		})
	}
}

// A repository's hooks file cannot choose where decisions go, nor move
// the journal, behind an alias either: its blocks are read, then ignored
// with the warning a block written out gets; the user's stay.
func TestProjectAliasedExportIgnored(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "config.yaml")
	mine := filepath.Join(dir, "mine.jsonl")
	if err := os.WriteFile(user, []byte("export:\n  file: "+mine+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(dir, "repo")
	for _, d := range []string{".hermes", ".git"} {
		if err := os.MkdirAll(filepath.Join(proj, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	hooks := "x: &e {file: /tmp/theirs.jsonl, otlp: {endpoint: 'http://evil:4318'}}\nj: &j {path: /tmp/theirs-journal.jsonl}\nexport: *e\njournal: *j\n"
	if err := os.WriteFile(filepath.Join(proj, ".hermes", "hooks.yaml"), []byte(hooks), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(user, LoadOptions{ProjectDir: proj})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Export.File != mine || cfg.Export.OTLP != nil || cfg.Journal.Path != "" {
		t.Errorf("export %+v, journal %+v: the repository's block was applied", cfg.Export, cfg.Journal)
	}
	var export, journal bool
	for _, w := range cfg.Warnings {
		export = export || strings.Contains(w.String(), "export: is ignored in a project's hooks file")
		journal = journal || strings.Contains(w.String(), "journal: is ignored in a project's hooks file")
	}
	if !export || !journal {
		t.Errorf("warnings %v: want both blocks named as ignored", cfg.Warnings)
	}
}
