package protocol

import (
	"strconv"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
)

// HTTPAnswer is what an http hook's answer said of itself beside its body
// (Reply.HTTP): a reply that came over HTTP is read as a process's, its
// 2xx body as stdout, but not every 2xx body is the hook's.
type HTTPAnswer struct {
	Status int
	// ContentType is the answer's Content-Type as sent ("": none), the
	// server's text: cut and quoted wherever it is shown.
	ContentType string
}

// Cuts of what a server sent, in a block's reason: enough to tell an
// error page from a reply, not a page of it.
const (
	cutContentType = 80
	cutBody        = 120
)

// NotAnHTTPReply holds a fail_closed http guard, on an event where the
// entry refuses (refuses), to an answer that is a reply: a 2xx answer
// whose body is neither empty nor a JSON object is not one. A proxy, a
// captive portal or a load balancer answers with its own page, often with
// 200, and that page read as a command's stdout is text on exit 0, a
// success: the guard's server was never asked, and what it guards would
// go through. So the guard blocks, naming the status and the content type
// (text/plain too: under fail_closed only a JSON object decides). A body
// that starts a JSON object but is none (cut, malformed) is left to the
// dialect's reading and CutReply, which already refuse it; c, note are
// the dialect's reading, kept when it refused.
func NotAnHTTPReply(r Reply, refuses bool, c *Contribution, note string) (*Contribution, string) {
	if r.HTTP == nil || !r.FailClosed || !refuses || (c != nil && c.Decision == DecisionBlock) ||
		r.NotRun() != "" || r.ExitCode != 0 || r.HTTP.Status < 200 || r.HTTP.Status > 299 {
		return c, note
	}
	body := jsTrim(toValidUTF8(r.Stdout))
	if body == "" {
		return c, note // no objection, as an empty reply is
	}
	if v, err := pyjson.Decode([]byte(body)); err == nil {
		if _, ok := v.(map[string]any); ok {
			return c, note
		}
	} else if strings.HasPrefix(body, "{") {
		return c, note
	}
	ct := "no content type"
	if r.HTTP.ContentType != "" {
		ct = quoteCut(r.HTTP.ContentType, cutContentType)
	}
	return failedClosed(r.Command, "its HTTP "+strconv.Itoa(r.HTTP.Status)+" answer ("+ct+") is not a JSON object, so it is no reply: "+
		quoteCut(firstLine(body), cutBody)), note
}

// quoteCut is s cut to n code points and Go-quoted: a server's text, with
// every control character escaped (a terminal shows the block's reason).
func quoteCut(s string, n int) string {
	cut := textutil.CutRunes(s, n)
	q := strconv.Quote(cut)
	if cut != s {
		q += "…"
	}
	return q
}
