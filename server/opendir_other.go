//go:build !unix

package server

import "os"

// openDir opens d for listing (unix: only if it is a directory then).
// Windows has no FIFO a directory could be swapped for.
func openDir(d string) (*os.File, error) { return os.Open(d) }
