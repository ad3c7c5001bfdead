//go:build !unix

package oneshot

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
)

const exeSuffix = ".exe"

// replaceWith runs path as a child with this process's streams and returns
// its exit code: there is no exec(2) to replace the process with. stdin
// non-nil is the child's standard input instead of ours.
func replaceWith(path string, argv []string, stdin []byte) (int, error) {
	cmd := exec.Command(path, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), nil
	}
	return 0, err
}
