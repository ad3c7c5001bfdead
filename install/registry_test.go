package install

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// parseRegistry: a registry of this format is its records; anything else
// is a *CorruptError naming the file and why, never a partial list.
func TestParseRegistry(t *testing.T) {
	// Paths as JSON strings of absolute paths of this system ("C:\\p" on Windows).
	q := func(p string) string { b, _ := json.Marshal(abs(p)); return string(b) }
	rec := `{"agent": "claude", "scope": "project", "root": ` + q("/p") + `, "path": ` + q("/p/.claude/settings.json") + `, "kind": "entries", "wrote": [], "installed_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z", "version": "v", "binary": "/b"}`
	for _, tc := range []struct {
		name, data string
		n          int
		corrupt    string
	}{
		{"empty file", "", 0, ""},
		{"blank", " \n", 0, ""},
		{"no installs", `{"version": 1, "installs": []}`, 0, ""},
		{"one record", `{"version": 1, "installs": [` + rec + `]}`, 1, ""},
		{"not JSON", "hello", 0, "invalid character"},
		{"a later format", `{"version": 2, "installs": []}`, 0, "format version 2"},
		{"no version", `{"installs": []}`, 0, "format version 0"},
		// Keys a later release adds (as "created" was): an older
		// hermes-hooks on the same machine reads past them, rather than
		// calling the file corrupt and moving every record aside.
		{"an unknown key", `{"version": 1, "installs": [], "extra": 1}`, 0, ""},
		{"a record's key of a later release", `{"version": 1, "installs": [` + strings.TrimSuffix(rec, "}") + `, "later": {"x": [1]}}]}`, 1, ""},
		{"a record without a path", `{"version": 1, "installs": [{"agent": "claude", "scope": "user", "root": ` + q("/h") + `}]}`, 0, "record 1 lacks"},
		{"a relative path", `{"version": 1, "installs": [{"agent": "claude", "scope": "user", "root": ` + q("/h") + `, "path": "x"}]}`, 0, "record 1 lacks"},
		{"a relative root", `{"version": 1, "installs": [{"agent": "claude", "scope": "user", "root": "h", "path": ` + q("/x") + `}]}`, 0, "record 1 lacks"},
		{"an unknown scope", `{"version": 1, "installs": [{"agent": "claude", "scope": "all", "root": ` + q("/h") + `, "path": ` + q("/x") + `}]}`, 0, "record 1 lacks"},
		{"installs not a list", `{"version": 1, "installs": {}}`, 0, "cannot unmarshal"},
	} {
		rs, err := parseRegistry("/s/reg.json", []byte(tc.data))
		var ce *CorruptError
		switch {
		case tc.corrupt == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.corrupt != "" && (!errors.As(err, &ce) || !strings.Contains(err.Error(), tc.corrupt) || !strings.HasPrefix(err.Error(), "/s/reg.json: ")):
			t.Errorf("%s: err = %v, want a CorruptError with %q", tc.name, err, tc.corrupt)
		case len(rs) != tc.n:
			t.Errorf("%s: %d records, want %d", tc.name, len(rs), tc.n)
		}
	}
}

func FuzzParseRegistry(f *testing.F) {
	q := func(p string) string { b, _ := json.Marshal(abs(p)); return string(b) }
	f.Add([]byte(`{"version": 1, "installs": [{"agent": "claude", "scope": "user", "root": ` + q("/h") + `, "path": ` + q("/h/.claude/settings.json") + `}]}`))
	f.Add([]byte(`{"version": 1, "installs": [{"agent": "claude", "scope": "managed", "root": ` + q("/") + `, "path": ` + q("/etc/claude-code/managed-settings.json") + `}]}`))
	f.Add([]byte(`{"version": 1, "installs": []}`))
	f.Add([]byte(`{"version": 1}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := parseRegistry("/r", data)
		if err != nil {
			var ce *CorruptError
			if !errors.As(err, &ce) {
				t.Fatalf("not a CorruptError: %v", err)
			}
			if rs != nil {
				t.Fatalf("records beside an error: %v", rs)
			}
			return
		}
		for _, r := range rs {
			if !filepath.IsAbs(r.Path) || !filepath.IsAbs(r.Root) || r.Agent == "" || (r.Scope != ScopeUser && r.Scope != ScopeProject && r.Scope != ScopeManaged) {
				t.Fatalf("accepted a record install cannot have made: %+v", r)
			}
		}
	})
}

// Remember keeps one record per installation (agent and path), its first
// install time kept when it is installed again; Forget takes it out; the
// file is private (0600).
func TestRegistryRememberForget(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	g := NewRegistry(dir)
	if _, err := g.Forget("claude", abs("/p/.claude/settings.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("Forget without a registry made %s", dir)
	}
	clock := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	g.Now = func() time.Time { return clock }
	a := Record{Agent: "claude", Scope: ScopeProject, Root: abs("/p"), Path: abs("/p/.claude/settings.json"), Kind: KindEntries, Wrote: []string{"Stop: x"}}
	b := Record{Agent: "gemini", Scope: ScopeUser, Root: abs("/h"), Path: abs("/h/.gemini/settings.json"), Kind: KindEntries}
	for _, r := range []Record{a, b} {
		if _, err := g.Remember(r); err != nil {
			t.Fatal(err)
		}
	}
	clock = clock.Add(time.Hour)
	a.Wrote = []string{"Stop: y"}
	if _, err := g.Remember(a); err != nil {
		t.Fatal(err)
	}
	rs, err := g.Load()
	if err != nil || len(rs) != 2 {
		t.Fatalf("Load = %v, %v; want 2 records", rs, err)
	}
	got := rs[0]
	if got.Agent != "claude" || got.Wrote[0] != "Stop: y" || !got.InstalledAt.Equal(clock.Add(-time.Hour)) || !got.UpdatedAt.Equal(clock) {
		t.Errorf("the reinstalled record = %+v; want its first install time kept and the new lines", got)
	}
	if rs[1].Wrote == nil {
		t.Errorf("a record without lines has wrote null, want []")
	}
	// The same installation again, nothing of it changed (install
	// --refresh that says "nothing changed"): not a rewrite.
	clock = clock.Add(time.Hour)
	if _, err := g.Remember(a); err != nil {
		t.Fatal(err)
	}
	if rs, _ := g.Load(); !rs[0].UpdatedAt.Equal(clock.Add(-time.Hour)) {
		t.Errorf("remembered again unchanged: updated %v, want %v kept", rs[0].UpdatedAt, clock.Add(-time.Hour))
	}
	checkPerm(t, "registry", g.Path, 0o600)
	if _, err := g.Forget("claude", a.Path); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Forget("claude", abs("/nowhere")); err != nil {
		t.Errorf("forgetting what is not recorded: %v", err)
	}
	if rs, _ := g.Load(); len(rs) != 1 || rs[0].Agent != "gemini" {
		t.Errorf("after Forget: %+v, want gemini's only", rs)
	}
}

// TestRegistryKeepsCreatedDirs: the folders the first install created stay
// recorded through a later install into the file that created none (it
// found them there): uninstall may still remove them.
func TestRegistryKeepsCreatedDirs(t *testing.T) {
	g := NewRegistry(filepath.Join(t.TempDir(), "state"))
	rec := Record{Agent: "cline", Scope: ScopeUser, Root: abs("/h"), Path: abs("/h/Documents/Cline/Hooks"), Kind: KindOwned,
		CreatedDirs: []string{abs("/h/Documents/Cline"), abs("/h/Documents/Cline/Hooks")}}
	if _, err := g.Remember(rec); err != nil {
		t.Fatal(err)
	}
	rec.CreatedDirs, rec.Wrote = nil, []string{abs("/h/Documents/Cline/Hooks/TaskStart")}
	if _, err := g.Remember(rec); err != nil {
		t.Fatal(err)
	}
	got, ok := g.Lookup("cline", rec.Path)
	if want := abs("/h/Documents/Cline") + "," + abs("/h/Documents/Cline/Hooks"); !ok || strings.Join(got.CreatedDirs, ",") != want {
		t.Errorf("created dirs %v (recorded: %v), want %s", got.CreatedDirs, ok, want)
	}
}

// A registry that is not one is kept as a copy, never lost, and a new one
// started; Load reports it meanwhile.
func TestRegistryCorruptKept(t *testing.T) {
	dir := t.TempDir()
	g := NewRegistry(dir)
	if err := os.WriteFile(g.Path, []byte("{broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	var ce *CorruptError
	if _, err := g.Load(); !errors.As(err, &ce) {
		t.Fatalf("Load = %v, want a CorruptError", err)
	}
	backup, err := g.Remember(Record{Agent: "codex", Scope: ScopeUser, Root: abs("/h"), Path: abs("/h/.codex/hooks.json"), Kind: KindEntries})
	if err != nil || !strings.HasPrefix(backup, g.Path+".corrupt-") {
		t.Fatalf("Remember = %q, %v; want the copy's name", backup, err)
	}
	if data, err := os.ReadFile(backup); err != nil || string(data) != "{broken" {
		t.Errorf("the copy holds %q, %v", data, err)
	}
	if rs, err := g.Load(); err != nil || len(rs) != 1 {
		t.Errorf("the new registry: %v, %v", rs, err)
	}
}

// Placement: a record is install's only when its path is the file install
// writes for its agent, scope and root; a user's file only of this home.
func TestPlacement(t *testing.T) {
	// The home folder and the state folder, Unix-style and as paths of this
	// system (abs: C:\home\u on Windows); so is every path of a record.
	const h, st = "/home/u", "/home/u/.hermes"
	home, state := abs(h), abs(st)
	claude, _ := agents.Lookup("claude")
	t.Setenv("CODEX_HOME", abs("/c"))
	for _, tc := range []struct {
		name string
		rec  Record
		want string // "" accepted, else a part of the error
	}{
		{"a project's file", Record{Agent: "claude", Scope: ScopeProject, Root: abs("/p"), Path: abs("/p/" + claude.HookFile.Project)}, ""},
		{"a checkout's own file", Record{Agent: "claude", Scope: ScopeProject, Root: abs("/p"), Local: true, Path: abs("/p/" + claude.HookFile.Local)}, ""},
		{"the user's file", Record{Agent: "claude", Scope: ScopeUser, Root: home, Path: abs(h + "/" + claude.HookFile.User)}, ""},
		{"Cline's folder", Record{Agent: "cline", Scope: ScopeProject, Root: abs("/p"), Path: abs("/p/.clinerules/hooks")}, ""},
		{"OpenCode's plugin", Record{Agent: TargetOpenCode, Scope: ScopeProject, Root: abs("/p"), Path: abs("/p/" + OpenCodePluginFile)}, ""},
		{"Hermes' plugin", Record{Agent: TargetHermes, Scope: ScopeUser, Root: state, Path: abs(st + "/" + HermesPluginDir)}, ""},
		{"an Open Plugins plugin", Record{Agent: TargetOpenPlugin, Scope: ScopeProject, Root: abs("/p/pl"), Path: abs("/p/pl"), PluginAgent: "claude"}, ""},
		{"authorized_keys as the user's file", Record{Agent: "claude", Scope: ScopeUser, Root: home, Path: abs(h + "/.ssh/authorized_keys")}, "not where install writes"},
		{"passwd as a project's file", Record{Agent: "claude", Scope: ScopeProject, Root: abs("/etc"), Path: abs("/etc/passwd")}, "not where install writes"},
		{"another home", Record{Agent: "claude", Scope: ScopeUser, Root: abs("/root"), Path: abs("/root/" + claude.HookFile.User)}, "not of this user's"},
		{"Hermes' plugin of another home", Record{Agent: TargetHermes, Scope: ScopeUser, Root: abs("/tmp/h"), Path: abs("/tmp/h/" + HermesPluginDir)}, "not of this user's"},
		{"Hermes' plugin in a project", Record{Agent: TargetHermes, Scope: ScopeProject, Root: abs("/p"), Path: abs("/p/" + HermesPluginDir)}, "a user's"},
		{"an unknown agent", Record{Agent: "sh", Scope: ScopeProject, Root: abs("/p"), Path: abs("/p/x")}, `unknown agent "sh"`},
		{"a plugin for an unknown agent", Record{Agent: TargetOpenPlugin, Scope: ScopeProject, Root: abs("/p"), Path: abs("/p"), PluginAgent: "x"}, "unknown agent"},
		{"a local file of an agent without one", Record{Agent: "codex", Scope: ScopeProject, Local: true, Root: abs("/p"), Path: abs("/p/.codex/hooks.json")}, "has no such hook file"},
		{"a path that climbs out", Record{Agent: "claude", Scope: ScopeProject, Root: abs("/p"), Path: abs("/p/../etc/" + claude.HookFile.Project)}, "not where install writes"},
		// Written before CODEX_HOME was set (set in this test): still
		// where install writes Codex's user file, where it is unset.
		{"the user's file, with CODEX_HOME set since", Record{Agent: "codex", Scope: ScopeUser, Root: home, Path: abs(h + "/.codex/hooks.json")}, ""},
		{"the user's file under CODEX_HOME", Record{Agent: "codex", Scope: ScopeUser, Root: home, Path: abs("/c/hooks.json")}, ""},
		{"another file under CODEX_HOME", Record{Agent: "codex", Scope: ScopeUser, Root: home, Path: abs("/c/config.toml")}, "not where install writes"},
	} {
		err := Placement(&tc.rec, state, home)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}
