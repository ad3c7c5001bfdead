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

// The variables a hook's own file sets for it (Gemini CLI's per-hook
// "env": Command.Vars) are its own choice, as an assignment in front of the
// command is: the file BASH_ENV names there runs before the script, so it
// is pinned, and a PYTHONPATH there makes the command text only. Pinning
// the variables' text alone let the BASH_ENV file change under the
// approval.
func TestResolve_HookFileVars(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"bin/bash", "bin/python3"} {
		writeFile(t, filepath.Join(dir, f), "#!/bin/sh\n", 0o755)
	}
	at := func(p string) string { return filepath.Join(dir, p) }
	for _, tc := range []struct {
		name, cmd string
		shell     bool
		vars      []string
		files     []string
		opaque    string
	}{
		{name: "BASH_ENV, shell form", cmd: "bash hooks/x.sh", shell: true, vars: []string{"BASH_ENV=hooks/pre.sh"}, files: []string{at("hooks/x.sh"), at("hooks/pre.sh")}},
		{name: "BASH_ENV, words", cmd: "bash hooks/x.sh", vars: []string{"BASH_ENV=hooks/pre.sh"}, files: []string{at("hooks/x.sh"), at("hooks/pre.sh")}},
		{name: "NODE_OPTIONS", cmd: "bash hooks/x.sh", shell: true, vars: []string{"NODE_OPTIONS=--require ./pre.js"}, files: []string{at("hooks/x.sh"), at("pre.js")}},
		{name: "PYTHONPATH", cmd: "python3 g.py", shell: true, vars: []string{"PYTHONPATH=lib"}, files: []string{at("g.py")}, opaque: "PYTHONPATH"},
		{name: "nothing that loads code", cmd: "bash hooks/x.sh", shell: true, vars: []string{"MODE=strict"}, files: []string{at("hooks/x.sh")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := append([]string{"PATH=" + at("bin")}, tc.vars...)
			got := Resolve(Command{Text: tc.cmd, Shell: tc.shell, Env: env, Dir: dir, Vars: tc.vars})
			wantResolved(t, got, tc.files, tc.opaque)
		})
	}
}

// Programs that run what a project's own files define (a task, a script
// entry, a build, an environment file: tasks.py, Gemfile, .envrc,
// .pre-commit-config.yaml …) run code no list of files pins. Approved as
// pinned, `invoke guard` listed only the invoke program, with no ⚠, and
// the repository's tasks.py could change under the approval.
func TestResolve_ProjectTaskRunners(t *testing.T) {
	dir := t.TempDir()
	runners := []string{"poetry", "pipenv", "pdm", "hatch", "rye", "pixi", "uvx", "bundle", "pre-commit", "tox", "nox",
		"invoke", "inv", "direnv", "mise", "dotnet", "swift", "zig", "nix", "composer", "mix", "lein", "sbt",
		"scons", "ant", "bazel", "bazelisk", "ninja", "devbox", "lefthook", "foreman", "honcho", "turbo", "nx"}
	for _, r := range runners {
		writeFile(t, filepath.Join(dir, "bin", r), "#!/bin/sh\n", 0o755)
	}
	env := []string{"PATH=" + filepath.Join(dir, "bin")}
	for _, r := range runners {
		got := Resolve(Command{Text: r + " run guard", Env: env, Dir: dir})
		if got.Opaque == "" {
			t.Errorf("%s run guard: not text only (Files %q)", r, got.Files)
		}
	}
	// Given one file to run, a runner reads no project file: the file is
	// pinned, the command is not text only.
	for cmd, file := range map[string]string{"swift g.swift": "g.swift", "zig run g.zig": "g.zig", "dotnet g.dll": "g.dll"} {
		writeFile(t, filepath.Join(dir, file), "x\n", 0o644)
		got := Resolve(Command{Text: cmd, Env: env, Dir: dir})
		if got.Opaque != "" || !slices.Contains(got.Files, filepath.Join(dir, file)) {
			t.Errorf("%s: Opaque %q, Files %q", cmd, got.Opaque, got.Files)
		}
	}
	for _, cmd := range []string{"swift run", "swift -O g.swift", "zig build run", "dotnet run"} {
		if got := Resolve(Command{Text: cmd, Env: env, Dir: dir}); got.Opaque == "" {
			t.Errorf("%s: not text only (Files %q)", cmd, got.Files)
		}
	}
}
