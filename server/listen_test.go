package server

import (
	"errors"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shortDir is a temporary directory with a short path: socket paths are
// limited to about 100 bytes, and t.TempDir's include the test's name.
func shortDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "hhs-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

func TestParseAddr(t *testing.T) {
	wd, _ := os.Getwd()
	for _, c := range []struct {
		spec        string
		allowRemote bool
		want        Addr
		err         string
		notLoopback bool
	}{
		{spec: "unix:///run/x.sock", want: Addr{"unix", "/run/x.sock"}},
		{spec: "unix://rel/x.sock", want: Addr{"unix", filepath.Join(wd, "rel/x.sock")}},
		{spec: "tcp://127.0.0.1:8765", want: Addr{"tcp", "127.0.0.1:8765"}},
		{spec: "tcp://127.0.0.2:0", want: Addr{"tcp", "127.0.0.2:0"}},
		{spec: "tcp://[::1]:0", want: Addr{"tcp", "[::1]:0"}},
		{spec: "tcp://0.0.0.0:8765", notLoopback: true},
		{spec: "tcp://:8765", notLoopback: true},
		{spec: "tcp://[::]:8765", notLoopback: true},
		{spec: "tcp://10.1.2.3:8765", notLoopback: true},
		{spec: "tcp://0.0.0.0:8765", allowRemote: true, want: Addr{"tcp", "0.0.0.0:8765"}},
		{spec: "tcp://:8765", allowRemote: true, want: Addr{"tcp", ":8765"}},
		{spec: "unix://", err: "names no socket path"},
		{spec: "tcp://127.0.0.1", err: "missing port"},
		{spec: "http://127.0.0.1:80", err: "use unix:///path/to/sock or tcp://127.0.0.1:PORT"},
		{spec: "/run/x.sock", err: "use unix:///path/to/sock"},
		{spec: "", err: "use unix:///path/to/sock"},
	} {
		got, err := ParseAddr(c.spec, c.allowRemote)
		switch {
		case c.notLoopback:
			if !errors.Is(err, ErrNotLoopback) {
				t.Errorf("ParseAddr(%q): err %v, want ErrNotLoopback", c.spec, err)
			}
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseAddr(%q): err %v, want %q", c.spec, err, c.err)
			}
		case err != nil:
			t.Errorf("ParseAddr(%q): %v", c.spec, err)
		case got != c.want:
			t.Errorf("ParseAddr(%q) = %+v, want %+v", c.spec, got, c.want)
		}
	}
}

func TestListenUnixSocketIsMode0600(t *testing.T) {
	dir := shortDir(t)
	path := filepath.Join(dir, "s.sock")
	ln, err := Listen(Addr{"unix", path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Type() != fs.ModeSocket || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode %v, want a socket with 0600", fi.Mode())
	}
	if got := ln.Addr().String(); got != path {
		t.Errorf("Addr() = %q, want the public path %q", got, path)
	}
	// The private directory it was created in is gone; the lock beside
	// the socket stays.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 || entries[0].Name() != "s.sock" || entries[1].Name() != "s.sock.lock" {
		t.Errorf("directory holds %v, want only the socket and its lock", entries)
	}
	// It accepts connections.
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
		}
	}()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("socket file left after Close: %v", err)
	}
}

// staleSocket leaves a socket file nobody listens on, as a killed server
// does.
func staleSocket(t *testing.T, path string) {
	t.Helper()
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	l.SetUnlinkOnClose(false)
	l.Close()
	if fi, err := os.Lstat(path); err != nil || fi.Mode().Type() != fs.ModeSocket {
		t.Fatalf("no stale socket: %v", err)
	}
}

func TestListenReplacesStaleSocket(t *testing.T) {
	path := filepath.Join(shortDir(t), "s.sock")
	staleSocket(t, path)
	ln, err := Listen(Addr{"unix", path}, nil)
	if err != nil {
		t.Fatalf("stale socket not replaced: %v", err)
	}
	defer ln.Close()
	if fi, err := os.Lstat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("replaced socket: %v %v", fi, err)
	}
}

func TestListenRefusesLiveSocket(t *testing.T) {
	path := filepath.Join(shortDir(t), "s.sock")
	first, err := Listen(Addr{"unix", path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	before, _ := os.Lstat(path)
	_, err = Listen(Addr{"unix", path}, nil)
	if !errors.Is(err, ErrInUse) {
		t.Fatalf("second Listen: err %v, want ErrInUse", err)
	}
	after, err := os.Lstat(path)
	if err != nil || !os.SameFile(before, after) {
		t.Errorf("the live server's socket was touched: %v", err)
	}
}

func TestListenRefusesNonSocket(t *testing.T) {
	path := filepath.Join(shortDir(t), "s.sock")
	if err := os.WriteFile(path, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Listen(Addr{"unix", path}, nil)
	if err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Fatalf("err %v, want a refusal", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "precious" {
		t.Error("the file was replaced")
	}
}

// A second server cannot start while the first runs, even when the first
// one's socket file was deleted (the lock beside the socket, issue 12 item
// 8); and a server that shuts down after something else put a socket at its
// path must not remove it.
func TestListenCloseKeepsAnotherServersSocket(t *testing.T) {
	path := filepath.Join(shortDir(t), "s.sock")
	ln, err := Listen(Addr{"unix", path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(Addr{"unix", path}, nil); !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), "s.sock.lock") {
		t.Fatalf("second server: %v, want ErrInUse naming the lock", err)
	}
	other, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ln.Close()
	if _, err := os.Lstat(path); err != nil {
		t.Errorf("the other server's socket was removed: %v", err)
	}
}

func TestListenTCPLoopback(t *testing.T) {
	ln, err := Listen(Addr{"tcp", "127.0.0.1:0"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
}

// A lock that cannot be taken for another reason than another server (here
// the lock path is a directory) is reported as what it is, not as "another
// server is listening", which would send the user looking for a server
// that does not exist.
func TestListenLockFailureIsNotInUse(t *testing.T) {
	path := filepath.Join(shortDir(t), "s.sock")
	if err := os.Mkdir(path+".lock", 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := Listen(Addr{"unix", path}, nil)
	if err == nil || errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), "lock "+path+".lock") {
		t.Fatalf("err %v, want a lock error naming the lock file, not ErrInUse", err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a socket was created without the lock: %v", err)
	}
}

// The lock goes with the listener: once a server closes it, the next one
// starts on the same path.
func TestListenLockReleasedOnClose(t *testing.T) {
	path := filepath.Join(shortDir(t), "s.sock")
	for i := 0; i < 2; i++ {
		ln, err := Listen(Addr{"unix", path}, nil)
		if err != nil {
			t.Fatalf("server %d: %v", i+1, err)
		}
		ln.Close()
	}
}

// A connection whose next request the server has begun to read (its
// headers not yet whole, so it still counts as waiting) is not the one a
// full Accept closes: it is in a request already. One that sent nothing
// since it began waiting is.
func TestEvictPassesOverAConnectionBeingRead(t *testing.T) {
	l := limitListener(nil, 2)
	var conns [2]*limitedConn
	var clients [2]net.Conn
	for i := range conns {
		server, client := net.Pipe()
		t.Cleanup(func() { server.Close(); client.Close() })
		conns[i], clients[i] = &limitedConn{Conn: server, release: func() {}}, client
		l.connState(conns[i], http.StateNew)
	}
	reading, silent := conns[0], conns[1] // the oldest is being read
	go func() { _, _ = clients[0].Write([]byte("GET / HT")) }()
	if _, err := reading.Read(make([]byte, 8)); err != nil { // the server reads the first bytes
		t.Fatal(err)
	}
	if !l.evictOldest() {
		t.Fatal("nothing closed: the silent connection should have been")
	}
	if reading.closed.Load() {
		t.Fatal("closed the connection whose request was being read")
	}
	if !silent.closed.Load() {
		t.Fatal("the silent connection is still open")
	}
}
