package server

import (
	"strconv"

	"github.com/hermes-hooks/hermes-hooks/internal/termsafe"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
)

// Bounds of what a reply or the log repeats of a request: maxEcho for one
// thing the request names (its path, event, method, a query value),
// maxError for a whole error message. A request's head may be 1 MB; a
// process that names a 1 MB event must not get it back in the 404, nor
// put it on a line of the server's log, per request.
const (
	maxEcho  = 256
	maxError = 4096
)

// echo is s, something a request names, as a message repeats it: cut to
// maxEcho bytes (saying how long it was) and escaped for a terminal
// (termsafe: whoever reads the reply or the log reads it there).
func echo(s string) string { return termsafe.Escape(cut(s)) }

// cut is s cut to maxEcho bytes, for a message that quotes it
// (strconv.Quote escapes what echo would).
func cut(s string) string {
	if len(s) > maxEcho {
		return textutil.CutBytes(s, maxEcho) + "… (" + strconv.Itoa(len(s)) + " bytes)"
	}
	return s
}

// boundError cuts an error message to maxError bytes: the conflicts name
// the caller's query values, which echo does not cut one by one.
func boundError(s string) string {
	if len(s) > maxError {
		return textutil.CutBytes(s, maxError) + "… (" + strconv.Itoa(len(s)) + " bytes)"
	}
	return s
}
