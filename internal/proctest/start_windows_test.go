package proctest

import (
	"fmt"
	"io/fs"
	"os/exec"
	"testing"

	"golang.org/x/sys/windows"
)

// On Windows the decision is wired to the real error: a start that failed
// with ERROR_INTERNAL_ERROR, as os.StartProcess reports it, is retried,
// and testscript's line for it ("[%v]" of that error) is recognized.
func TestNotRunOnWindows(t *testing.T) {
	err := &fs.PathError{Op: "fork/exec", Path: `C:\t\bin\hermes-hooks.exe`, Err: windows.ERROR_INTERNAL_ERROR}
	if !notRunHere(&exec.Cmd{Path: err.Path}, err) {
		t.Errorf("notRunHere(%v) = false", err)
	}
	if notRunHere(&exec.Cmd{Path: err.Path}, &fs.PathError{Op: "fork/exec", Path: err.Path, Err: windows.ERROR_FILE_NOT_FOUND}) {
		t.Error("notRunHere retries a missing program")
	}
	if log := fmt.Sprintf("> exec hermes-hooks\n[%v]\nFAIL: x:1: unexpected command failure\n", err); !ScriptStartFailed(log) {
		t.Errorf("ScriptStartFailed(%q) = false", log)
	}
	t.Logf("the error as this system words it: %v", err)
}
