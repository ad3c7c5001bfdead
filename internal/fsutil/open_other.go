//go:build !unix

package fsutil

import "os"

func openNoBlock(path string) (*os.File, error) { return os.Open(path) }
