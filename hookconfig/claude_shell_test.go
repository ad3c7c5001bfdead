package hookconfig

import (
	"strings"
	"testing"
)

// A Claude Code handler's shell: bash and powershell run (internal/cmdpin
// finds bash, or pwsh else powershell.exe); sh is the default; any other
// shell is listed but cannot run; with args (exec form) shell is ignored,
// as Claude Code ignores it.
func TestClaudeHandlerShell(t *testing.T) {
	for _, tc := range []struct {
		handler     string
		shell       string
		unsupported string
	}{
		{`"command":"echo hi"`, "", ""},
		{`"command":"echo hi","shell":"sh"`, "", ""},
		{`"command":"echo hi","shell":"bash"`, "bash", ""},
		{`"command":"Write-Output hi","shell":"powershell"`, "powershell", ""},
		{`"command":"pwsh","args":["-File","x.ps1"],"shell":"powershell"`, "", ""},
		{`"command":"echo hi","shell":"zsh"`, "", "a zsh shell command (only bash, sh and powershell run here)"},
		{`"command":"echo hi","shell":"PowerShell"`, "", "a PowerShell shell command (only bash, sh and powershell run here)"},
	} {
		settings := `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command",` + tc.handler + `}]}]}}`
		entries, warns, err := parseClaudeSettings([]byte(settings), "/p/settings.json")
		if err != nil || len(entries) != 1 {
			t.Fatalf("%s: %v %v", tc.handler, entries, err)
		}
		e := entries[0]
		if e.Exec().Shell != tc.shell || e.CannotRun() != tc.unsupported {
			t.Errorf("%s: shell %q unsupported %q, want %q %q", tc.handler, e.Exec().Shell, e.CannotRun(), tc.shell, tc.unsupported)
		}
		if tc.unsupported != "" && !strings.Contains(warnsText(warns), tc.unsupported) {
			t.Errorf("%s: warnings %v", tc.handler, warns)
		}
	}
}

func warnsText(ws []Warning) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString(w.String() + "\n")
	}
	return b.String()
}
