package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Addr is a parsed --listen value.
type Addr struct {
	// Network is "unix", "tcp", or "token": loopback TCP on a port
	// published, with a per-user key, in an endpoint file (token.go).
	Network string
	// Address is the socket's absolute path, host:port, or the endpoint
	// file's absolute path.
	Address string
}

func (a Addr) String() string { return a.Network + "://" + a.Address }

// ErrNotLoopback refuses a TCP address that other machines could reach
// (the API has no authentication: whoever can connect can run the user's
// approved hooks).
var ErrNotLoopback = errors.New("not a loopback address")

// ErrInUse is a Unix socket path on which another server is listening.
var ErrInUse = errors.New("another server is listening on this socket")

// ParseAddr parses unix:///path/to/sock (a relative path is taken from the
// working directory), token:///path/to/endpoint (the same) or
// tcp://host:port. With allowRemote false, a TCP
// host must be loopback: an IP literal such as 127.0.0.1 or [::1], or a
// name (localhost) whose every address is loopback; an empty host (all
// interfaces) never is.
func ParseAddr(spec string, allowRemote bool) (Addr, error) {
	switch {
	case strings.HasPrefix(spec, "unix://"), strings.HasPrefix(spec, "token://"):
		network, p, _ := strings.Cut(spec, "://")
		if p == "" {
			return Addr{}, fmt.Errorf("address %q names no %s path", spec, map[string]string{"unix": "socket", "token": "endpoint file"}[network])
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return Addr{}, fmt.Errorf("address %q: %w", spec, err)
		}
		return Addr{Network: network, Address: abs}, nil
	case strings.HasPrefix(spec, "tcp://"):
		hp := strings.TrimPrefix(spec, "tcp://")
		host, _, err := net.SplitHostPort(hp)
		if err != nil {
			return Addr{}, fmt.Errorf("address %q: %w", spec, err)
		}
		a := Addr{Network: "tcp", Address: hp}
		if allowRemote {
			return a, nil
		}
		if !loopback(host) {
			return Addr{}, fmt.Errorf("%w: %s can be reached from other machines and the API has no authentication", ErrNotLoopback, spec)
		}
		return a, nil
	}
	return Addr{}, fmt.Errorf("address %q: use unix:///path/to/sock or tcp://127.0.0.1:PORT", spec)
}

// loopback reports whether every address host stands for is a loopback
// address. A name is resolved: "localhost" is loopback only if the resolver
// says so.
func loopback(host string) bool {
	if host == "" {
		return false
	}
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil || len(addrs) == 0 {
		return false
	}
	for _, a := range addrs {
		if !a.IP.IsLoopback() {
			return false
		}
	}
	return true
}

// Listen opens the listener. A Unix socket is created with mode 0600 and
// published at its path only once it has that mode; a stale socket file
// left by a dead server is replaced, one on which a server still listens
// is not (ErrInUse), and a path that is not a socket is never touched.
// Closing the listener removes the socket file if it is still ours. log
// (nil: discarded) hears about a replaced stale socket.
func Listen(a Addr, log *slog.Logger) (net.Listener, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	switch a.Network {
	case "unix":
		return listenUnix(a.Address, log)
	case "tcp":
		return net.Listen("tcp", a.Address)
	case "token":
		return listenToken(a.Address, log)
	}
	return nil, fmt.Errorf("listen: unknown network %q", a.Network)
}

// listenUnix creates the socket inside a fresh private directory (mode 0700,
// next to the final path, so on the same file system), sets its mode to
// 0600 there, then hard-links it into place and drops the private name.
//
// Why not set the umask around bind(2)? The umask is process-wide: every
// goroutine creating a file meanwhile would get it too, and restoring it is
// racy in the same way. In the private directory nobody else can even
// reach the socket while its mode is still the default, and link(2), unlike
// rename(2), fails instead of replacing a path that appeared in the
// meantime — another server starting at the same moment cannot be
// clobbered.
func listenUnix(path string, log *slog.Logger) (ln net.Listener, err error) {
	lock, lockPath, err := lockEndpoint(path)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			unlockRemove(lock, lockPath)
		}
	}()
	if err := clearStale(path, log); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(filepath.Dir(path), ".hermes-hooks-sock-")
	if err != nil {
		return nil, fmt.Errorf("listen %s: %w", path, err)
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, "s")
	ul, err := net.ListenUnix("unix", &net.UnixAddr{Name: tmp, Net: "unix"})
	if err != nil {
		if len(tmp) >= 104 {
			return nil, fmt.Errorf("listen %s: %w (socket paths are limited to about 100 bytes; pick a shorter path)", path, err)
		}
		return nil, fmt.Errorf("listen %s: %w", path, err)
	}
	// We remove the published path ourselves, and only if it is still ours.
	ul.SetUnlinkOnClose(false)
	if err := os.Chmod(tmp, 0o600); err != nil {
		ul.Close()
		return nil, fmt.Errorf("listen %s: %w", path, err)
	}
	if err := publish(tmp, path, log); err != nil {
		ul.Close()
		return nil, err
	}
	fi, err := os.Lstat(path)
	if err != nil {
		ul.Close()
		return nil, fmt.Errorf("listen %s: %w", path, err)
	}
	return &unixListener{UnixListener: ul, path: path, fi: fi, lock: lock, lockPath: lockPath, log: log}, nil
}

// publish links the socket at tmp to path. When path appeared since
// clearStale looked, it is examined again: stale, it is replaced; live, we
// give up.
func publish(tmp, path string, log *slog.Logger) error {
	for attempt := 0; ; attempt++ {
		err := os.Link(tmp, path)
		if err == nil {
			return nil
		}
		if !errors.Is(err, fs.ErrExist) {
			// A file system without hard links: fall back to a rename,
			// which replaces — so only when nothing is there now.
			if _, serr := os.Lstat(path); errors.Is(serr, fs.ErrNotExist) {
				if rerr := os.Rename(tmp, path); rerr == nil {
					return nil
				}
			}
			return fmt.Errorf("listen %s: %w", path, err)
		}
		if attempt == 2 {
			return fmt.Errorf("listen %s: %w", path, err)
		}
		if err := clearStale(path, log); err != nil {
			return err
		}
	}
}

// clearStale removes a socket file nobody listens on. A live socket, a path
// that is not a socket, or one we cannot probe is an error.
func clearStale(path string, log *slog.Logger) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("listen %s: %w", path, err)
	}
	if fi.Mode().Type() != fs.ModeSocket {
		return fmt.Errorf("listen %s: the path exists and is not a socket; refusing to replace it", path)
	}
	conn, err := net.DialTimeout("unix", path, 2*time.Second)
	switch {
	case err == nil:
		conn.Close()
		return fmt.Errorf("listen %s: %w", path, ErrInUse)
	case errors.Is(err, syscall.ECONNREFUSED):
		// Nobody accepts on it: the file of a server that died.
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("listen %s: remove stale socket: %w", path, err)
		}
		log.Info("replaced a stale socket file", "path", path)
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return nil
	}
	// EAGAIN (a live server with a full backlog), EACCES (someone else's
	// socket): not ours to remove.
	return fmt.Errorf("listen %s: cannot tell whether a server listens on it: %w", path, err)
}

// unixListener is the published socket: its Addr is the public path, and
// Close removes that path, unless another server has put its own socket
// there since (we compare the file's identity).
type unixListener struct {
	*net.UnixListener
	path     string
	fi       os.FileInfo
	lock     *os.File // the flock beside the socket, released on Close
	lockPath string
	log      *slog.Logger
	once     sync.Once
	err      error
}

// Accept returns the next connection made by a process of this server's
// own user. The socket's mode (0600) already keeps others out; the peer's
// credentials are checked too, because a mode can be loosened (a chmod,
// a directory made by someone else) and whoever connects runs the user's
// approved hooks. A connection of another user is closed unanswered.
func (l *unixListener) Accept() (net.Conn, error) {
	for {
		c, err := l.UnixListener.Accept()
		if err != nil {
			return nil, err
		}
		uid, ok, err := PeerUID(c)
		if !ok || (err == nil && uid == os.Geteuid()) {
			return c, nil
		}
		if err != nil {
			l.log.Warn("refused a connection: cannot read its peer's credentials", "err", err)
		} else {
			l.log.Warn("refused a connection from another user", "uid", uid)
		}
		c.Close()
	}
}

func (l *unixListener) Addr() net.Addr { return &net.UnixAddr{Name: l.path, Net: "unix"} }

func (l *unixListener) Close() error {
	l.once.Do(func() {
		l.err = l.UnixListener.Close()
		releaseEndpoint(l.path, l.fi, l.lock, l.lockPath)
	})
	return l.err
}
