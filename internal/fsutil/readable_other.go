//go:build !unix

package fsutil

// Readable: without poll(2) nothing is known to be waiting.
func Readable(any) bool { return false }
