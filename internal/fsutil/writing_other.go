//go:build !linux || hermes_portable

package fsutil

// SeesWriters: BeingWritten cannot tell here (see there).
const SeesWriters = false

// BeingWritten cannot tell here (no leases; macOS and the BSDs have no
// way short of walking every process's descriptors): the settle period
// alone decides.
func BeingWritten(string) bool { return false }
