package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The README quotes the client examples of testdata/clients verbatim; the
// scripts run by testdata/script/clients.txtar are those files, so the
// README's snippets cannot rot without a test failing.
func TestReadmeQuotesClientExamples(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "clients", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no client examples: %v", err)
	}
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(readme), string(body)) {
			t.Errorf("README.md does not quote %s verbatim", f)
		}
	}
}
