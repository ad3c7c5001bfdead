//go:build !unix

package hookconfig

// othersMayWrite cannot tell here (Windows ACLs: the managed layer reads
// them, a user's own files are not checked).
func othersMayWrite(string) string { return "" }
