//go:build !linux || hermes_portable

package cmdpin

import "os"

// fsClassOf knows no filesystem here: a file's stat identity never vouches
// for its content, and every file is hashed every time.
func fsClassOf(*os.File) fsClass { return fsUnknown }

// ctimeSettled is false off Linux: the digest cache never gets there
// (fsClassOf says fsUnknown), and no FileKey vouches (FileKey.Vouches).
func ctimeSettled(int64) bool { return false }

// readLease is never reached off Linux (fsClassOf says fsUnknown).
func readLease(*os.File) (end func() bool, writer bool) { return nil, false }
