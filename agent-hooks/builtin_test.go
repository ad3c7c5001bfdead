package agenthooks_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	agenthooks "github.com/hermes-hooks/hermes-hooks/agent-hooks"
)

// The binary's rule files are exactly rules/*.yaml: every file of the
// folder, byte for byte, and nothing else.
func TestBuiltinRulesAreTheFolder(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("rules", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no rule files: %v", err)
	}
	var want []string
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		want = append(want, name)
		disk, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := agenthooks.Rule(name)
		if !ok || !bytes.Equal(got, disk) {
			t.Errorf("Rule(%q): %d bytes, ok %v; the file holds %d", name, len(got), ok, len(disk))
		}
	}
	if got := agenthooks.Rules(); !slices.Equal(got, want) {
		t.Errorf("Rules() = %q, want %q", got, want)
	}
}

// Only a listed name is answered: no path, no extension, no folder.
func TestBuiltinRuleRefusesPaths(t *testing.T) {
	for _, name := range []string{"", ".", "..", "rules", "force-push.yaml", "../rules/force-push", "rules/force-push", "/etc/passwd", "../../../etc/passwd", "force-push/", "Force-Push", "force-push\x00"} {
		if data, ok := agenthooks.Rule(name); ok || data != nil {
			t.Errorf("Rule(%q) answered %d bytes", name, len(data))
		}
	}
}
