package dispatcher

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
)

// Configs for the dispatcher's tests, read as Load reads them.

func parseClaudeSettings(data []byte, path string) ([]*hookconfig.Entry, []hookconfig.Warning, error) {
	return hookconfig.ParseAgentFile("claude", data, path)
}

func parseCursorFile(data []byte, path string, _ int) ([]*hookconfig.Entry, []hookconfig.Warning, error) {
	return hookconfig.ParseAgentFile("cursor", data, path)
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func warningsText(cfg *hookconfig.Config) string {
	var b strings.Builder
	for _, w := range cfg.Warnings {
		b.WriteString(w.String())
		b.WriteString("\n")
	}
	return b.String()
}
