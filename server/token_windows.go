//go:build windows

package server

import "github.com/hermes-hooks/hermes-hooks/internal/fsutil"

// restrictToUser gives the endpoint file at path an access list of its own
// (not inherited from its directory) that lets this process's user alone
// read or change it: Windows ignores a file's Unix mode.
func restrictToUser(path string) error { return fsutil.RestrictToUser(path, false) }
