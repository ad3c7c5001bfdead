//go:build !windows

package cmdpin

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Rscript reads .Renviron and then .Rprofile, R code, from the directory
// it starts in (R's ?Startup) before its script: a .Rprofile committed
// after approval ran under it. One that exists is pinned; one that does
// not is pinned as missing, so that its appearance is a change; an
// existing .Renviron (which can point R at any other profile or library)
// makes the command text-only, as bun's bunfig.toml does.
func TestResolve_RStartupFiles(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "bin/Rscript"), "#!/bin/sh\n", 0o755)
	env := []string{"PATH=" + filepath.Join(dir, "bin")}
	at := func(p string) string { return filepath.Join(dir, p) }
	resolveR := func(cmd string) Target {
		return Resolve(Command{Text: cmd, Env: env, Dir: dir})
	}

	got := resolveR("Rscript g.R")
	want := []string{at("g.R"), at(".Renviron"), at(".Rprofile")}
	if !slices.Equal(got.Files, want) || got.Opaque != "" || !slices.Equal(got.Optional, want[1:]) {
		t.Errorf("none yet: Files %q Optional %q Opaque %q", got.Files, got.Optional, got.Opaque)
	}
	for cmd, files := range map[string][]string{
		"Rscript --vanilla g.R":             {at("g.R")},
		"Rscript --no-init-file g.R":        {at("g.R"), at(".Renviron")},
		"Rscript --no-environ g.R":          {at("g.R"), at(".Rprofile")},
		"Rscript --no-environ -e 'f()' g.R": {at(".Rprofile")},
	} {
		if got := resolveR(cmd); !slices.Equal(got.Files, files) {
			t.Errorf("%s: Files %q, want %q", cmd, got.Files, files)
		}
	}

	writeFile(t, at(".Rprofile"), "cat('hi')\n", 0o644)
	got = resolveR("Rscript g.R")
	if !slices.Equal(got.Files, want) || got.Opaque != "" || !slices.Equal(got.Optional, want[1:2]) {
		t.Errorf("a .Rprofile: Files %q Optional %q Opaque %q", got.Files, got.Optional, got.Opaque)
	}

	writeFile(t, at(".Renviron"), "R_PROFILE_USER=x.R\n", 0o644)
	if got := resolveR("Rscript g.R"); !strings.Contains(got.Opaque, ".Renviron") {
		t.Errorf("a .Renviron: Opaque %q", got.Opaque)
	}
	if got := resolveR("Rscript --no-environ g.R"); got.Opaque != "" {
		t.Errorf("--no-environ: Opaque %q", got.Opaque)
	}
}

// ts-node loads a tsconfig.json it finds from its script's directory up,
// whose "ts-node" object can require any module: such a command is
// approved by its text, unless it skips the search.
func TestResolve_TSNodeConfig(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "bin/ts-node"), "#!/bin/sh\n", 0o755)
	env := []string{"PATH=" + filepath.Join(dir, "bin")}
	got := Resolve(Command{Text: "ts-node -T hook.ts", Env: env, Dir: dir})
	if !strings.Contains(got.Opaque, "tsconfig.json") {
		t.Errorf("ts-node hook.ts: Opaque %q", got.Opaque)
	}
	got = Resolve(Command{Text: "ts-node --skipProject -r ./pre.ts hook.ts", Env: env, Dir: dir})
	if got.Opaque != "" || !slices.Equal(got.Files, []string{filepath.Join(dir, "hook.ts"), filepath.Join(dir, "pre.ts")}) {
		t.Errorf("--skipProject: Files %q Opaque %q", got.Files, got.Opaque)
	}
}
