package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The documentation quotes the client examples of testdata/clients
// verbatim; the scripts run by testdata/script/clients.txtar are those
// files, so the snippets people copy cannot rot without a test failing.
// Each example is quoted on the page that explains it.
func TestReadmeQuotesClientExamples(t *testing.T) {
	page := func(example string) string {
		if example == "serve_client.py" {
			return filepath.Join("docs", "serve.md")
		}
		return filepath.Join("docs", "agents.md")
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
		doc := page(filepath.Base(f))
		text, err := os.ReadFile(filepath.Join("..", "..", doc))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(text), string(body)) {
			t.Errorf("%s does not quote %s verbatim", doc, f)
		}
	}
}
