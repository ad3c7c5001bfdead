package install

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// TestHookCommandRefusesNonUTF8Path: a hook file is JSON, which holds only
// UTF-8; a program path that is not (a folder named in Latin-1) would be
// written with U+FFFD in its place, a path that names nothing, and every
// tool call refused as "missing" after an install that said it worked.
func TestHookCommandRefusesNonUTF8Path(t *testing.T) {
	claude, _ := agents.Lookup("claude")
	for _, goos := range []string{"linux", "darwin", "windows"} {
		exe := "/opt/b\xffin/hermes-hooks"
		if goos == "windows" {
			exe = "C:/b\xffin/hermes-hooks.exe"
		}
		_, err := HookCommandOn(goos, claude, exe)
		if err == nil || !strings.Contains(err.Error(), "UTF-8") {
			t.Fatalf("%s: %q: err = %v, want a refusal naming UTF-8", goos, exe, err)
		}
	}
	if _, err := HookCommandOn("linux", claude, "/opt/bïn/hermes-hooks"); err != nil {
		t.Fatalf("a UTF-8 path: %v", err)
	}
}
