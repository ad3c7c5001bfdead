package install

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

const utf8Mark = "\xef\xbb\xbf"

// TestInstallKeepsBOM: an agent's file that starts with a byte order mark
// (the agents that skip it: not agents.Agent.NoBOM) is installed into, not refused as "not valid
// JSON"; the mark stays first, once (the user's editor put it there), a
// second install changes nothing, and uninstall gives the file back byte
// for byte. Two marks, or garbage after one, are still refused.
func TestInstallKeepsBOM(t *testing.T) {
	for _, name := range agents.Names() {
		a, _ := agents.Lookup(name)
		if a.HookFile.Layout == agents.Scripts { // a folder of scripts, no file
			continue
		}
		if a.NoBOM { // TestInstallRefusesBOM
			continue
		}
		for _, body := range []string{"{\n  \"model\": \"x\"\n}\n", "", "\n"} {
			path := filepath.Join(t.TempDir(), "f.json")
			orig := []byte(utf8Mark + body)
			if err := os.WriteFile(path, orig, 0o600); err != nil {
				t.Fatal(err)
			}
			p, err := Make(a, path, "", command(name), false)
			if err != nil {
				t.Fatalf("%s %q: install refused: %v", name, body, err)
			}
			if !bytes.HasPrefix(p.New, []byte(utf8Mark)) || bytes.HasPrefix(p.New[3:], []byte(utf8Mark)) || !bytes.Contains(p.New, []byte("hook "+name+" ")) {
				t.Fatalf("%s %q: wrote %q, want one mark first and our entries", name, body, p.New)
			}
			if _, err := p.Apply(); err != nil {
				t.Fatal(err)
			}
			if p2, err := Make(a, path, "", command(name), false); err != nil || p2.Changed {
				t.Fatalf("%s %q: second install changed=%v err=%v", name, body, p2 != nil && p2.Changed, err)
			}
			u, err := Make(a, path, "", command(name), true)
			if err != nil {
				t.Fatalf("%s %q: uninstall: %v", name, body, err)
			}
			if !u.Remove && !bytes.Equal(u.New, orig) {
				t.Errorf("%s %q: uninstall gave back %q, want %q", name, body, u.New, orig)
			}
		}
		for _, bad := range []string{utf8Mark + utf8Mark + "{}", utf8Mark + "{nope"} {
			path := filepath.Join(t.TempDir(), "f.json")
			if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := Make(a, path, "", command(name), false); err == nil {
				t.Errorf("%s %q: installed into it, want not valid JSON", name, bad)
			}
		}
	}
}

// TestManagedTOMLKeepsBOM: the same for a TOML admin file (Codex skips
// the mark in its config files).
func TestManagedTOMLKeepsBOM(t *testing.T) {
	ag := codexForTest(t)
	path := filepath.Join(t.TempDir(), "requirements.toml")
	orig := []byte(utf8Mark + "a = 1\n")
	if err := os.WriteFile(path, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := makeTOML(ag, path, tomlCommand, false, false)
	if err != nil {
		t.Fatalf("install refused: %v", err)
	}
	if !bytes.HasPrefix(p.New, []byte(utf8Mark+"a = 1\n")) || bytes.Count(p.New, []byte(utf8Mark)) != 1 {
		t.Fatalf("wrote %q, want the mark first, once", p.New)
	}
	if _, err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	u, err := makeTOML(ag, path, tomlCommand, true, false)
	if err != nil {
		t.Fatalf("uninstall: %v", err)
	}
	if !u.Remove && !bytes.Equal(u.New, orig) {
		t.Errorf("uninstall gave back %q, want %q", u.New, orig)
	}
}

// TestInstallRefusesBOM: for an agent that does not read its file past a
// byte order mark (Gemini CLI exits on it, Copilot CLI runs none of its
// hooks: e2e TestBOMAgentFiles), install and uninstall refuse the file as
// not valid JSON, naming it and the mark, and leave it as it is; the
// entries doctor reads (Entries) are refused the same way. HasOwn still
// finds our entries in it, so that doctor and uninstall name the file.
func TestInstallRefusesBOM(t *testing.T) {
	for _, name := range []string{"gemini", "copilot"} {
		a, _ := agents.Lookup(name)
		if !a.NoBOM {
			t.Fatalf("%s reads past a byte order mark; e2e TestBOMAgentFiles says it does not", name)
		}
		path := filepath.Join(t.TempDir(), "f.json")
		p, err := Make(a, path, "", command(name), false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Apply(); err != nil {
			t.Fatal(err)
		}
		plain, _ := os.ReadFile(path)
		marked := append([]byte(utf8Mark), plain...)
		if err := os.WriteFile(path, marked, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, uninstall := range []bool{false, true} {
			_, err := Make(a, path, "", command(name), uninstall)
			if err == nil || !strings.Contains(err.Error(), path+":1:1: not valid JSON") || !strings.Contains(err.Error(), "byte order mark") {
				t.Errorf("%s (uninstall %v): err %v, want not valid JSON for the byte order mark", name, uninstall, err)
			}
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, marked) {
			t.Errorf("%s: the file changed", name)
		}
		if !HasOwn(a, path) {
			t.Errorf("%s: HasOwn does not find our entries past the mark: doctor would not name the file", name)
		}
		if _, _, err := Entries(Installed{Agent: a, Path: path}); err == nil || !strings.Contains(err.Error(), "byte order mark") {
			t.Errorf("%s: Entries read the marked file (err %v): doctor would say its entries fire", name, err)
		}
	}
}
