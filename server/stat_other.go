//go:build !unix

package server

import "os"

// fileIdentity: no inode in a FileInfo here (Windows).
func fileIdentity(fi os.FileInfo) string { return "" }
