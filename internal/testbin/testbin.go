// Package testbin builds the two hermes-hooks binaries for tests that run
// them as real processes: the front (cmd/hermes-hooks) and the complete
// program (cmd/hermes-hooks-full) it hands most commands to, side by side
// in one directory as make build and go install put them.
package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Build builds both binaries into dir, static as make build does, from the
// module whose root is moduleRoot, and returns the front's path.
func Build(dir, moduleRoot string) (string, error) {
	for _, name := range []string{"hermes-hooks", "hermes-hooks-full"} {
		// go test puts its own toolchain first on PATH.
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, name), "./cmd/"+name)
		cmd.Dir = moduleRoot
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go build ./cmd/%s: %v\n%s", name, err, out)
		}
	}
	return filepath.Join(dir, "hermes-hooks"), nil
}
