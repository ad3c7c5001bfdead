package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"syscall"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
)

// TestReportExitCodes: a usage error (and an unknown event) exits 2 with
// its hint; a code a command's contract names exits with that code; every
// other error is a runtime error: exit 1, its message, and no "--help"
// hint (the command line was right).
func TestReportExitCodes(t *testing.T) {
	cfgErr := &hookconfig.ConfigError{Path: "/x/config.yaml", Err: errors.New("no such file")}
	for _, tc := range []struct {
		name   string
		err    error
		code   int
		stderr string
	}{
		{"nil", nil, 0, ""},
		{"usage", UsageErr("run 'hermes-hooks list --help' for usage", "list takes no arguments"), 2,
			"hermes-hooks: error: list takes no arguments\nhermes-hooks: hint: run 'hermes-hooks list --help' for usage\n"},
		{"usage without hint", UsageErr("", "stdin is too big"), 2, "hermes-hooks: error: stdin is too big\n"},
		{"usage wrapped", fmt.Errorf("outer: %w", UsageErr("h", "inner")), 2, "hermes-hooks: error: inner\nhermes-hooks: hint: h\n"},
		{"unknown event", &dispatcher.UnknownEventError{Name: "pre_tool", Suggestion: "pre_tool_call"}, 2,
			"hermes-hooks: error: unknown event 'pre_tool'\nhermes-hooks: hint: did you mean 'pre_tool_call'?\n"},
		{"plain runtime error", errors.New("write /dev/stdout: no space left on device"), 1,
			"hermes-hooks: error: write /dev/stdout: no space left on device\n"},
		{"wrapped runtime error", fmt.Errorf("read journal: %w", os.ErrPermission), 1, "hermes-hooks: error: read journal: permission denied\n"},
		{"hinted", WithHint(errors.New("no journal at j.jsonl"), "pass --journal FILE"), 1,
			"hermes-hooks: error: no journal at j.jsonl\nhermes-hooks: hint: pass --journal FILE\n"},
		{"hinted keeps a usage error's code", WithHint(UsageErr("", "bad flag"), "try this"), 2, "hermes-hooks: error: bad flag\n"},
		{"config error", cfgErr, 1, "hermes-hooks: error: " + cfgErr.Error() + "\nhermes-hooks: hint: fix the file, or point --config elsewhere\n"},
		{"contract code", &ExitError{Code: 3}, 3, ""},
		{"silent", SilentExit(1), 1, ""},
		{"signal", &SignalError{Signal: syscall.SIGTERM}, 128 + 15,
			"hermes-hooks: error: dispatch cancelled by SIGTERM before its hooks answered: no outcome\n"},
		{"escaped", errors.New("bad \x1b]0;title\x07 name"), 1, "hermes-hooks: error: bad \\x1b]0;title\\x07 name\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			if code := Report(tc.err, &stderr); code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			if stderr.String() != tc.stderr {
				t.Errorf("stderr:\n%q\nwant:\n%q", stderr.String(), tc.stderr)
			}
		})
	}
	if WithHint(nil, "x") != nil {
		t.Error("WithHint(nil) is not nil")
	}
}
