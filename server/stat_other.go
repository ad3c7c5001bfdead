//go:build !linux || hermes_portable

package server

import (
	"os"
	"time"
)

func fileTimes(fi os.FileInfo) (mtime, ctime time.Time) { return fi.ModTime(), fi.ModTime() }

func fileIdentity(fi os.FileInfo) string { return "" }

func beingWritten(string) bool { return false }
