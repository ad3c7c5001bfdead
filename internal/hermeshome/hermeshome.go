// Package hermeshome says where HERMES_HOME is: the state directory this
// tool shares with Hermes (the config, the allowlist, the journal, the
// registry of installations, serve's socket). It is its own package so that
// every reader of that directory resolves it by the one rule, and consent
// keeps only the allowlist.
package hermeshome

import (
	"fmt"
	"os"
	"path/filepath"
)

// Dir is $HERMES_HOME, or ~/.hermes when it is unset or empty, as Hermes
// resolves it.
func Dir() (string, error) {
	if h := os.Getenv("HERMES_HOME"); h != "" {
		return h, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("locate HERMES_HOME: %w", err)
	}
	return filepath.Join(home, ".hermes"), nil
}
