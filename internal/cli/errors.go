package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
)

// ExitError carries an exit code that is part of a command's contract (an
// agent's reply code, test's and doctor's statuses) and what to tell the
// user. Errors that only mean "it did not work" need none: Report exits 1
// for every error it does not classify.
type ExitError struct {
	Code int
	Msg  string // "" prints nothing (the command already explained itself)
	Hint string
}

func (e *ExitError) Error() string { return e.Msg }

// UsageError is a command line that cannot be run as typed: an unknown
// command, flag or event, a wrong number of arguments, flags that do not
// go together, input that is not what the command reads. It exits 2, with
// a hint (usually where --help is), so a script can tell "you called me
// wrong" from "I could not do it" (exit 1).
type UsageError struct {
	Msg  string
	Hint string
}

func (e *UsageError) Error() string { return e.Msg }

// hinted is a runtime error (exit 1) with a hint at what to do about it.
type hinted struct {
	err  error
	hint string
}

func (e *hinted) Error() string { return e.err.Error() }
func (e *hinted) Unwrap() error { return e.err }

// WithHint adds a hint to err, printed after it; the exit code stays what
// err's would be (1 when nothing classifies it). A nil err stays nil.
func WithHint(err error, hint string) error {
	if err == nil {
		return nil
	}
	return &hinted{err: err, hint: hint}
}

// SignalError is a dispatch stopped by a signal: no outcome is printed,
// and the process exits 128 + the signal's number, as a shell reports a
// command killed by it.
type SignalError struct{ Signal os.Signal }

func (e *SignalError) Error() string {
	return "dispatch cancelled by " + signalName(e.Signal) + " before its hooks answered: no outcome"
}

// UsageErr is a usage problem: exit 2.
func UsageErr(hint, format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// SilentExit exits with code after the command printed its own report.
func SilentExit(code int) error { return &ExitError{Code: code} }

// Report prints err the way every command does and returns the exit code:
// 0 for nil, 2 for a usage error (UsageError, an unknown event), the code
// an ExitError or a signal carries, and 1 for anything else: the command
// could not do its job.
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

// ReportJSON writes err as a --json verb's document, {"error", "hint",
// "file", "line"} (the last three when known), for the script that reads
// stdout.
func ReportJSON(err error, stdout io.Writer) {
	_, msg, hint := classify(err)
	obj := protocol.Object{{Key: "error", Value: msg}}
	if hint != "" {
		obj = append(obj, protocol.KV{Key: "hint", Value: hint})
	}
	var ce *hookconfig.ConfigError
	if errors.As(err, &ce) {
		obj = append(obj, protocol.KV{Key: "file", Value: ce.Path})
		if ce.Line > 0 {
			obj = append(obj, protocol.KV{Key: "line", Value: int64(ce.Line)})
		}
	}
	_, _ = stdout.Write(append(pyjson.Encode(obj, pyjson.Compact), '\n'))
}

// classifyMsg is the message Report would print for err.
func classifyMsg(err error) string {
	_, msg, _ := classify(err)
	return msg
}

func classify(err error) (code int, msg, hint string) {
	var ee *ExitError
	var us *UsageError
	var ce *hookconfig.ConfigError
	var ue *dispatcher.UnknownEventError
	var se *SignalError
	var hi *hinted
	switch {
	case errors.As(err, &ee):
		return ee.Code, ee.Msg, ee.Hint
	case errors.As(err, &us):
		return 2, us.Msg, us.Hint
	case errors.As(err, &se):
		return 128 + signalNumber(se.Signal), se.Error(), ""
	case errors.As(err, &ue):
		hint = "run 'hermes-hooks test --help' for the list of events"
		if ue.Suggestion != "" {
			hint = "did you mean '" + ue.Suggestion + "'?"
		}
		return 2, "unknown event '" + ue.Name + "'", hint
	case errors.As(err, &hi):
		return 1, err.Error(), hi.hint
	case errors.As(err, &ce):
		hint = ce.Hint
		if hint == "" {
			hint = "fix the file, or point --config elsewhere"
		}
		return 1, ce.Error(), hint
	}
	// Anything else is a runtime error: the command was called right but
	// could not do its job. (The command line's own errors are UsageErrors:
	// the root command's flag-error function and every Args validator
	// return one.)
	return 1, err.Error(), ""
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

var errNoExport = errors.New("the config exports nothing")
