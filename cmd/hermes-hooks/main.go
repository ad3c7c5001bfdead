// Command hermes-hooks is the shell-hook dispatcher for AI agents, one
// program for agents and people: people list, test, approve, revoke and
// diagnose their hooks with it; agents run `hermes-hooks hook AGENT` as
// their hook, or call `hermes-hooks dispatch EVENT` (JSON in, JSON out) or
// `serve`.
//
// The commands are thin: each parses its flags into an options struct and
// calls a function that does the work through the dispatcher and consent
// packages, then formats the result. main.go is the one place that maps
// errors to exit codes and prints them (cli.Report).
package main

import (
	"io"
	"os"

	"github.com/hermes-hooks/hermes-hooks/internal/cli"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// usageErr is a usage problem: exit 2 (cli.UsageError). Any other error a
// verb returns exits 1 (the verb could not do its job), with withHint's
// hint when it has one; only a code that is part of a verb's contract
// needs silentExit or a cli.ExitError.
func usageErr(hint, format string, args ...any) error { return cli.UsageErr(hint, format, args...) }

// withHint adds a hint, printed after err's message, to a runtime error.
func withHint(err error, hint string) error { return cli.WithHint(err, hint) }

// silentExit exits with code after the command printed its own report.
func silentExit(code int) error { return cli.SilentExit(code) }

// run executes the CLI and returns the process exit code: 0 when the command
// did its job, 1 when it could not run (or doctor found problems), 2 for a
// usage error (unknown event, bad flags, bad input).
// subreap: a one-shot dispatch adopts its hooks' escaped descendants and
// kills them before it exits. Only tests that call run in-process turn it
// off (see cli.App.NoSubreap).
var subreap = true

// jsonReport are the verbs whose --json output is one document a script
// reads whole (doctor --json | jq '.hooks[]'): one that fails before it
// prints it (a config that does not load) prints {"error": …} instead, so
// the script fails too rather than read nothing as no problems.
var jsonReport = map[string]bool{"doctor": true, "list": true, "test": true}

// countingWriter counts what was written through it.
type countingWriter struct {
	w io.Writer
	n int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += n
	return n, err
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	out := &countingWriter{w: stdout}
	a := &app{App: cli.App{In: stdin, Out: out, Err: stderr, NoSubreap: !subreap}}
	root := newRootCmd(a, args)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(out)
	root.SetErr(stderr)
	cmd, err := root.ExecuteC()
	if err != nil && out.n == 0 && jsonReport[cmd.Name()] {
		if on, _ := cmd.Flags().GetBool("json"); on {
			cli.ReportJSON(err, out)
		}
	}
	code := cli.Report(err, stderr)
	// After the answer: a one-shot command that spooled records for
	// export starts their flush now (see cli.App.Finish).
	a.Finish()
	return code
}
