//go:build !linux

package cmdpin

import (
	"errors"
	"os"
)

// sealedCopy needs Linux (memfd_create); elsewhere scripts start by name.
func sealedCopy(name string, content []byte) (*os.File, error) {
	return nil, errors.New("sealed memory files need Linux")
}
