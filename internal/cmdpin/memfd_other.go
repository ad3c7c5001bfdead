//go:build !linux || hermes_portable

package cmdpin

import (
	"errors"
	"os"
)

// fdPinning is false: no /proc/self/fd or memory files here, so pinned
// files start by name (see memfd_linux.go).
const fdPinning = false

// sealedCopy needs Linux (memfd_create); elsewhere scripts start by name.
func sealedCopy(name string, content []byte) (*os.File, error) {
	return nil, errors.New("sealed memory files need Linux")
}
