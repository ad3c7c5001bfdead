//go:build windows

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestWindowsScripts runs testdata/script_windows/*.txtar: what a user
// types on Windows, with hooks Windows runs (.cmd files through cmd.exe).
// make test-windows runs it under Wine. Each script gets its own
// HERMES_HOME and USERPROFILE. A script whose command Wine failed to
// start before it ran is run again (runScriptsRetrying).
func TestWindowsScripts(t *testing.T) {
	runScriptsRetrying(t, testscript.Params{
		Dir: filepath.Join("..", "..", "testdata", "script_windows"),
		Setup: func(env *testscript.Env) error {
			env.Setenv("HERMES_HOME", filepath.Join(env.WorkDir, "home"))
			env.Setenv("USERPROFILE", filepath.Join(env.WorkDir, "userhome"))
			env.Setenv("HOME", filepath.Join(env.WorkDir, "userhome"))
			env.Setenv("HERMES_ACCEPT_HOOKS", "")
			env.Setenv("HERMES_SAFE_MODE", "")
			return os.MkdirAll(filepath.Join(env.WorkDir, "userhome"), 0o755)
		},
		Cmds:                scriptCmds,
		RequireExplicitExec: true,
	})
}
