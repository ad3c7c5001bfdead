package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// The client of a running `hermes-hooks serve`, beside the wire it speaks
// (the query keys and headers of inputs.go): Forward posts a dispatch to it
// (`hook`), Get reads what it reports (`doctor --live`).

// myUID is this process's user id (a test may pretend to be another).
var myUID = os.Geteuid

// liveTimeout bounds each read of a server's report: its endpoints answer
// from memory (and the allowlist), so a server that takes longer is stuck.
const liveTimeout = 10 * time.Second

// Bounds of a forward. A live server answers its health check at once: one
// that does not (stopped, wedged, overloaded) is not used, and the caller
// dispatches by itself. The forward itself may take as long as the longest
// hook may run (the server's own request bound), never longer: past it, the
// dispatch runs in the caller.
const (
	probeTimeout   = time.Second
	forwardTimeout = (hookconfig.MaxClaudeTimeoutSeconds + 15) * time.Second
)

// maxReply bounds the body of a server's reply.
const maxReply = 64 << 20

// addrClient is an HTTP client for the server at addr and the base URL of
// its requests.
func addrClient(addr Addr) (*http.Client, string, error) {
	if addr.Network == "token" {
		tr, base, err := tokenClient(addr.Address)
		if err != nil {
			return nil, "", err
		}
		return &http.Client{Transport: tr}, base, nil
	}
	if addr.Network != "unix" {
		return &http.Client{}, "http://" + addr.Address, nil
	}
	path := addr.Address
	tr := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, "unix", path)
		if err != nil {
			return nil, err
		}
		// The process listening must be of this user: a socket file can
		// be owned by us and still be listened on by another user's
		// process (it was made before a chown, or a directory swap).
		uid, ok, err := PeerUID(c)
		if ok && err == nil && uid != myUID() {
			err = fmt.Errorf("%w: the server's process runs as uid %d, not as you (uid %d)", ErrUntrusted, uid, myUID())
		}
		if err != nil {
			c.Close()
			return nil, err
		}
		return c, nil
	}}
	return &http.Client{Transport: tr}, "http://hermes-hooks", nil
}

// Get reads the JSON endpoint path (/v1/hooks, /v1/stats) of the server
// at addr into into; anything but a 200 JSON reply is an error that names
// what answered.
func Get(addr Addr, path string, into any) error {
	c, base, err := addrClient(addr)
	if err != nil {
		return err
	}
	c.Timeout = liveTimeout
	url := base + path
	resp, err := c.Get(url)
	if err != nil {
		return unreachable(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxReply))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: HTTP %d: %s (an older hermes-hooks serve?)", strings.TrimPrefix(url, "http://hermes-hooks"),
			resp.StatusCode, strings.TrimSpace(string(data)))
	}
	if err := json.Unmarshal(data, into); err != nil {
		return fmt.Errorf("GET %s: unreadable reply: %w", url, err)
	}
	return nil
}

// unreachable words why no server answered Get, for doctor --live: "no
// socket there", "connection refused", rather than net/http's
// 'Get "http://hermes-hooks/v1/hooks": dial unix PATH: connect: …' (a URL
// the user never typed, and the caller names the address already).
func unreachable(err error) error {
	var ne net.Error
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("no socket there")
	case errors.Is(err, syscall.ECONNREFUSED):
		return errors.New("connection refused")
	case errors.As(err, &ne) && ne.Timeout():
		return fmt.Errorf("no answer within %s", liveTimeout)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var oe *net.OpError
	if errors.As(err, &oe) {
		err = oe.Err
	}
	return err
}

// Forward posts a dispatch of event with fields to a serve at target
// (unix:///path or token:///path; a tcp://HOST:PORT one is refused, as it
// cannot prove who listens) and reads its outcome. The query
// states the caller's inputs: a server that would dispatch otherwise
// refuses (409), one that does not say it checked them (an older serve)
// is not believed, and one of another version than the caller's is not
// either; the caller then dispatches by itself rather than with the wrong
// hooks.
func Forward(parent context.Context, target string, q url.Values, event string, fields map[string]any, version string) (protocol.Outcome, error) {
	var o protocol.Outcome
	if a, err := ParseAddr(target, true); err == nil && a.Network == "token" && !Present(a) {
		return o, errors.New("not running (no endpoint file)")
	}
	client, base, err := targetClient(target)
	if err != nil {
		return o, err
	}
	u, _ := url.Parse(target)
	if u != nil && (u.Scheme == "tcp" || u.Scheme == "http") {
		// Whoever listens on a loopback port is unknown: when the server
		// is not running (or restarting), any local user can take its
		// port, read every forwarded tool call and answer "allow". A
		// Unix socket's owner and peer, or a token endpoint's key, prove
		// it is this user's server; a bare port cannot.
		return o, errors.New("a tcp:// server cannot prove which user runs it (use unix:// or token://)")
	}
	if u != nil && u.Scheme == "unix" {
		// A server answers for this user's tool calls: one whose socket
		// someone else could have made or replaced is not asked at all
		// (the connection checks the server's user too, see addrClient).
		if err := TrustedSocket(u.Path); errors.Is(err, fs.ErrNotExist) {
			return o, errors.New("not running (no socket file)")
		} else if err != nil {
			return o, err
		}
	}
	ctx, cancel := context.WithTimeout(parent, probeTimeout)
	defer cancel()
	if status, _, _, err := send(ctx, client, http.MethodGet, base+"/healthz", nil); err != nil || status != http.StatusOK {
		switch {
		case err == nil:
			err = fmt.Errorf("health check: HTTP %d", status)
		case errors.Is(err, syscall.ECONNREFUSED):
			return o, errors.New("not running (connection refused)")
		}
		return o, fmt.Errorf("not ready: %w", err)
	}
	ctx, cancel = context.WithTimeout(parent, forwardTimeout)
	defer cancel()
	body := pyjson.Encode(fields, pyjson.Compact)
	status, header, data, err := send(ctx, client, http.MethodPost, base+"/v1/dispatch/"+url.PathEscape(event)+"?"+q.Encode(), body)
	if err != nil {
		return o, err
	}
	if status != http.StatusOK {
		return o, fmt.Errorf("HTTP %d: %s", status, strings.TrimSpace(string(data)))
	}
	if header.Get(InputsHeader) == "" {
		return o, errors.New("the server does not check the caller's hook files, accept channels and safe mode (an older hermes-hooks serve?)")
	}
	if v := header.Get(VersionHeader); v != version {
		return o, fmt.Errorf("the server is hermes-hooks %q, this hook %q (restart the server after an upgrade)", v, version)
	}
	if err := json.Unmarshal(data, &o); err != nil {
		return o, errors.New("unreadable outcome: " + err.Error())
	}
	return o, nil
}

// targetClient is an HTTP client for the server at target (unix:///path,
// token:///path or tcp://HOST:PORT) and the base URL of its requests.
func targetClient(target string) (*http.Client, string, error) {
	if strings.HasPrefix(target, "token://") {
		// Not a URL: on Windows the path is C:\...
		a, err := ParseAddr(target, true)
		if err != nil {
			return nil, "", err
		}
		return addrClient(a)
	}
	u, err := url.Parse(target)
	if err != nil {
		return nil, "", err
	}
	switch u.Scheme {
	case "unix":
		return addrClient(Addr{Network: "unix", Address: u.Path})
	case "tcp", "http":
		return addrClient(Addr{Network: "tcp", Address: u.Host})
	}
	return nil, "", fmt.Errorf("unsupported server address %q (use unix:///path, token:///path or tcp://127.0.0.1:PORT)", target)
}

// send makes one request and reads the whole reply (at most maxReply).
func send(ctx context.Context, c *http.Client, method, url string, body []byte) (status int, header http.Header, data []byte, err error) {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	data, err = io.ReadAll(io.LimitReader(resp.Body, maxReply+1))
	if err == nil && len(data) > maxReply {
		err = fmt.Errorf("reply larger than %d MiB", maxReply>>20)
	}
	return resp.StatusCode, resp.Header, data, err
}
