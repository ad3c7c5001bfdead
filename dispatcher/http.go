package dispatcher

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// httpClient posts Claude Code http hooks. Redirects are not followed: the
// approval is of one URL, and a redirect would send the payload elsewhere.
var httpClient = &http.Client{
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// runHTTP runs a Claude Code http hook the way Claude Code does: the payload
// is POSTed to the URL as JSON; a 2xx reply's body is read as the hook's
// stdout (exit 0); any other status is a non-blocking error (exit 1, the
// status on stderr); a connection failure is a spawn error, so fail_closed
// applies. Header values may name environment variables ($NAME, ${NAME}),
// but only those listed in allowedEnvVars are filled in — the others become
// empty, so a settings file cannot send arbitrary secrets anywhere.
func runHTTP(ctx context.Context, e *Entry, env []string, payload []byte, capBytes int) (res runResult) {
	start := time.Now()
	defer func() { res.Elapsed = time.Since(start) }()
	tctx, cancel := context.WithTimeout(ctx, e.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(tctx, http.MethodPost, e.URL, bytes.NewReader(payload))
	if err != nil {
		return runResult{SpawnError: "http hook: " + err.Error()}
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range e.Headers {
		req.Header.Set(k, expandAllowed(v, env, e.AllowedEnvVars))
	}
	resp, err := httpClient.Do(req)
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
	defer resp.Body.Close()
	if capBytes <= 0 {
		capBytes = DefaultOutputCap
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(capBytes)+1))
	if err != nil && tctx.Err() != nil {
		res.TimedOut = ctx.Err() == nil
		res.Cancelled = ctx.Err() != nil
		return res
	}
	if len(body) > capBytes {
		body, res.StdoutTruncated = body[:capBytes], true
	}
	res.Exited = true
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		res.ExitCode = 1
		res.Stderr = []byte("HTTP " + strconv.Itoa(resp.StatusCode) + " from " + e.URL + firstLineOf(body))
		return res
	}
	res.Stdout = body
	return res
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
