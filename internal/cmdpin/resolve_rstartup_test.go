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
