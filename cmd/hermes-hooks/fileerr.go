package main

import (
	"fmt"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// fileErr words err about the file at path as a person reads it, the path
// once and then the reason: "corp.key: no such file or directory", not Go's
// "open corp.key: no such file or directory" (the operation is the
// program's business). The cause stays wrapped, so errors.Is still sees
// fs.ErrNotExist.
func fileErr(path string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", path, fsutil.WithoutPath(path, err))
}
