"""Whether a server may answer for this user: the Go client's rules
(server/private.go TrustedSocket, server/client.go addrClient, server/token.go
trustedEndpoint), kept in step.

A server answers "no objection" or "block" for every tool call of its
caller, so one that another local user runs must never be asked: it would
read every call and could let all of them through. A Unix socket is asked
only when the socket is this user's (owner = our uid, no group or other
permission) in a directory this user owns that nobody else can write (so
nobody else could have put it there or can swap it), and the process that
listens on it is this user's too (the kernel's record of the peer,
SO_PEERCRED on Linux, LOCAL_PEERCRED on macOS and FreeBSD). A tcp:// or
http:// address proves nothing about who listens (any local user can take
a loopback port while the server is down), so it is never sent a call.

Failing any rule is not an error of the call: the caller dispatches
one-shot instead, with a warning, exactly as `hermes-hooks hook` does.
"""

from __future__ import annotations

import os
import socket
import stat
import struct
import sys


class ServerDown(Exception):
    """The server is not there or is not to be trusted: dispatch one-shot
    instead."""


def _uid() -> int:
    return os.geteuid()


def check_socket(path: str) -> None:
    """Raise ServerDown saying why the socket at path must not be asked."""
    if not hasattr(os, "geteuid"):
        return  # Windows: no Unix file modes to read (as the Go client)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        raise ServerDown("not running (no socket file)") from None
    except OSError as e:
        raise ServerDown(f"socket {path}: {e.strerror or e}") from None
    if not stat.S_ISSOCK(st.st_mode):
        raise ServerDown(f"not private to you: {path} is not a socket")
    _private(path, st, "socket", "socket directory")


def _private(path: str, st: os.stat_result, what: str, where: str) -> None:
    """Raise ServerDown unless the file at path (lstat st) is this user's,
    open to nobody else, in a directory this user owns that nobody else
    can write: the rules a socket and an endpoint file share. what names
    the file in the messages ("socket", "endpoint file"), where its
    directory when that cannot be read."""
    if st.st_uid != _uid():
        raise ServerDown(f"not private to you: the {what} {path} is owned by uid {st.st_uid}, not by you (uid {_uid()})")
    if st.st_mode & 0o077:
        raise ServerDown(f"not private to you: the {what} {path} has mode {stat.S_IMODE(st.st_mode):04o}, open to other users")
    parent = os.path.dirname(path) or "."
    try:
        dt = os.stat(parent)
    except OSError as e:
        raise ServerDown(f"{where} {parent}: {e.strerror or e}") from None
    if dt.st_uid != _uid():
        raise ServerDown(f"not private to you: the {what}'s directory {parent} is owned by uid {dt.st_uid}, "
                         f"not by you (uid {_uid()})")
    if dt.st_mode & 0o022:
        raise ServerDown(f"not private to you: the {what}'s directory {parent} has mode "
                         f"{stat.S_IMODE(dt.st_mode):04o}: others can write it")


def peer_uid(sock: socket.socket) -> "int | None":
    """The uid of the process listening at the other end of the connected
    Unix socket sock, as the kernel recorded it at connect (neither side
    can forge it); None where this platform's is not read (the Go client
    does not read it there either)."""
    if sys.platform.startswith("linux"):
        raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        _pid, uid, _gid = struct.unpack("3i", raw)
        return uid
    if sys.platform == "darwin" or sys.platform.startswith("freebsd"):
        # struct xucred: u_int cr_version (0), uid_t cr_uid, …; SOL_LOCAL
        # is 0 and LOCAL_PEERCRED 1 on both.
        raw = sock.getsockopt(0, 1, 256)
        version, uid = struct.unpack_from("II", raw)
        if version != 0:
            raise OSError(f"LOCAL_PEERCRED: unknown xucred version {version}")
        return uid
    return None


def check_peer(sock: socket.socket) -> None:
    """Raise ServerDown when the process at the other end of sock is not
    this user's, or cannot be told: a socket file can be ours and still be
    listened on by another user's process (made before a chown, or a
    directory swapped between the check and the connect)."""
    if not hasattr(os, "geteuid"):
        return
    try:
        uid = peer_uid(sock)
    except OSError as e:
        raise ServerDown(f"not private to you: the server's user cannot be read ({e})") from None
    if uid is not None and uid != _uid():
        raise ServerDown(f"not private to you: the server's process runs as uid {uid}, not as you (uid {_uid()})")


def check_endpoint(path: str) -> bytes:
    """The contents of the token:// endpoint file at path (at most 4 KiB),
    or ServerDown saying why it must not be believed: as a socket, it must
    be a regular file of this user's that nobody else can read (it holds
    the key) or replace, in a directory nobody else can write (server/
    token.go trustedEndpoint). On Windows the file's access list, which
    serve sets, is what keeps others out: not read here, as in Go."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        raise ServerDown("not running (no endpoint file)") from None
    except OSError as e:
        raise ServerDown(f"endpoint file {path}: {e.strerror or e}") from None
    if not stat.S_ISREG(st.st_mode):
        raise ServerDown(f"not private to you: {path} is not an endpoint file")
    if hasattr(os, "geteuid"):
        _private(path, st, "endpoint file", "endpoint directory")
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise ServerDown(f"endpoint file {path}: {e.strerror or e}") from None
    try:
        # The file read is the one checked: not swapped in between.
        now = os.fstat(fd)
        if not stat.S_ISREG(now.st_mode) or (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):
            raise ServerDown(f"not private to you: {path} changed while it was checked")
        return os.read(fd, 4097)
    finally:
        os.close(fd)
