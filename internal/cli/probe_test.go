//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// A probe is honoured only from a private regular file holding a token of
// hex digits; anything a repository could set or commit is ignored.
func TestProbeToken(t *testing.T) {
	dir := t.TempDir()
	const tok = "0123456789abcdef0123456789abcdef"
	write := func(name, data string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good", tok+"\n", 0o600)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(good, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, env, want string
	}{
		{"private token file", good, tok},
		{"unset", "", ""},
		{"bare flag", "1", ""},
		{"relative path", "good", ""},
		{"readable by others", write("shared", tok, 0o644), ""},
		{"group-writable", write("group", tok, 0o620), ""},
		{"short token", write("short", "abc", 0o600), ""},
		{"not hex", write("nothex", "0123456789abcdef0123456789abcdeX", 0o600), ""},
		{"too long", write("long", tok+tok+tok, 0o600), ""},
		{"symbolic link", link, ""},
		{"a folder", dir, ""},
		{"missing", filepath.Join(dir, "none"), ""},
	} {
		t.Setenv(agents.ProbeEnv, c.env)
		if got := probeToken(); got != c.want {
			t.Errorf("%s: token %q, want %q", c.name, got, c.want)
		}
	}
}
