package oneshot

import (
	"os/exec"
	"strings"
	"testing"
)

// The front (cmd/hermes-hooks) is started once per agent event, and every
// package it links runs its initialisation at every start: it must link
// none of the complete program's heavy parts. net/http alone (with its TLS
// stack) cost about 0.4 ms per start; the server's metrics about 1.9 ms;
// yaml.v3 and regexp2 about 0.1 ms each (see dispatcher.Engines).
func TestFrontLinksNoHeavyPackage(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "../../cmd/hermes-hooks").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	forbidden := []string{
		"net/http", "crypto/tls", "crypto/x509",
		"github.com/spf13/cobra", "github.com/prometheus/",
		"github.com/fsnotify/fsnotify",
		"gopkg.in/yaml.v3", "github.com/dlclark/regexp2",
		"github.com/hermes-hooks/hermes-hooks/dispatcher/engines",
		"github.com/hermes-hooks/hermes-hooks/server",
		"github.com/hermes-hooks/hermes-hooks/report",
		"github.com/hermes-hooks/hermes-hooks/install",
		"github.com/hermes-hooks/hermes-hooks/clients",
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, f := range forbidden {
			if dep == f || (strings.HasSuffix(f, "/") && strings.HasPrefix(dep, f)) {
				t.Errorf("cmd/hermes-hooks links %s", dep)
			}
		}
	}
}
