package bundle

import "path/filepath"

// Where bundles are installed: the user layer's $HERMES_HOME/bundles, and
// in the managed layer a bundles directory beside each managed config file
// (hookconfig.BundleDirs lists both layers: which managed files there are
// is hookconfig's to say — the system's always, whatever the environment).

// UserDir is the user layer's bundles directory in HERMES_HOME.
func UserDir(home string) string { return filepath.Join(home, "bundles") }
