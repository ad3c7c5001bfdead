package install

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// pristineOpenCode reads the shim's digest line: the shim as install wrote
// it (for any binary path, with or without the digest line of this
// version) is pristine; any change of the lines below the digest, or of
// the digest itself, is an edit.
func TestPristineOpenCode(t *testing.T) {
	shim := string(OpenCodePlugin("/opt/hh"))
	lit, _ := json.Marshal("/opt/hh")
	legacy := strings.Replace(openCodeShim, openCodeBin, string(lit), 1)
	first, rest, _ := strings.Cut(shim, "\n")
	digest, body, _ := strings.Cut(rest, "\n")
	for _, tc := range []struct {
		name string
		data string
		want bool
	}{
		{"as written", shim, true},
		{"another binary path", string(OpenCodePlugin(`/a "b"/hh`)), true},
		{"a line added at the end", shim + "// mine\n", false},
		{"the binary path changed by hand", strings.Replace(shim, `"/opt/hh"`, `"/tmp/evil"`, 1), false},
		{"the digest changed", first + "\n" + strings.Replace(digest, "sha256:", "sha256:0", 1) + "\n" + body, false},
		{"written before the digest", legacy, true},
		{"written before the digest, then edited", legacy + "// mine\n", false},
		{"empty", "", false},
		{"the mark alone", openCodeMark + "\n", false},
	} {
		if got := pristineOpenCode([]byte(tc.data)); got != tc.want {
			t.Errorf("%s: pristine = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The digest reader never panics, and the shim for any binary path reads
// as pristine.
func FuzzPristineOpenCode(f *testing.F) {
	f.Add([]byte(OpenCodePlugin("/opt/hh")), "/opt/hh")
	f.Add([]byte(openCodeDigest+"\n"), "")
	f.Add([]byte("x\n"+openCodeDigest+"00 y\nz"), "\n")
	f.Fuzz(func(t *testing.T, data []byte, exe string) {
		pristineOpenCode(data)
		if !pristineOpenCode(OpenCodePlugin(exe)) {
			t.Fatalf("the shim for %q does not read as pristine", exe)
		}
	})
}

// open-plugin's files: pristine as written for any agent and binary path;
// a field added is an edit.
func TestPristineOpenPluginFiles(t *testing.T) {
	for _, name := range []string{"claude", "codex"} {
		agent, _ := agents.Lookup(name)
		shaped := agents.OpenPluginShape(agent)
		for _, exe := range []string{"/opt/my tools/hh", ""} {
			hooks, _, err := shaped.Install(nil, HookCommand(agent, exe))
			if err != nil {
				t.Fatal(err)
			}
			if !pristineHooks(layout(hooks, nil)) {
				t.Errorf("%s: the hooks as written (exe %q) do not read as pristine", name, exe)
			}
		}
		hooks, _, err := shaped.Install(nil, HookCommand(agent, "/opt/my tools/hh"))
		if err != nil {
			t.Fatal(err)
		}
		data := layout(hooks, nil)
		// An older install's bare path is still as written; a guard that
		// tests one path and runs another never was.
		bare := func(ev string) string {
			return "'/opt/my tools/hh' hook " + agent.Name + " " + ev + timeoutArg(agent, ev)
		}
		if old, _, err := shaped.Install(nil, bare); err != nil || !pristineHooks(layout(old, nil)) {
			t.Errorf("%s: the hooks an older install wrote (a bare path) do not read as pristine (%v)", name, err)
		}
		mixed := bytes.Replace(data, []byte(`exec '/opt/my tools/hh' hook`), []byte(`exec '/opt/my tools/hx' hook`), 1)
		if bytes.Equal(mixed, data) || pristineHooks(mixed) {
			t.Errorf("%s: a hooks.json whose guard tests one path and runs another reads as pristine", name)
		}
		if !pristineManifest(openPluginManifest(agent)) {
			t.Errorf("%s: the manifest as written does not read as pristine", name)
		}
		edited := bytes.Replace(data, []byte(`"type": "command",`), []byte(`"type": "command", "timeout": 5,`), 1)
		if bytes.Equal(edited, data) || pristineHooks(edited) {
			t.Errorf("%s: a hooks.json with a timeout added reads as pristine", name)
		}
	}
	if pristineManifest([]byte(`{"name": "hermes-hooks", "version": "1"}`)) || pristineHooks([]byte(`{}`)) {
		t.Error("a file install did not write reads as pristine")
	}
}

// keepCopy never writes over a copy kept earlier, and reuses one that
// holds the same bytes.
func TestKeepCopy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.js")
	for i, tc := range []struct{ data, want string }{
		{"one", path + BackupSuffix},
		{"two", path + BackupSuffix + ".2"},
		{"one", path + BackupSuffix},
		{"three", path + BackupSuffix + ".3"},
	} {
		got, err := keepCopy(path, []byte(tc.data))
		if err != nil || got != tc.want {
			t.Fatalf("copy %d: %q, %v; want %q", i, got, err, tc.want)
		}
		if b, _ := os.ReadFile(got); string(b) != tc.data {
			t.Fatalf("copy %d holds %q, want %q", i, b, tc.data)
		}
	}
}

// timeoutArg is the agent-timeout argument install writes for ev.
func timeoutArg(a *agents.Agent, ev string) string {
	if d := a.Timeout(ev); d > 0 {
		return " " + agents.AgentTimeoutFlag + " " + agents.FormatSeconds(d)
	}
	return ""
}
