package server

import (
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
// (termsafe: whoever reads the reply or the log reads it there). A message
// that quotes it (strconv.Quote escapes what echo would) cuts it alone
// (textutil.CutBytesSaying, maxEcho); a whole error message is cut to
// maxError: the conflicts name the caller's query values, which echo does
// not cut one by one.
func echo(s string) string { return termsafe.Escape(textutil.CutBytesSaying(s, maxEcho)) }
