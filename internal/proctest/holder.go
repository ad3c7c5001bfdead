package proctest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"testing"
)

// A test that needs a lock held by another process (a hook's one-shot
// process stopped while it holds the spool's counter, another process's
// approval) runs its own test binary again as the holder: StartHolder in
// the test, HoldLocked in the holder, which says "locked" on stdout once
// it holds the lock and keeps it until its stdin ends.

// HoldLocked is the holder's side, in the test binary run again: it takes
// a lock with lock, prints "locked" once it holds it, keeps it until
// stdin ends (the test closing it, or dying) and lets it go. A lock that
// cannot be taken prints its error instead, which StartHolder reports,
// and is returned.
func HoldLocked(lock func() (unlock func(), err error)) error {
	unlock, err := lock()
	if err != nil {
		fmt.Println(err)
		return err
	}
	fmt.Println("locked")
	_, _ = io.Copy(io.Discard, os.Stdin)
	unlock()
	return nil
}

// StartHolder starts the test binary again, with args (which of its
// tests runs, e.g. -test.run=^$ for a TestMain that holds) and env
// (NAME=VALUE, what the holder is to hold) added, and returns once the
// holder (HoldLocked) holds its lock; what names the lock in a failure.
// release, also a cleanup, closes the holder's stdin and waits for it to
// exit, an exit in error reported.
func StartHolder(t testing.TB, what, env string, args ...string) (release func()) {
	t.Helper()
	var stdin io.WriteCloser
	var stdout io.ReadCloser
	cmd, err := StartRetrying(t, func() (*exec.Cmd, error) {
		c := exec.Command(os.Args[0], args...)
		c.Env = append(os.Environ(), env)
		var err error
		if stdin, err = c.StdinPipe(); err != nil {
			return nil, err
		}
		stdout, err = c.StdoutPipe()
		return c, err
	})
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if line != "locked\n" {
		stdin.Close()
		_ = cmd.Wait()
		t.Fatalf("holder of %s: %q %v", what, line, err)
	}
	done := false
	release = func() {
		if !done {
			done = true
			stdin.Close()
			if err := cmd.Wait(); err != nil {
				t.Errorf("holder of %s: %v", what, err)
			}
		}
	}
	t.Cleanup(release)
	return release
}
