//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// A probe is honoured only from doctor's own file: agents.ProbeFile in a
// private folder named agents.ProbeDirPrefix…, itself private, holding a
// token of hex digits. Anything a repository could set, commit or name (a
// file of the user's holding a hex secret) is ignored.
func TestProbeToken(t *testing.T) {
	root := t.TempDir()
	const tok = "0123456789abcdef0123456789abcdef"
	n := 0
	// probeFile makes dir (mode dirMode) holding name (mode mode) with data.
	probeFile := func(dir string, dirMode os.FileMode, name, data string, mode os.FileMode) string {
		n++
		d := filepath.Join(root, string(rune('a'+n)), dir)
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(d, name)
		if err := os.WriteFile(p, []byte(data), mode); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			p string
			m os.FileMode
		}{{p, mode}, {d, dirMode}} {
			if err := os.Chmod(c.p, c.m); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	const dir = agents.ProbeDirPrefix + "123"
	good := probeFile(dir, 0o700, agents.ProbeFile, tok+"\n", 0o600)
	link := filepath.Join(root, "link", dir)
	if err := os.MkdirAll(link, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(good, filepath.Join(link, agents.ProbeFile)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, env, want string
	}{
		{"doctor's file", good, tok},
		{"unset", "", ""},
		{"bare flag", "1", ""},
		{"relative path", filepath.Join(dir, agents.ProbeFile), ""},
		{"a private hex secret of the user's", probeFile("secrets", 0o700, "api-token", tok, 0o600), ""},
		{"another name in a probe folder", probeFile(dir, 0o700, "secret", tok, 0o600), ""},
		{"folder open to others", probeFile(dir, 0o755, agents.ProbeFile, tok, 0o600), ""},
		{"readable by others", probeFile(dir, 0o700, agents.ProbeFile, tok, 0o644), ""},
		{"group-writable", probeFile(dir, 0o700, agents.ProbeFile, tok, 0o620), ""},
		{"short token", probeFile(dir, 0o700, agents.ProbeFile, "abc", 0o600), ""},
		{"not hex", probeFile(dir, 0o700, agents.ProbeFile, "0123456789abcdef0123456789abcdeX", 0o600), ""},
		{"too long", probeFile(dir, 0o700, agents.ProbeFile, tok+tok+tok, 0o600), ""},
		{"symbolic link", filepath.Join(link, agents.ProbeFile), ""},
		{"missing", filepath.Join(filepath.Dir(good), "none"), ""},
	} {
		t.Setenv(agents.ProbeEnv, c.env)
		if got := probeToken(); got != c.want {
			t.Errorf("%s: token %q, want %q", c.name, got, c.want)
		}
	}
}
