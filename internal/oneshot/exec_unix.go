//go:build unix

package oneshot

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

const exeSuffix = ""

// replaceWith replaces this process with path, argv and the same
// environment: the same pid, stdout, stderr and signals, so the agent or
// shell that started us sees one process either way. stdin nil keeps
// standard input; else the new program reads stdin from an unlinked
// temporary file (a pipe would need a writer that outlives us).
func replaceWith(path string, argv []string, stdin []byte) (int, error) {
	if stdin != nil {
		f, _, err := unlinkedFile("hermes-hooks-stdin-*", stdin)
		if err != nil {
			return 0, err
		}
		if err := unix.Dup2(int(f.Fd()), 0); err != nil {
			return 0, err
		}
	}
	return 0, syscall.Exec(path, argv, os.Environ())
}
