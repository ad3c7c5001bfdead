// Package hookhttp runs Claude Code http hooks (type: http) the way Claude
// Code does: the payload is POSTed to the hook's URL as JSON, and the reply
// comes back as a hookproc.Result, so that the dispatcher reads an http
// hook's answer exactly as it reads a process's. It knows no configs,
// consent or replies: its caller gives it the URL, headers, environment
// and limits of one post.
package hookhttp

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/hookproc"
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/internal/tlsroots"
)

// Spec is one post.
type Spec struct {
	URL string
	// Headers are sent with the post. Their values may name environment
	// variables ($NAME, ${NAME}), filled in from Env for the names in
	// AllowedEnvVars only: the others become empty, so that a settings file
	// cannot send arbitrary secrets anywhere.
	Headers        map[string]string
	AllowedEnvVars []string
	Env            []string
	// Body is the payload (JSON).
	Body []byte
	// Timeout bounds the whole post, reply included.
	Timeout time.Duration
	// Cap bounds the reply body kept (0 = hookproc.DefaultOutputCap).
	Cap int
	// Name is what a failure to post calls the post ("": "http hook"),
	// for a kind whose post is not an http hook's (an OPA query).
	Name string
	// Shown is URL as messages show it, its secrets redacted (the
	// caller's hookconfig.ShownURL: user information, query values): a
	// failure's text reaches the agent when a fail_closed guard blocks,
	// and the journal. "" shows URL without its user information only.
	Shown string
}

// Run posts s.Body to s.URL and reads the reply as a hook's output: a 2xx
// reply's body is its stdout (exit 0); any other status is a non-blocking
// error (exit 1, the status on stderr); a connection failure, or a reply
// cut short, is a spawn error, so fail_closed applies; the timeout is a
// timeout, and ctx ending is a cancellation.
func Run(ctx context.Context, s Spec) hookproc.Result {
	res, _, _ := Post(ctx, s)
	return res
}

// maxErrorText bounds a failed post's text: net/http's errors quote what
// the server sent (a malformed header line, whole), and the text reaches
// the agent when a fail_closed guard blocks.
const maxErrorText = 300

// Post is Run, with what the answer said of itself beside its body: its
// status and its Content-Type header as sent ("" when there is none; the
// server's text, not checked or cut), both zero when no whole answer came.
// They are plain values, not a type of this package: what they mean to a
// reply (protocol.HTTPAnswer: not every 2xx body is a hook's reply) is
// protocol's to say, and this package knows no replies.
func Post(ctx context.Context, s Spec) (res hookproc.Result, status int, contentType string) {
	start := time.Now()
	defer func() { res.Elapsed = time.Since(start) }()
	tctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()
	capBytes := s.Cap
	if capBytes <= 0 {
		capBytes = hookproc.DefaultOutputCap
	}
	header := make(map[string]string, len(s.Headers))
	for k, v := range s.Headers {
		header[k] = expandAllowed(v, s.Env, s.AllowedEnvVars)
	}
	shown := s.Shown
	if shown == "" {
		shown = withoutUser(s.URL)
	}
	status, contentType, body, err := post(tctx, s.URL, header, s.Body, capBytes)
	if ue := (*url.Error)(nil); errors.As(err, &ue) {
		// net/http names the URL with only a password redacted.
		ue.URL = shown
	}
	if err != nil {
		switch {
		case ctx.Err() != nil:
			res.Cancelled = true
		case errors.Is(tctx.Err(), context.DeadlineExceeded):
			res.TimedOut = true
		default:
			name := s.Name
			if name == "" {
				name = "http hook"
			}
			res.SpawnError = name + ": " + cutError(err.Error())
		}
		return res, 0, ""
	}
	if len(body) > capBytes {
		body, res.StdoutTruncated = body[:capBytes], true
	}
	res.Exited = true
	if status < 200 || status > 299 {
		res.ExitCode = 1
		res.Stderr = []byte("HTTP " + strconv.Itoa(status) + " from " + shown + firstLineOf(body))
		return res, status, contentType
	}
	res.Stdout = body
	return res, status, contentType
}

// cutError is a failed post's text cut to maxErrorText bytes, never
// inside a character.
func cutError(s string) string {
	if len(s) <= maxErrorText {
		return s
	}
	return textutil.CutBytes(s, maxErrorText) + "…"
}

// maxHeaderBytes bounds a reply's headers: past it the post fails.
const maxHeaderBytes = 64 << 10

// client is made at the first post (not at every start, which most
// never post): net/http's default transport but for its proxy and the
// roots it trusts (tlsroots.System).
var client = sync.OnceValue(func() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = tunnelOnly
	t.TLSClientConfig = &tls.Config{RootCAs: tlsroots.System()}
	// The output cap bounds the body; the headers net/http bounds at 10
	// MiB a reply by default, kept whole before a byte of the body is
	// read (serve posts for every call at once). A policy service's are
	// a few hundred bytes; Node, which Claude Code posts its http hooks
	// with, takes 16 KiB.
	t.MaxResponseHeaderBytes = maxHeaderBytes
	return &http.Client{
		Transport: t,
		// The approval is of one URL: a redirect would send the payload
		// elsewhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
})

// tunnelOnly is net/http's proxy from the environment (HTTPS_PROXY …) for
// an https:// post only. The variables come from the environment, which
// an agent's project settings can set for the hooks it runs: through a
// proxy of a repository's, an http:// post is read and its answer written
// there ("no objection" for a guard). An https:// post through a proxy is
// a tunnel (CONNECT) to the URL's host, which the proxy can refuse (the
// hook then fails, closed for a guard) but neither read nor answer for;
// `hook AGENT` unsets a proxy a repository's file set (internal/cli's
// hookLoaders), so a refusal is the user's own proxy's.
func tunnelOnly(r *http.Request) (*url.URL, error) {
	if r.URL.Scheme != "https" {
		return nil, nil
	}
	return http.ProxyFromEnvironment(r)
}

// post is a POST over net/http that follows no redirect, returning the
// reply's status, its Content-Type and at most limit+1 bytes of its body.
// It returns an error when no whole reply came: none at all, one cut
// short, or ctx ended while it was read.
func post(ctx context.Context, url string, header map[string]string, body []byte, limit int) (status int, contentType string, reply []byte, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, "", nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := client().Do(req)
	if err != nil {
		return 0, "", nil, err
	}
	defer resp.Body.Close()
	reply, err = io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	if err != nil && ctx.Err() == nil {
		// A reply cut short of what its framing announced (the server
		// died as it answered, the connection was reset) is no answer:
		// read as one, an empty 200 would be "no objection" and let a
		// fail_closed guard pass.
		err = fmt.Errorf("the reply was cut short after %d bytes: %w", len(reply), err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), reply, err
}

// withoutUser is u without its user information, for a caller that
// gives no Shown.
func withoutUser(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.User == nil {
		return u
	}
	p.User = nil
	return p.String()
}

func firstLineOf(b []byte) string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	if s == "" {
		return ""
	}
	// Cut between characters: the text is a fail_closed guard's block
	// message, and half a character there is no text.
	return ": " + textutil.CutBytes(s, 200)
}

// expandAllowed replaces $NAME and ${NAME} in s with values from env, for
// names in allowed only; every other variable expands to "".
func expandAllowed(s string, env []string, allowed []string) string {
	return expandHeader(s, func(name string) string {
		if !slices.Contains(allowed, name) {
			return ""
		}
		for i := len(env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(env[i], name+"="); ok {
				return v
			}
		}
		return ""
	})
}

// HeaderVariables calls f with each variable a header value names, in
// order, as a post fills them in: what an approval says is sent.
func HeaderVariables(s string, f func(name string)) {
	expandHeader(s, func(name string) string { f(name); return "" })
}

// expandHeader is s with each $NAME and ${NAME} replaced by value(NAME),
// NAME a letter or _ then letters, digits and _, as Claude Code fills a
// header in ($VAR_NAME, ${VAR_NAME}: the hooks reference names no other
// form). Every other $ is text, kept as written: $$, $1, $* and
// ${NAME:-default} are not a shell's (os.Expand emptied them, so a
// header's "5$$ off" was sent as "5 off"). $$ is no escape: in "a$$B" the
// second $ starts $B.
func expandHeader(s string, value func(name string) string) string {
	return shquote.Expand(s, func(name string) (string, bool) { return value(name), true })
}
