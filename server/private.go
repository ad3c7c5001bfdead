package server

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// A user-level server answers for every project of its user, so its
// socket must be reachable by that user alone: the socket (0600) sits in
// a directory the user owns and nobody else may enter (0700). A directory
// someone else made, or one left open, could hold a socket of someone
// else's server (which could answer "allow" to every tool call) or let
// the socket be swapped; serve refuses it, and hook does not trust a
// server found there.

// unixModes: the platform's file modes and owners are Unix ones, which
// the checks below read.
const unixModes = runtime.GOOS != "windows" && runtime.GOOS != "plan9"

// ErrUntrusted is a socket or socket directory that is not private to
// this user.
var ErrUntrusted = errors.New("not private to you")

// PrivateSocketDir makes the directory of a user-level server's socket
// (mode 0700) when it is missing, and refuses one that exists but is not
// a directory of this user's that only they can enter: a symlink, another
// owner, any group or other permission.
func PrivateSocketDir(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("socket directory %s: %w", dir, err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("socket directory %s: %w", dir, err)
	}
	return privateDir(dir, fi)
}

func privateDir(dir string, fi os.FileInfo) error {
	if !unixModes {
		return nil
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%w: the socket directory %s is a symlink", ErrUntrusted, dir)
	case !fi.IsDir():
		return fmt.Errorf("%w: the socket directory %s is not a directory", ErrUntrusted, dir)
	}
	if why := ownedByMe(dir, "the socket directory", fi); why != "" {
		return fmt.Errorf("%w: %s", ErrUntrusted, why)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%w: the socket directory %s has mode %04o; it must be 0700 (chmod 700 %s)", ErrUntrusted, dir, perm, dir)
	}
	return nil
}

// TrustedSocket says why the Unix socket at path must not be trusted to
// answer for this user (nil when it may): it must be a socket owned by
// this user, not open to group or others, in a directory owned by this
// user that group and others cannot write (so nobody else could have put
// it there or can replace it). The connection's peer is checked too
// (PeerUID), by the caller, once connected.
func TrustedSocket(path string) error {
	if !unixModes {
		return nil // Windows: its ACLs are not file modes; not checked
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if fi.Mode().Type() != fs.ModeSocket {
		return fmt.Errorf("%w: %s is not a socket", ErrUntrusted, path)
	}
	if why := ownedByMe(path, "the socket", fi); why != "" {
		return fmt.Errorf("%w: %s", ErrUntrusted, why)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%w: the socket %s has mode %04o, open to other users", ErrUntrusted, path, perm)
	}
	dir := filepath.Dir(path)
	di, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if why := ownedByMe(dir, "the socket's directory", di); why != "" {
		return fmt.Errorf("%w: %s", ErrUntrusted, why)
	}
	if perm := di.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Errorf("%w: the socket's directory %s has mode %04o: others can write it", ErrUntrusted, dir, perm)
	}
	return nil
}

// UserSocket is where a user-level server listens by default, and where
// `hook` looks for one: a directory of its own in HERMES_HOME (home), so
// that it can be private (0700) whatever HERMES_HOME's mode is.
func UserSocket(home string) string { return filepath.Join(home, "run", "hermes-hooks.sock") }
