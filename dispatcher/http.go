package dispatcher

import (
	"bytes"
	"context"
	"errors"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"io"
	"maps"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/hookproc"
)

// HTTPPost posts an http hook's payload (JSON) to url with header and
// returns the reply's status and at most limit+1 bytes of its body; it must
// follow no redirect and stop when ctx ends. PostHTTP is the default.
type HTTPPost func(ctx context.Context, url string, header map[string]string, body []byte, limit int) (status int, reply []byte, err error)

var httpClient = &http.Client{
	// The approval is of one URL: a redirect would send the payload
	// elsewhere.
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// PostHTTP is the HTTPPost a Dispatcher uses unless Options.HTTP names
// another: a POST over net/http that follows no redirect. It returns an
// error only when no reply came, or ctx ended while it was read.
func PostHTTP(ctx context.Context, url string, header map[string]string, body []byte, limit int) (status int, reply []byte, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := httpClient.Do(req)
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

// runHTTP runs a Claude Code http hook the way Claude Code does: the payload
// is POSTed to the URL as JSON; a 2xx reply's body is read as the hook's
// stdout (exit 0); any other status is a non-blocking error (exit 1, the
// status on stderr); a connection failure is a spawn error, so fail_closed
// applies. Header values may name environment variables ($NAME, ${NAME}),
// but only those listed in allowedEnvVars are filled in — the others become
// empty, so a settings file cannot send arbitrary secrets anywhere.
func runHTTP(ctx context.Context, post HTTPPost, e *hookconfig.Entry, env []string, payload []byte, capBytes int) (res hookproc.Result) {
	if post == nil {
		post = PostHTTP
	}
	start := time.Now()
	defer func() { res.Elapsed = time.Since(start) }()
	tctx, cancel := context.WithTimeout(ctx, e.Timeout)
	defer cancel()
	if capBytes <= 0 {
		capBytes = DefaultOutputCap
	}
	header := make(map[string]string, len(e.Headers))
	for k, v := range e.Headers {
		header[k] = expandAllowed(v, env, e.AllowedEnvVars)
	}
	status, body, err := post(tctx, e.URL, header, payload, capBytes)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			res.Cancelled = true
		case errors.Is(tctx.Err(), context.DeadlineExceeded):
			res.TimedOut = true
		default:
			res.SpawnError = "http hook: " + err.Error()
		}
		return res
	}
	if len(body) > capBytes {
		body, res.StdoutTruncated = body[:capBytes], true
	}
	res.Exited = true
	if status < 200 || status > 299 {
		res.ExitCode = 1
		res.Stderr = []byte("HTTP " + strconv.Itoa(status) + " from " + e.URL + firstLineOf(body))
		return res
	}
	res.Stdout = body
	return res
}

// httpSpec is the canonical text of what an http hook sends where: its URL,
// its headers sorted by name, and the environment variables their values
// may name, sorted and without repeats (their order means nothing). Each
// value is Go-quoted, so no two definitions share a text. The approval pins
// its digest (consent.Target.Spec): a header or an allowed variable added
// after the URL was approved — a secret sent along — needs a new approval.
func httpSpec(e *hookconfig.Entry) string {
	var b strings.Builder
	b.WriteString("http\nurl ")
	b.WriteString(strconv.Quote(e.URL))
	for _, name := range slices.Sorted(maps.Keys(e.Headers)) {
		b.WriteString("\nheader ")
		b.WriteString(strconv.Quote(name))
		b.WriteByte(' ')
		b.WriteString(strconv.Quote(e.Headers[name]))
	}
	for _, name := range slices.Compact(slices.Sorted(slices.Values(e.AllowedEnvVars))) {
		b.WriteString("\nallowed_env ")
		b.WriteString(strconv.Quote(name))
	}
	return b.String()
}

func firstLineOf(b []byte) string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	if s == "" {
		return ""
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return ": " + s
}

// expandAllowed replaces $NAME and ${NAME} in s with values from env, for
// names in allowed only; every other variable expands to "".
func expandAllowed(s string, env []string, allowed []string) string {
	return os.Expand(s, func(name string) string {
		for _, a := range allowed {
			if a == name {
				for i := len(env) - 1; i >= 0; i-- {
					if v, ok := strings.CutPrefix(env[i], name+"="); ok {
						return v
					}
				}
			}
		}
		return ""
	})
}
