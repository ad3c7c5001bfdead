package proctest

import (
	"errors"
	"os/exec"
)

// startAttempts bounds how often StartRetrying tries one start.
const startAttempts = 3

// StartRetrying starts the command newCmd makes (its pipes set up anew
// each time), trying again, up to three times in all, while the start
// fails as Wine's CreateProcess does when a new process's loader dies
// before its first instruction ("Internal error.": nothing of it ran, as
// hookproc's startRetrying says for hooks). Any other error is returned at
// once; elsewhere than Windows there is no such error.
func StartRetrying(newCmd func() (*exec.Cmd, error)) (*exec.Cmd, error) {
	var err error
	for range startAttempts {
		var cmd *exec.Cmd
		if cmd, err = newCmd(); err != nil {
			return nil, err
		}
		if err = cmd.Start(); err == nil {
			return cmd, nil
		}
		if errNotRun == nil || !errors.Is(err, errNotRun) {
			return nil, err
		}
	}
	return nil, err
}
