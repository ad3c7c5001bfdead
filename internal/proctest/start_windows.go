package proctest

import "golang.org/x/sys/windows"

// errNotRun is CreateProcess's ERROR_INTERNAL_ERROR (StartRetrying).
var errNotRun error = windows.ERROR_INTERNAL_ERROR
