package layout

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// OPA is a server an opa: entry posts to, never a library of the binary
// (issue 35): its Go module would add hundreds of packages, and their
// inits, to every one-shot start. make e2e builds the opa command with go
// install, outside this module. The dependency goldens (which
// TestDependencyGolden holds to what go list says) and go.mod must not
// name it.
func TestBinaryLinksNoOPA(t *testing.T) {
	const opa = "github.com/open-policy-agent/"
	for _, goos := range depsGOOS {
		data, err := os.ReadFile(filepath.Join("testdata", "deps-"+goos+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		if len(data) == 0 {
			t.Fatalf("deps-%s.txt is empty", goos)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, opa) {
				t.Errorf("the binary links %s on %s: an opa: entry talks to an OPA server over HTTP, it never embeds OPA", line, goos)
			}
		}
	}
	mod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(mod), opa) {
		t.Error("go.mod requires OPA: make e2e builds it with go install, outside this module")
	}
}
