package layout

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateDeps = flag.Bool("update-deps", false, "rewrite testdata/deps-GOOS.txt from go list")

// depsGOOS are the systems whose dependency goldens are kept: the one CI
// runs and the two others the binary is built for.
var depsGOOS = []string{"linux", "darwin", "windows"}

// TestDependencyGolden keeps what the binary links as a reviewable file per
// system (testdata/deps-GOOS.txt): every non-standard package
// cmd/hermes-hooks depends on, ours and others'. A new import of a new
// package, or a new module, changes the golden, so it shows in the diff
// and is looked at, rather than growing the binary unnoticed. The standard
// library is left out: its internal packages change with the Go release,
// not with our code. Regenerate with
//
//	go test ./internal/layout -run TestDependencyGolden -update-deps
func TestDependencyGolden(t *testing.T) {
	for _, goos := range depsGOOS {
		t.Run(goos, func(t *testing.T) {
			got := binaryDeps(t, goos)
			path := filepath.Join("testdata", "deps-"+goos+".txt")
			if *updateDeps {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (create it: go test ./internal/layout -run TestDependencyGolden -update-deps)", err)
			}
			if diff := lineDiff(string(want), got); diff != "" {
				t.Errorf("cmd/hermes-hooks' dependencies on %s changed (a new import is a reviewable change: if it is meant, regenerate with go test ./internal/layout -run TestDependencyGolden -update-deps):\n%s", goos, diff)
			}
		})
	}
}

// binaryDeps lists the non-standard packages the binary depends on when
// built for goos, one per line, sorted (go list's order).
func binaryDeps(t *testing.T, goos string) string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./cmd/hermes-hooks")
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go list -deps (GOOS=%s): %v\n%s", goos, err, msg)
	}
	var lines []string
	for l := range strings.SplitSeq(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(sortedUnique(lines), "\n") + "\n"
}

func sortedUnique(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// lineDiff names the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	w, g := map[string]bool{}, map[string]bool{}
	for l := range strings.SplitSeq(want, "\n") {
		w[l] = true
	}
	for l := range strings.SplitSeq(got, "\n") {
		g[l] = true
	}
	var b strings.Builder
	for l := range strings.SplitSeq(want, "\n") {
		if l != "" && !g[l] {
			b.WriteString("- " + l + "\n")
		}
	}
	for l := range strings.SplitSeq(got, "\n") {
		if l != "" && !w[l] {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
}

// TestLineDiffNamesAnImport: the golden's comparison shows a package the
// binary gained or lost, so a new import cannot pass unseen.
func TestLineDiffNamesAnImport(t *testing.T) {
	want := "a\nb\n"
	if d := lineDiff(want, "a\nb\n"); d != "" {
		t.Fatalf("same lists: diff %q", d)
	}
	if d := lineDiff(want, "a\nb\nexample.com/new\n"); d != "+ example.com/new\n" {
		t.Fatalf("a gained package: diff %q", d)
	}
	if d := lineDiff(want, "a\n"); d != "- b\n" {
		t.Fatalf("a lost package: diff %q", d)
	}
}
