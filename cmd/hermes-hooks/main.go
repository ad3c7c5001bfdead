// Command hermes-hooks is the shell-hook dispatcher for AI agents: people
// list, test, approve, revoke and diagnose their hooks with it, and agents
// call `hermes-hooks dispatch EVENT` (JSON in, JSON out) or `serve`.
//
// The commands are thin: each parses its flags into an options struct and
// calls a function that does the work through the dispatcher and consent
// packages, then formats the result. main.go is the one place that maps
// errors to exit codes and prints them.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// exitError carries an exit code and what to tell the user.
type exitError struct {
	code int
	msg  string // "" prints nothing (the command already explained itself)
	hint string
}

func (e *exitError) Error() string { return e.msg }

// usageErr is a usage problem: exit 2.
func usageErr(hint, format string, args ...any) error {
	return &exitError{code: 2, msg: fmt.Sprintf(format, args...), hint: hint}
}

// silentExit exits with code after the command printed its own report.
func silentExit(code int) error { return &exitError{code: code} }

// run executes the CLI and returns the process exit code: 0 when the command
// did its job, 1 when it could not run (or doctor found problems), 2 for a
// usage error (unknown event, bad flags, bad input).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{in: stdin, out: stdout, err: stderr}
	root := newRootCmd(a)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return 0
	}
	code, msg, hint := classify(err)
	if msg != "" {
		fmt.Fprintf(stderr, "hermes-hooks: error: %s\n", show(msg))
	}
	if hint != "" {
		fmt.Fprintf(stderr, "hermes-hooks: hint: %s\n", show(hint))
	}
	return code
}

func classify(err error) (code int, msg, hint string) {
	var ee *exitError
	var ce *dispatcher.ConfigError
	var ue *dispatcher.UnknownEventError
	switch {
	case errors.As(err, &ee):
		return ee.code, ee.msg, ee.hint
	case errors.As(err, &ue):
		hint = "run 'hermes-hooks test --help' for the list of events"
		if ue.Suggestion != "" {
			hint = "did you mean '" + ue.Suggestion + "'?"
		}
		return 2, "unknown event '" + ue.Name + "'", hint
	case errors.As(err, &ce):
		return 1, ce.Error(), "fix the file, or point --config elsewhere"
	}
	// Anything else comes from cobra's own parsing: unknown command or flag,
	// wrong number of arguments.
	return 2, err.Error(), "run 'hermes-hooks --help' for usage"
}
