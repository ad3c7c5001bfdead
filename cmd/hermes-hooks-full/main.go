// Command hermes-hooks-full is the complete hermes-hooks program: people
// list, test, approve, revoke and diagnose their hooks with it, agents call
// `hermes-hooks dispatch EVENT` (JSON in, JSON out), `hook AGENT` or
// `serve`. Users do not start it by this name: the front, cmd/hermes-hooks,
// answers dispatch and hook itself (through package oneshot, as this
// program does) and hands it every other command line; it works the same
// when started directly.
//
// The commands are thin: each parses its flags into an options struct and
// calls a function that does the work through the dispatcher and consent
// packages, then formats the result. main.go is the one place that maps
// errors to exit codes and prints them (oneshot.Report).
package main

import (
	"fmt"
	"io"
	"os"

	// The YAML parser and the backtracking regex engine the front goes
	// without (see dispatcher.Engines).
	_ "github.com/hermes-hooks/hermes-hooks/dispatcher/engines"
	"github.com/hermes-hooks/hermes-hooks/dispatcher/httphook"
	"github.com/hermes-hooks/hermes-hooks/internal/oneshot"
)

func main() {
	if warning := takeFrontPath(oneshot.Version()); warning != "" {
		fmt.Fprintf(os.Stderr, "hermes-hooks: warning: %s\n", warning)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// frontSelf is the front's path when the front handed us the command line
// (see oneshot.FrontEnv).
var frontSelf string

// takeFrontPath reads what the front told us, its path and its version,
// from the environment and removes both there: hooks and servers started
// from here must not inherit them. It returns a warning when the front
// comes from another build than this program (own): the two would answer
// dispatch and hook differently.
func takeFrontPath(own string) (warning string) {
	frontSelf = os.Getenv(oneshot.FrontEnv)
	front, told := os.LookupEnv(oneshot.FrontVersionEnv)
	os.Unsetenv(oneshot.FrontEnv)
	os.Unsetenv(oneshot.FrontVersionEnv)
	if told && front != own {
		return "hermes-hooks is " + front + " but hermes-hooks-full is " + own +
			": install both from the same version (make install in a clone; for a published release, CGO_ENABLED=0 go install github.com/hermes-hooks/hermes-hooks/cmd/...@VERSION)"
	}
	return ""
}

// exitError carries an exit code and what to tell the user.
type exitError = oneshot.ExitError

// usageErr is a usage problem: exit 2.
func usageErr(hint, format string, args ...any) error { return oneshot.UsageErr(hint, format, args...) }

// silentExit exits with code after the command printed its own report.
func silentExit(code int) error { return oneshot.SilentExit(code) }

// run executes the CLI and returns the process exit code: 0 when the command
// did its job, 1 when it could not run (or doctor found problems), 2 for a
// usage error (unknown event, bad flags, bad input).
// subreap: a one-shot dispatch adopts its hooks' escaped descendants and
// kills them before it exits. Only tests that call run in-process turn it
// off (see oneshot.App.NoSubreap).
var subreap = true

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{App: oneshot.App{In: stdin, Out: stdout, Err: stderr, NoSubreap: !subreap, HTTP: httphook.Post}}
	root := newRootCmd(a)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	return oneshot.Report(root.Execute(), stderr)
}
