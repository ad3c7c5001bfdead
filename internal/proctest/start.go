package proctest

import (
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
)

// startAttempts bounds how often one start is tried.
const startAttempts = 3

// Logger is where a retry is told, so that none is silent: a *testing.T,
// or WriterLogger in a helper process, which has no T.
type Logger interface {
	Logf(format string, args ...any)
}

// WriterLogger tells a retry on W (a helper process's stderr).
type WriterLogger struct{ W io.Writer }

// Logf writes one line.
func (l WriterLogger) Logf(format string, args ...any) {
	fmt.Fprintf(l.W, format+"\n", args...)
}

// StartRetrying starts the command newCmd makes (its pipes set up anew
// each time: a Cmd whose start failed cannot be started again), trying
// again, up to three times in all, while the start fails as Wine's
// CreateProcess does when a new process's loader dies before its first
// instruction ("Internal error.": nothing of it ran, as hookproc's
// startRetrying says for hooks). Every retry is told to log. Any other
// error is returned at once; elsewhere than Windows there is no such
// error.
func StartRetrying(log Logger, newCmd func() (*exec.Cmd, error)) (*exec.Cmd, error) {
	var cmd *exec.Cmd
	err := retry(log, func() (*exec.Cmd, error) {
		c, err := newCmd()
		if err != nil {
			return nil, err
		}
		cmd = c
		return c, c.Start()
	})
	if err != nil {
		return nil, err
	}
	return cmd, nil
}

// RunRetrying is exec.Cmd's Run for the command newCmd makes, its start
// tried again as StartRetrying's is.
func RunRetrying(log Logger, newCmd func() *exec.Cmd) error {
	return retry(log, func() (*exec.Cmd, error) {
		c := newCmd()
		return c, c.Run()
	})
}

// OutputRetrying is exec.Cmd's Output, its start tried again as
// StartRetrying's is.
func OutputRetrying(log Logger, newCmd func() *exec.Cmd) ([]byte, error) {
	return outputRetrying(log, newCmd, (*exec.Cmd).Output)
}

// CombinedOutputRetrying is exec.Cmd's CombinedOutput, its start tried
// again as StartRetrying's is.
func CombinedOutputRetrying(log Logger, newCmd func() *exec.Cmd) ([]byte, error) {
	return outputRetrying(log, newCmd, (*exec.Cmd).CombinedOutput)
}

// outputRetrying runs the command newCmd makes with output (one of
// exec.Cmd's output methods), its start tried again as StartRetrying's is;
// the output is the last attempt's.
func outputRetrying(log Logger, newCmd func() *exec.Cmd, output func(*exec.Cmd) ([]byte, error)) ([]byte, error) {
	var out []byte
	err := retry(log, func() (*exec.Cmd, error) {
		c := newCmd()
		var err error
		out, err = output(c)
		return c, err
	})
	return out, err
}

// retry calls attempt until it ends in anything but a start that failed
// before its process ran, or startAttempts have been made.
func retry(log Logger, attempt func() (*exec.Cmd, error)) error {
	return retryOn(errNotRun, log, attempt)
}

// retryOn is retry with the system's not-run error as a parameter, so
// that the loop is tested everywhere.
func retryOn(sentinel error, log Logger, attempt func() (*exec.Cmd, error)) error {
	for i := 1; ; i++ {
		cmd, err := attempt()
		if !notRunCmd(cmd, err, sentinel) || i == startAttempts {
			return err
		}
		log.Logf("proctest: %s did not start (%v): Wine's CreateProcess failing before the process ran; trying again (%d of %d)",
			cmd.Path, err, i+1, startAttempts)
	}
}

// notRunCmd reports whether err, what starting (or running) cmd returned,
// is the start failure worth another try: cmd never got a process (so none
// of it ran, and whatever it was to do is still undone) and the error is
// sentinel, the one the system's CreateProcess returns then (Wine's).
func notRunCmd(cmd *exec.Cmd, err, sentinel error) bool {
	return cmd != nil && notRun(err, cmd.Process != nil, sentinel)
}

// notRun is notRunCmd's decision with the system's not-run error as a
// parameter (nil: the system has none), so that it is tested everywhere.
// A process that started and then failed — whatever its error says — is
// a real failure; so is a start that failed otherwise.
func notRun(err error, started bool, sentinel error) bool {
	return sentinel != nil && err != nil && !started && errors.Is(err, sentinel)
}

// ScriptStartFailed reports whether a testscript log shows a command whose
// start failed before it ran (testscript's exec logs a failed command's
// error in brackets: "[fork/exec PATH: Internal error.]"). Always false but
// on Windows. testscript logs a command's output raw, so a command could
// print such a line itself: that costs its script another run, no more
// (the last attempt's outcome stands).
func ScriptStartFailed(log string) bool {
	return scriptStartFailed(log, errNotRun)
}

func scriptStartFailed(log string, sentinel error) bool {
	if sentinel == nil {
		return false
	}
	suffix := ": " + sentinel.Error() + "]"
	for line := range strings.Lines(log) {
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(line, "[fork/exec ") && strings.HasSuffix(line, suffix) {
			return true
		}
	}
	return false
}
