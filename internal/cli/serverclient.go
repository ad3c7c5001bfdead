package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/server"
)

// The clients of a running `hermes-hooks serve`: forward (hook.go) posts a
// dispatch to it, ServerGet reads what it reports (doctor --live).

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
		return (&net.Dialer{}).DialContext(ctx, "unix", path)
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
