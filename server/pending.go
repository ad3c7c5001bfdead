package server

import (
	"net"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// pending reports whether c has bytes (or its end) waiting to be read: a
// client whose request is there but not yet read by its goroutine is
// about to be in a request, and is not the one to close for room. Where
// poll(2) is missing nothing is known to wait, so the oldest silent
// connection is closed for room.
func pending(c net.Conn) bool { return fsutil.Readable(c) }
