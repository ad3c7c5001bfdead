// Package httphook posts Claude Code http hooks over net/http: the
// dispatcher.Options.HTTP a host sets so that entries with type: http run.
//
// Contract: Post sends body as JSON to url with the given headers, follows
// no redirect (the approval is of one URL; a redirect would send the
// payload elsewhere), and returns the status and at most limit+1 bytes of
// the reply, so the caller can tell a reply cut at limit; an error only
// when no reply came, or ctx ended while it was read. It lives apart
// from package dispatcher, and imports nothing of it, so that a program
// which never meets an http hook (the one-shot hermes-hooks binary) does
// not link net/http and its TLS stack, whose initialisation every start
// would pay.
package httphook

import (
	"bytes"
	"context"
	"io"
	"net/http"
)

var client = &http.Client{
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// Post is a dispatcher.HTTPPost.
func Post(ctx context.Context, url string, header map[string]string, body []byte, limit int) (status int, reply []byte, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	reply, err = io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	if err != nil && ctx.Err() == nil {
		// A reply cut by the peer is what the peer sent: read as is.
		err = nil
	}
	return resp.StatusCode, reply, err
}
