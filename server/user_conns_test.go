//go:build unix

package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/consent"
)

// serve --user --max-conns N keeps N connections, as serve does: with a
// cap of 1, a silent connection is closed for a new client at once (it
// reads EOF) rather than left open beside it. The head timeout is an hour
// here, so only the eviction can close it within the hang guard.
func TestUserServeHonoursMaxConns(t *testing.T) {
	root := shortDir(t)
	config := filepath.Join(root, "config.yaml")
	writeAtomic(t, config, "hooks: {}\n", 0o644)
	u, err := NewUser(Options{ConfigPath: config, Store: consent.NewStore(root), MaxConns: 1,
		HeaderTimeout: time.Hour, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, 0)
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(root, "s")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- u.Serve(ctx, ln) }()
	defer func() { cancel(); <-served }()
	os.Chmod(sock, 0o600)

	silent, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	// Served once, so it is surely accepted and counted before the next.
	other, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	other.SetDeadline(time.Now().Add(deadline))
	fmt.Fprintf(other, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(other), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("the new client: %v %v", resp, err)
	}
	resp.Body.Close()
	silent.SetReadDeadline(time.Now().Add(deadline))
	if n, err := silent.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("the silent connection beyond --max-conns 1: read %d bytes, %v; want it closed (EOF)", n, err)
	}
}
