//go:build !windows

package report

// restrictProbe: the folder's mode (0700, os.MkdirTemp's) already keeps
// everyone else out.
func restrictProbe(string) error { return nil }
