//go:build !windows

package proctest

// errNotRun: no start fails before its process ran here (StartRetrying).
var errNotRun error
