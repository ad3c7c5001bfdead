//go:build !unix

package fsutil

// Readable: without poll(2) nothing is known to be waiting.
func Readable(any) bool { return false }

// AwaitReadable: without poll(2) bytes are known only once read.
func AwaitReadable(any) bool { return false }
