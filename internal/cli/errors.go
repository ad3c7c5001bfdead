package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
)

// ExitError carries an exit code and what to tell the user.
type ExitError struct {
	Code int
	Msg  string // "" prints nothing (the command already explained itself)
	Hint string
}

func (e *ExitError) Error() string { return e.Msg }

// SignalError is a dispatch stopped by a signal: no outcome is printed,
// and the process exits 128 + the signal's number, as a shell reports a
// command killed by it.
type SignalError struct{ Signal os.Signal }

func (e *SignalError) Error() string {
	return "dispatch cancelled by " + signalName(e.Signal) + " before its hooks answered: no outcome"
}

// UsageErr is a usage problem: exit 2.
func UsageErr(hint, format string, args ...any) error {
	return &ExitError{Code: 2, Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// SilentExit exits with code after the command printed its own report.
func SilentExit(code int) error { return &ExitError{Code: code} }

// Report prints err the way every command does and returns the exit code:
// 0 for nil, 1 when the command could not run, 2 for a usage error.
func Report(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	code, msg, hint := classify(err)
	if msg != "" {
		fmt.Fprintf(stderr, "hermes-hooks: error: %s\n", Show(msg))
	}
	if hint != "" {
		fmt.Fprintf(stderr, "hermes-hooks: hint: %s\n", Show(hint))
	}
	return code
}

// classifyMsg is the message Report would print for err.
func classifyMsg(err error) string {
	_, msg, _ := classify(err)
	return msg
}

func classify(err error) (code int, msg, hint string) {
	var ee *ExitError
	var ce *hookconfig.ConfigError
	var ue *dispatcher.UnknownEventError
	var se *SignalError
	switch {
	case errors.As(err, &ee):
		return ee.Code, ee.Msg, ee.Hint
	case errors.As(err, &se):
		return 128 + signalNumber(se.Signal), se.Error(), ""
	case errors.As(err, &ue):
		hint = "run 'hermes-hooks test --help' for the list of events"
		if ue.Suggestion != "" {
			hint = "did you mean '" + ue.Suggestion + "'?"
		}
		return 2, "unknown event '" + ue.Name + "'", hint
	case errors.As(err, &ce):
		return 1, ce.Error(), "fix the file, or point --config elsewhere"
	}
	// Anything else comes from the command-line parser: unknown command or
	// flag, wrong number of arguments.
	return 2, err.Error(), "run 'hermes-hooks --help' for usage"
}

func signalNumber(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return int(n)
	}
	return 1
}

// signalName is the name people know a signal by (SIGTERM), where Go's
// String gives a description ("terminated").
func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}
