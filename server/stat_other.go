//go:build !linux || hermes_portable

package server

import "os"

func fileIdentity(fi os.FileInfo) string { return "" }
