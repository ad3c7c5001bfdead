package server

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// The token transport (token:///path/to/endpoint), serve's default on
// Windows, where Unix sockets cannot be counted on (Wine has none; a
// socket file's mode is no access control there): serve listens on a
// random loopback TCP port and publishes that port with a fresh random
// key in an endpoint file only its user can read (0600, and on Windows an
// access list naming that user alone). Any local process can reach the
// port, so every request must prove it holds the key, and every reply
// must prove the same to the client:
//
//   - the client sends a fresh nonce N (16 random bytes, lowercase hex)
//     and HMAC-SHA256(key, "request" N) (AuthHeader); the server checks it
//     in constant time and answers 401 to anything else, before a byte of
//     the request is read or a hook runs; a proof is good once (seenNonces:
//     a process that could watch the loopback interface and capture one
//     cannot replay it, as it was or on another request);
//   - the server answers with HMAC-SHA256(key, "reply" N) (ProofHeader),
//     which the client checks before it believes a reply: a process that
//     took the port of a server that died (its endpoint file left behind)
//     gets no key from the client and cannot forge the proof, so it
//     cannot answer "allow" for the user's tool calls.
//
// The key itself never crosses the connection. A lock beside the file
// (PATH.lock, as beside a socket) makes one server per endpoint file; a
// file found while we hold the lock is a dead server's and is replaced.

// AuthHeader and ProofHeader carry the token transport's proofs.
const (
	AuthHeader  = "Hermes-Hooks-Auth"
	ProofHeader = "Hermes-Hooks-Proof"
)

// endpointMagic starts an endpoint file.
const endpointMagic = "hermes-hooks endpoint 1"

// keyBytes is the size of an endpoint's key.
const keyBytes = 32

// onWindows selects the defaults' transport (a variable so that the
// Windows defaults are tested everywhere).
var onWindows = runtime.GOOS == "windows"

// UserAddr is where a user-level server listens by default, and where
// `hook` and `doctor --live` look for one first: the Unix socket
// UserSocket(home); on Windows an endpoint file beside where it would be.
func UserAddr(home string) Addr {
	if onWindows {
		return Addr{Network: "token", Address: filepath.Join(home, "run", "hermes-hooks.endpoint")}
	}
	return Addr{Network: "unix", Address: UserSocket(home)}
}

// DefaultAddr is where a per-project server listens by default, and where
// `hook` and `doctor --live` look for one after UserAddr.
func DefaultAddr(home string) Addr {
	if onWindows {
		return Addr{Network: "token", Address: filepath.Join(home, "hermes-hooks.endpoint")}
	}
	return Addr{Network: "unix", Address: filepath.Join(home, "hermes-hooks.sock")}
}

// Present reports whether a server's socket or endpoint file is at a (a
// TCP address always may be): how `hook` and `doctor --live` tell there is
// a default server to ask at all, connecting to nothing.
func Present(a Addr) bool {
	if a.Network == "tcp" {
		return true
	}
	_, err := os.Lstat(a.Address)
	return err == nil
}

// endpoint is what an endpoint file says: where the server listens and
// the key both sides prove they hold.
type endpoint struct {
	addr string // 127.0.0.1:PORT or [::1]:PORT
	key  []byte
}

func (e endpoint) encode() []byte {
	return []byte(endpointMagic + "\n" + e.addr + "\n" + hex.EncodeToString(e.key) + "\n")
}

// parseEndpoint reads an endpoint file. Anything but the exact form serve
// writes is refused: the address must be a loopback IP and port (a file
// that sends the client's proofs elsewhere is not one of ours), the key
// keyBytes of lowercase hex.
func parseEndpoint(data []byte) (endpoint, error) {
	lines := strings.Split(string(data), "\n")
	if len(lines) != 4 || lines[3] != "" || lines[0] != endpointMagic {
		return endpoint{}, errors.New("not a hermes-hooks endpoint file")
	}
	host, port, err := net.SplitHostPort(lines[1])
	n, perr := strconv.Atoi(port)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() || perr != nil || n < 1 || n > 65535 || strconv.Itoa(n) != port {
		return endpoint{}, fmt.Errorf("endpoint address %q is not a loopback IP and port", lines[1])
	}
	key, err := hex.DecodeString(lines[2])
	if err != nil || len(key) != keyBytes || hex.EncodeToString(key) != lines[2] {
		return endpoint{}, fmt.Errorf("endpoint key is not %d bytes of lowercase hex", keyBytes)
	}
	return endpoint{addr: lines[1], key: key}, nil
}

// mac is HMAC-SHA256(key, label NUL nonce), hex.
func mac(key []byte, label, nonce string) string {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(label + "\x00" + nonce))
	return hex.EncodeToString(h.Sum(nil))
}

// listenToken listens on a random loopback port and publishes it at path.
func listenToken(path string, log *slog.Logger) (ln net.Listener, err error) {
	lock, lockPath, err := lockEndpoint(path)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			unlockRemove(lock, lockPath)
		}
	}()
	if fi, err := os.Lstat(path); err == nil {
		// We hold the lock: whoever wrote this file no longer serves it.
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("listen %s: the path exists and is not an endpoint file; refusing to replace it", path)
		}
		log.Info("replaced a stale endpoint file", "path", path)
	}
	tl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen %s: %w", path, err)
	}
	e := endpoint{addr: tl.Addr().String(), key: make([]byte, keyBytes)}
	rand.Read(e.key)
	// The temporary file is made private before the key is written to it.
	private := func(dir, pattern string) (*os.File, error) {
		f, err := os.CreateTemp(dir, pattern)
		if err == nil {
			if err = restrictToUser(f.Name()); err != nil {
				f.Close()
				os.Remove(f.Name())
			}
		}
		return f, err
	}
	if err := fsutil.WriteAtomic(path, e.encode(), 0o600, ".hermes-hooks-endpoint-*", private); err != nil {
		tl.Close()
		return nil, fmt.Errorf("listen %s: write the endpoint file: %w", path, err)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		tl.Close()
		return nil, fmt.Errorf("listen %s: %w", path, err)
	}
	return &tokenListener{Listener: tl, path: path, key: e.key, fi: fi, lock: lock, lockPath: lockPath}, nil
}

// tokenListener is a loopback TCP listener published in an endpoint file:
// Close removes the file (if it is still ours) and the lock.
type tokenListener struct {
	net.Listener
	path     string
	key      []byte
	fi       os.FileInfo
	lock     *os.File
	lockPath string
	once     sync.Once
	err      error
}

func (l *tokenListener) Close() error {
	l.once.Do(func() {
		l.err = l.Listener.Close()
		releaseEndpoint(l.path, l.fi, l.lock, l.lockPath)
	})
	return l.err
}

// tokenGuard wraps h, for a server listening on ln, with the token
// transport's checks when ln is one (h unchanged otherwise): a request
// without a valid AuthHeader is answered 401 and nothing else; a valid
// one's reply carries the ProofHeader.
func tokenGuard(ln net.Listener, log *slog.Logger, h http.Handler) http.Handler {
	tl, ok := ln.(*tokenListener)
	if !ok {
		return h
	}
	seen := newSeenNonces(maxSeenNonces)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		nonce, sum, _ := strings.Cut(r.Header.Get(AuthHeader), ".")
		var n [nonceBytes]byte
		if !decodeNonce(nonce, &n) || !hmac.Equal([]byte(sum), []byte(mac(tl.key, "request", nonce))) || !seen.first(n) {
			log.Warn("refused a request without this server's key", "method", echo(r.Method), "path", echo(r.URL.Path), "remote", r.RemoteAddr)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"error":"unauthorized: prove the key of this server's endpoint file"}` + "\n"))
			return
		}
		w.Header().Set(ProofHeader, mac(tl.key, "reply", nonce))
		h.ServeHTTP(w, r)
	})
}

// nonceBytes is the size of a request's nonce (every client sends 16
// random bytes as lowercase hex).
const nonceBytes = 16

// maxSeenNonces is how many of the latest proofs a server remembers (16
// bytes each, about 3 MB with the map's own): a proof is refused while it
// is among them. Only proofs made with the key enter, so nobody without it
// can push a captured one out; a replay would have to wait for 65,536 of
// the user's own requests.
const maxSeenNonces = 1 << 16

// decodeNonce reads a nonce of exactly nonceBytes in lowercase hex into n.
func decodeNonce(s string, n *[nonceBytes]byte) bool {
	if len(s) != 2*nonceBytes {
		return false
	}
	_, err := hex.Decode(n[:], []byte(s))
	return err == nil && hex.EncodeToString(n[:]) == s
}

// seenNonces is the set of the latest proofs' nonces, oldest dropped first.
type seenNonces struct {
	mu   sync.Mutex
	set  map[[nonceBytes]byte]struct{}
	ring [][nonceBytes]byte
	next int
}

func newSeenNonces(n int) *seenNonces {
	return &seenNonces{set: make(map[[nonceBytes]byte]struct{}), ring: make([][nonceBytes]byte, 0, n)}
}

// first records n and reports whether it was not among the latest.
func (s *seenNonces) first(n [nonceBytes]byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.set[n]; ok {
		return false
	}
	if len(s.ring) < cap(s.ring) {
		s.ring = append(s.ring, n)
	} else {
		delete(s.set, s.ring[s.next])
		s.ring[s.next] = n
		s.next = (s.next + 1) % len(s.ring)
	}
	s.set[n] = struct{}{}
	return true
}

// tokenClient reads the endpoint file at path, once its trust is checked,
// and is a transport that proves the key on every request and believes
// only replies that prove it back; base is the server's URL.
func tokenClient(path string) (http.RoundTripper, string, error) {
	if err := trustedEndpoint(path); err != nil {
		return nil, "", err
	}
	data, err := fsutil.ReadRegular(path, "", 4096)
	if err != nil {
		return nil, "", err
	}
	e, err := parseEndpoint(data)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	return &proving{base: http.DefaultTransport.(*http.Transport).Clone(), e: e, path: path}, "http://" + e.addr, nil
}

type proving struct {
	base http.RoundTripper
	e    endpoint
	path string
}

func (p *proving) RoundTrip(req *http.Request) (*http.Response, error) {
	var n [16]byte
	rand.Read(n[:])
	nonce := hex.EncodeToString(n[:])
	req = req.Clone(req.Context())
	req.Header.Set(AuthHeader, nonce+"."+mac(p.e.key, "request", nonce))
	resp, err := p.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if !hmac.Equal([]byte(resp.Header.Get(ProofHeader)), []byte(mac(p.e.key, "reply", nonce))) {
		resp.Body.Close()
		return nil, fmt.Errorf("%w: what answers at %s (from %s) does not prove it holds the endpoint's key (HTTP %d): not the server that wrote it",
			ErrUntrusted, p.e.addr, p.path, resp.StatusCode)
	}
	return resp, nil
}

// trustedEndpoint says why the endpoint file at path must not be
// believed (nil when it may): as a socket elsewhere, it must be a regular
// file of this user's that nobody else can read or replace (checked where
// the platform's file modes say so; on Windows the file's access list,
// set by listenToken, is what keeps others out).
func trustedEndpoint(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%w: %s is not an endpoint file", ErrUntrusted, path)
	}
	if !unixModes {
		return nil
	}
	if why := ownedByMe(path, "the endpoint file", fi); why != "" {
		return fmt.Errorf("%w: %s", ErrUntrusted, why)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%w: the endpoint file %s has mode %04o, open to other users", ErrUntrusted, path, perm)
	}
	dir := filepath.Dir(path)
	di, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if why := ownedByMe(dir, "the endpoint file's directory", di); why != "" {
		return fmt.Errorf("%w: %s", ErrUntrusted, why)
	}
	if perm := di.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Errorf("%w: the endpoint file's directory %s has mode %04o: others can write it", ErrUntrusted, dir, perm)
	}
	return nil
}
