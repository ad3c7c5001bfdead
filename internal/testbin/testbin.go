// Package testbin builds the hermes-hooks binary for tests that run it as
// a real process.
package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Build builds cmd/hermes-hooks into dir, static as make build does, from
// the module whose root is moduleRoot, and returns its path.
func Build(dir, moduleRoot string) (string, error) {
	bin := filepath.Join(dir, "hermes-hooks")
	// go test puts its own toolchain first on PATH.
	// The binary is built with the test binary's own build tags (see
	// Portable), so a portable-path test run tests the portable binary.
	cmd := exec.Command("go", "build", "-tags", buildTags, "-o", bin, "./cmd/hermes-hooks")
	cmd.Dir = moduleRoot
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/hermes-hooks: %v\n%s", err, out)
	}
	return bin, nil
}

// SkipUnlessLinuxFeatures skips t in the portable build: the test checks
// something only Linux's own path has (why names it: "a child subreaper").
func SkipUnlessLinuxFeatures(t interface{ Skip(...any) }, why string) {
	if Portable {
		t.Skip("portable build (-tags hermes_portable): needs " + why)
	}
}
