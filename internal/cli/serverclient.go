package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/server"
)

// The clients of a running `hermes-hooks serve`: forward (hook.go) posts a
// dispatch to it, ServerGet reads what it reports (doctor --live).

// myUID is this process's user id (a test may pretend to be another).
var myUID = os.Geteuid

// liveTimeout bounds each read of a server's report: its endpoints answer
// from memory (and the allowlist), so a server that takes longer is stuck.
const liveTimeout = 10 * time.Second

// addrClient is an HTTP client for the server at addr and the base URL of
// its requests.
func addrClient(addr server.Addr) (*http.Client, string) {
	if addr.Network != "unix" {
		return &http.Client{}, "http://" + addr.Address
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
		uid, ok, err := server.PeerUID(c)
		if ok && err == nil && uid != myUID() {
			err = fmt.Errorf("%w: the server's process runs as uid %d, not as you (uid %d)", server.ErrUntrusted, uid, myUID())
		}
		if err != nil {
			c.Close()
			return nil, err
		}
		return c, nil
	}}
	return &http.Client{Transport: tr}, "http://hermes-hooks"
}

// ServerGet reads the JSON endpoint path (/v1/hooks, /v1/stats) of the
// server at addr into into; anything but a 200 JSON reply is an error that
// names what answered.
func ServerGet(addr server.Addr, path string, into any) error {
	c, base := addrClient(addr)
	c.Timeout = liveTimeout
	url := base + path
	resp, err := c.Get(url)
	if err != nil {
		return err
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
