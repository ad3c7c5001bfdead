package proctest

import (
	"os"
	"syscall"
)

// WriteExecutable writes an executable file for a test that will start it
// while other goroutines of the test binary start processes.
//
// Linux refuses to exec a file that any process holds open for writing
// (ETXTBSY). os.WriteFile's descriptor is close-on-exec, but a fork by
// another goroutine between its open and close gives the child a copy of
// it until that child's exec — on a loaded machine, long enough for this
// test's own exec of the file to fail. Holding syscall.ForkLock for
// reading, as the standard library does while it creates descriptors,
// keeps every fork of this process out of that window.
func WriteExecutable(path string, data []byte) error {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	return os.WriteFile(path, data, 0o755)
}
