package bundle

import (
	"os"
	"path/filepath"
	"runtime"
)

// Where bundles are installed: the user layer's $HERMES_HOME/bundles and
// the managed layer's bundles directory beside the managed config.

// ManagedConfigEnv overrides where the managed config is (tests, and
// admins who keep it elsewhere).
const ManagedConfigEnv = "HERMES_HOOKS_MANAGED_CONFIG"

// ManagedConfigPath is the managed (system) config: $HERMES_HOOKS_MANAGED_CONFIG,
// else /etc/hermes-hooks/config.yaml, /Library/Application
// Support/hermes-hooks/config.yaml on macOS, %ProgramData%\hermes-hooks\config.yaml
// on Windows.
func ManagedConfigPath() string {
	if p := os.Getenv(ManagedConfigEnv); p != "" {
		return p
	}
	switch runtime.GOOS {
	case "darwin":
		return "/Library/Application Support/hermes-hooks/config.yaml"
	case "windows":
		pd := os.Getenv("ProgramData")
		if pd == "" {
			pd = `C:\ProgramData`
		}
		return filepath.Join(pd, "hermes-hooks", "config.yaml")
	}
	return "/etc/hermes-hooks/config.yaml"
}

// ManagedDir is the managed layer's bundles directory.
func ManagedDir() string { return filepath.Join(filepath.Dir(ManagedConfigPath()), "bundles") }

// UserDir is the user layer's bundles directory in HERMES_HOME.
func UserDir(home string) string { return filepath.Join(home, "bundles") }

// Dirs are both layers' bundles directories, the managed one first (its
// hooks come first).
func Dirs(home string) []string { return []string{ManagedDir(), UserDir(home)} }
