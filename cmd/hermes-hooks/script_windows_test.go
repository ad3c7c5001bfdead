//go:build windows

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
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

// runScriptsRetrying is testscript.Run, except that a script one of whose
// commands failed to start before it ran — Wine's CreateProcess failing
// with "Internal error." now and then (proctest.ScriptStartFailed) — is
// run again, up to scriptAttempts in all, each retry logged with the
// failed attempt's log. A script that fails otherwise fails as before.
//
// It is done around the whole script because testscript leaves no way in
// to the start itself: exec is a builtin, which neither Params.Cmds nor
// SetCmd may replace, and Setup sees no command; a command of our own in
// its place could not take the stdin builtin's text (private to the
// TestScript, and spent by the failed attempt) nor give `wait` and `kill`
// its background processes. Each attempt gets a fresh $WORK: testscript
// removes the last one's when it ends.
func runScriptsRetrying(t *testing.T, p testscript.Params) {
	testscript.RunT(scriptRetrier{t: t, startFailed: proctest.ScriptStartFailed}, p)
}
