package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/install"
)

// deepTrustSetup is a Codex project install checked from a folder depth
// levels below the project's root, with a trust file of about size bytes
// that trusts the root, filled with filler (its %d the line's number), and
// a layer that turns hooks off in the deepest folder.
func deepTrustSetup(tb testing.TB, depth, size int, filler string) (install.Installed, ProbeOptions) {
	tb.Helper()
	tb.Setenv("CODEX_HOME", "")
	home, project := tb.TempDir(), tb.TempDir()
	var b strings.Builder
	fmt.Fprintf(&b, "[projects.%q]\ntrust_level = \"trusted\"\n", filepath.ToSlash(project))
	for i := 0; b.Len() < size-100; i++ {
		fmt.Fprintf(&b, filler, i)
	}
	if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".codex", "config.toml"), []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	wd := project
	for i := range depth {
		wd = filepath.Join(wd, fmt.Sprint("d", i))
	}
	// .git: the root Codex takes from the deepest folder is the project.
	if err := os.MkdirAll(filepath.Join(project, ".git"), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(wd, ".codex"), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wd, ".codex", "config.toml"), []byte("[features]\nhooks = false\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	codex, _ := agents.Lookup("codex")
	in := install.Installed{Agent: codex, Root: project, Path: filepath.Join(project, ".codex", "hooks.json")}
	return in, ProbeOptions{Home: home, Project: project, WorkDir: wd}
}

// BenchmarkSwitchCheckDeep: doctor's switch check of one Codex install
// run 100 folders below the root, with a 4 MiB config.toml: each folder's
// trust used to be a scan of the whole file (6.5 s an install). lines: the
// file is mostly comments, which the TOML parse of the user's own layer
// takes in its stride; tables: other projects' [projects] tables, which
// that parse (go-toml's table tracking) takes seconds over on its own.
// go test ./report -run '^$' -bench SwitchCheckDeep -benchtime 3x
func BenchmarkSwitchCheckDeep(b *testing.B) {
	for _, bc := range []struct{ name, filler string }{
		{"lines", "# a note on project %d\n"},
		{"tables", "[projects.\"/elsewhere/p%d\"]\ntrust_level = \"untrusted\"\n"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			in, o := deepTrustSetup(b, 100, 4<<20, bc.filler)
			for b.Loop() {
				c, _, _ := switchCheck(in, o, readTrust(in.Agent, o.Home))
				if c == nil || c.Setting == "" {
					b.Fatalf("the deepest layer's switch was not found: %+v", c)
				}
			}
		})
	}
}
