//go:build !unix

package fsutil

import (
	"io"
	"os"
)

// openRaw has no raw path here: ReadRegular opens an *os.File.
func openRaw(string) (io.Reader, os.FileMode, int64, func() error, error) {
	return nil, 0, 0, nil, nil
}
