package protocol

import (
	"mime"
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

// NotAnHTTPReply holds an http hook to an answer that is a reply. A proxy,
// a captive portal or a load balancer answers with its own page, often
// with 200, and that page read as a command's stdout is text on exit 0:
//
//   - for a fail_closed guard, on an event where the entry refuses
//     (refuses), a success: the guard's server was never asked, and what
//     it guards would go through. So a 2xx body that is neither empty
//     nor a JSON object blocks, naming the status and the content type
//     (text/plain too: under fail_closed only a JSON object decides). A
//     body that starts a JSON object but is none (cut, malformed) is left
//     to the dialect's reading and CutReply, which already refuse it;
//   - for any other, on an event whose hooks add context
//     (UserPromptSubmit, SessionStart), context: the page would reach
//     the model as the hook's words. Claude Code's hooks reference says
//     nothing of a 2xx body that is no JSON, so only what says it is
//     text (Content-Type text/plain) is read as a command's stdout; any
//     other such body is no reply, with a note saying why.
//
// c, note are the dialect's reading, kept when it blocked.
func NotAnHTTPReply(r Reply, refuses bool, c *Contribution, note string) (*Contribution, string) {
	if r.HTTP == nil || (c != nil && c.Decision == DecisionBlock) ||
		r.NotRun() != "" || r.ExitCode != 0 || r.HTTP.Status < 200 || r.HTTP.Status > 299 {
		return c, note
	}
	body := JSTrim(toValidUTF8(r.Stdout))
	if body == "" {
		return c, note // no objection, as an empty reply is
	}
	if strings.HasPrefix(body, "{") {
		if v, err := pyjson.Decode([]byte(body)); err == nil {
			if _, object := v.(map[string]any); object {
				return c, note // the dialect read it: the common case
			}
		}
	}
	ct := "no content type"
	if r.HTTP.ContentType != "" {
		ct = quoteCut(r.HTTP.ContentType, cutContentType)
	}
	what := "its HTTP " + strconv.Itoa(r.HTTP.Status) + " answer (" + ct + ")"
	switch {
	case r.FailClosed && refuses:
		if strings.HasPrefix(body, "{") {
			return c, note
		}
		return failedClosed(r.Command, what+" is not a JSON object, so it is no reply: "+
			quoteCut(firstLine(body), cutBody)), note
	case plainText(r.HTTP.ContentType):
		return c, note
	}
	why := what + " is neither a JSON object nor text/plain, so it is no reply (a proxy's or portal's page is not the hook's words)"
	if note != "" {
		why = note + "; " + why
	}
	return nil, why
}

// plainText reports a Content-Type of text/plain, parameters aside.
func plainText(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "text/plain"
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
