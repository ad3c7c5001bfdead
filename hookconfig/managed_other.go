//go:build !unix && !windows

package hookconfig

import (
	"io/fs"
	"os"
)

const managedOwner = "the administrator"

// SystemManagedPath is where an administrator deploys the managed config.
func SystemManagedPath() string { return "/etc/hermes-hooks/config.yaml" }

// Ownership cannot be told here: a managed config is refused.
func managedFileProblem(path string, _ *os.File, _ fs.FileInfo) string {
	return path + ": its owner cannot be checked on this system"
}

func managedDirProblem(string, fs.FileInfo) string { return "" }
