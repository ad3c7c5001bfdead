//go:build unix

package server

import (
	"io"
	"os"
	"syscall"
)

// openLogFile opens --log-file for appending. O_NOFOLLOW: a symbolic link
// planted at the path (a shared or world-writable log directory) would
// make serve append to whatever file it names, with serve's rights.
// O_NONBLOCK: opening a FIFO for writing waits for a reader, which would
// hold up serve's start, or its signal loop on a reopen; with it, a FIFO
// without a reader fails at once (ENXIO) and one with a reader is opened,
// then refused by checkLogFile. On a regular file O_NONBLOCK changes
// nothing.
func openLogFile(path string) (io.WriteCloser, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		return nil, logOpenError(path, err)
	}
	if err := checkLogFile(f, path); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
