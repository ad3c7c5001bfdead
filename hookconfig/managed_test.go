package hookconfig

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestParseManagedKeys(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		managed    bool
		only       bool
		keys       []string
		warning    string // "" for none
	}{
		{name: "true", yaml: "allow_managed_hooks_only: true\n", managed: true, only: true},
		{name: "false", yaml: "allow_managed_hooks_only: false\n", managed: true},
		{name: "yaml 1.1 yes", yaml: "allow_managed_hooks_only: yes\n", managed: true, only: true},
		{name: "not a bool is strict", yaml: "allow_managed_hooks_only: sometimes\n", managed: true, only: true,
			warning: "allow_managed_hooks_only must be true or false; got 'sometimes'; taken as true"},
		{name: "keys", yaml: "trusted_bundle_keys:\n  - RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3\n  - ' RWSecond '\n", managed: true,
			keys: []string{"RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3", "RWSecond"}},
		{name: "a key that is no string", yaml: "trusted_bundle_keys: [RWOne, 3, '']\n", managed: true,
			keys: []string{"RWOne"}, warning: "trusted_bundle_keys[1]: must be a minisign public key"},
		{name: "keys not a list", yaml: "trusted_bundle_keys: RWOne\n", managed: true,
			warning: "trusted_bundle_keys must be a list of minisign public keys; got str; ignoring"},
		{name: "null keys", yaml: "trusted_bundle_keys:\n", managed: true},
		{name: "the user's config cannot set them", yaml: "allow_managed_hooks_only: true\ntrusted_bundle_keys: [RWOne]\n",
			warning: "allow_managed_hooks_only is read only from the managed config"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := parseConfigAs([]byte(tc.yaml), "m.yaml", 0, tc.managed)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Managed.AllowManagedHooksOnly != tc.only || !slices.Equal(cfg.Managed.TrustedBundleKeys, tc.keys) {
				t.Errorf("got only=%v keys=%q, want %v %q", cfg.Managed.AllowManagedHooksOnly, cfg.Managed.TrustedBundleKeys, tc.only, tc.keys)
			}
			var ws []string
			for _, w := range cfg.Warnings {
				ws = append(ws, w.String())
			}
			got := strings.Join(ws, "\n")
			if tc.warning == "" && got != "" || !strings.Contains(got, tc.warning) {
				t.Errorf("warnings %q, want %q", got, tc.warning)
			}
		})
	}
}

// The variable can only add a file: the system's is always read first.
func TestManagedPathsOnlyAdd(t *testing.T) {
	sys := SystemManagedPath()
	t.Setenv(ManagedConfigEnv, "")
	if got := ManagedPaths(); !slices.Equal(got, []string{sys}) {
		t.Errorf("unset: %q", got)
	}
	other := filepath.Join(t.TempDir(), "m.yaml")
	t.Setenv(ManagedConfigEnv, other)
	if got := ManagedPaths(); !slices.Equal(got, []string{sys, other}) {
		t.Errorf("set: %q, want the system's first", got)
	}
	t.Setenv(ManagedConfigEnv, sys)
	if got := ManagedPaths(); !slices.Equal(got, []string{sys}) {
		t.Errorf("set to the system's: %q", got)
	}
}

// The bundles directories Load reads follow the managed files: the system
// layer's bundles are read whatever the environment says (a variable that
// names another managed config once made the system's managed bundles go
// unread: a way for a user to switch off the administrator's bundles).
func TestBundleDirsKeepTheSystemLayer(t *testing.T) {
	sysDir := filepath.Join(filepath.Dir(SystemManagedPath()), "bundles")
	home := t.TempDir()
	t.Setenv(ManagedConfigEnv, "")
	if got := BundleDirs(home); !slices.Equal(got, []string{sysDir, filepath.Join(home, "bundles")}) {
		t.Errorf("unset: %q", got)
	}
	other := filepath.Join(t.TempDir(), "m.yaml")
	t.Setenv(ManagedConfigEnv, other)
	want := []string{sysDir, filepath.Join(filepath.Dir(other), "bundles"), filepath.Join(home, "bundles")}
	if got := BundleDirs(home); !slices.Equal(got, want) {
		t.Errorf("set: %q, want %q", got, want)
	}
}

// managedScene writes a managed config and a user config with a project,
// as root (the managed file's owner); it skips where that cannot be.
func managedScene(t *testing.T, managed string) (user, project string) {
	if runtime.GOOS == "windows" || os.Geteuid() != 0 {
		t.Skip("the managed config must be root's: run as root on a Unix")
	}
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Setenv(ManagedConfigEnv, write("etc/config.yaml", managed))
	user = write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: user.sh\n      priority: -5\n    - command: managed.sh\n")
	write("repo/.git/HEAD", "ref: refs/heads/main\n")
	write("repo/.hermes/hooks.yaml", "hooks:\n  pre_tool_call: [\n")
	return user, filepath.Join(dir, "repo")
}

func TestLoadManaged(t *testing.T) {
	user, repo := managedScene(t, "hooks:\n  pre_tool_call:\n    - command: managed.sh\ntrusted_bundle_keys: [RWOne]\n")
	cfg, err := Load(user, LoadOptions{ProjectDir: repo, Managed: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range cfg.Entries {
		got = append(got, e.Command+map[bool]string{true: " (managed)"}[e.Scope.Managed])
	}
	// First, marked; the user's copy of its command is not folded into it.
	if want := []string{"managed.sh (managed)", "user.sh", "managed.sh"}; !slices.Equal(got, want) {
		t.Errorf("entries %q, want %q", got, want)
	}
	if m := cfg.Entries[0]; m.WorkDir != filepath.Dir(os.Getenv(ManagedConfigEnv)) {
		t.Errorf("a managed hook runs in %q, want the managed config's directory", m.WorkDir)
	}
	if !slices.Equal(cfg.Managed.TrustedBundleKeys, []string{"RWOne"}) || cfg.Managed.Hooks != 1 || cfg.Managed.Err != nil {
		t.Errorf("layer %+v", cfg.Managed)
	}
	// A Go host that does not ask does not get it.
	if cfg, err := Load(user, LoadOptions{}); err != nil || cfg.Managed.Active() || cfg.Entries[0].Scope.Managed {
		t.Errorf("read without LoadOptions.Managed: %+v, %v", cfg.Managed, err)
	}
}

func TestLoadManagedOnly(t *testing.T) {
	user, repo := managedScene(t, "allow_managed_hooks_only: true\nhooks:\n  pre_tool_call:\n    - command: managed.sh\n")
	cfg, err := Load(user, LoadOptions{ProjectDir: repo, Managed: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Entries) != 1 || !cfg.Entries[0].Scope.Managed || cfg.Managed.Skipped != 2 {
		t.Errorf("entries %d, skipped %d: want the managed one only", len(cfg.Entries), cfg.Managed.Skipped)
	}
	// The repository's broken file held nothing that could run.
	if len(cfg.Unloaded) != 0 {
		t.Errorf("unloaded: %+v", cfg.Unloaded)
	}
}

func TestLoadManagedRefused(t *testing.T) {
	user, repo := managedScene(t, "hooks:\n  pre_tool_call:\n    - command: managed.sh\n")
	if err := os.Chmod(os.Getenv(ManagedConfigEnv), 0o646); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(user, LoadOptions{ProjectDir: repo, Managed: true})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Managed.Err == nil || !strings.Contains(cfg.Managed.Err.Error(), "has mode 0646") {
		t.Fatalf("not refused: %v", cfg.Managed.Err)
	}
	n := 0
	for _, u := range cfg.Unloaded {
		if u.Managed {
			n++
		}
	}
	if n != 1 || cfg.Entries[0].Scope.Managed {
		t.Errorf("a refused managed file: %d unloaded, entries %v", n, cfg.Entries)
	}
}

// FuzzParseManagedConfig: no managed config may panic the parser, and
// what it keeps of its own keys is well formed.
func FuzzParseManagedConfig(f *testing.F) {
	for _, s := range []string{
		"allow_managed_hooks_only: true\ntrusted_bundle_keys: [RWOne, RWTwo]\nhooks:\n  pre_tool_call:\n    - command: x\n",
		"allow_managed_hooks_only: [1]\ntrusted_bundle_keys: {a: b}\n", "trusted_bundle_keys: [[], null, '', 1.5]\n",
		"journal: {path: x}\nhooks_auto_accept: true\ntool_aliases: {a: b}\nclaude_settings: [x]\n",
		"k: &k [RWOne, '', RWOne]\nt: &t true\ntrusted_bundle_keys: *k\nallow_managed_hooks_only: *t\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := parseConfigAs(data, "fuzz.yaml", 0, true)
		if err != nil {
			checkNoPanic(t, err)
			return
		}
		for _, k := range cfg.Managed.TrustedBundleKeys {
			if k == "" || k != strings.TrimSpace(k) {
				t.Fatalf("key %q kept", k)
			}
		}
		cfg.unmanagedKeys()
	})
}

// The managed config's export is the organisation's audit trail: none of
// its settings come from the OTEL_EXPORTER_OTLP_* variables, which a
// repository can set for the hooks an agent runs. A user's block still
// takes them (otlp: true is everything from them).
func TestManagedExportTakesNothingFromTheEnvironment(t *testing.T) {
	env := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://repository.example:4318", "OTEL_EXPORTER_OTLP_HEADERS": "Authorization=Bearer%20t"}
	getenv := func(k string) string { return env[k] }
	user, repo := managedScene(t, "export:\n  otlp: true\nhooks: {}\n")
	cfg, err := Load(user, LoadOptions{ProjectDir: repo, Managed: true})
	if err != nil {
		t.Fatal(err)
	}
	out, err := cfg.Export.Resolve(getenv)
	if err != nil || out.OTLP == nil {
		t.Fatalf("managed export: %+v, %v", out.OTLP, err)
	}
	if strings.Contains(out.OTLP.URL, "repository.example") || len(out.OTLP.Headers) != 0 {
		t.Errorf("the managed block took the environment's endpoint or headers: %+v", out.OTLP)
	}
	user, repo = managedScene(t, "hooks: {}\n")
	if err := os.WriteFile(user, []byte("export:\n  otlp: true\nhooks: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err = Load(user, LoadOptions{ProjectDir: repo, Managed: true})
	if err != nil {
		t.Fatal(err)
	}
	if out, err := cfg.Export.Resolve(getenv); err != nil || out.OTLP == nil || !strings.Contains(out.OTLP.URL, "repository.example") {
		t.Errorf("a user's otlp: true: %+v, %v; want the variables' endpoint", out.OTLP, err)
	}
}
