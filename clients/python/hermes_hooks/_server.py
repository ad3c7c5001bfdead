"""Which server to ask, and what to tell it: `hermes-hooks hook`'s rules
(internal/cli/hook.go hookServer and forwardQuery, server/token.go), kept in
step, so that the Hermes plugin and gateway use the server `hook` uses.

The order: the client's own `server` (as hook's --server); else
HERMES_HOOKS_SERVER ("off": none; an address with "://" as it is; anything
else a socket's path); else the user-level serve's socket
($HERMES_HOME/run/hermes-hooks.sock, `serve --user`), else the per-project
default ($HERMES_HOME/hermes-hooks.sock) — the first with a file at its
path, whatever the file is: a stale or foreign one is then refused with a
warning, never passed over for the next. On Windows the two defaults are
token:// endpoint files, as serve's.

A token:// endpoint file (serve's loopback TCP transport) is believed only
when it is this user's and private (_trust.check_endpoint); each request
proves its key and each reply must prove it back, so what listens on a
port that a dead server left cannot answer.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
import re
import secrets
import shutil
import subprocess
import sys
import time
from typing import Any, Dict, Mapping, Optional, Tuple
from urllib.parse import unquote, urlsplit

from ._trust import ServerDown, check_endpoint

_WINDOWS = sys.platform == "win32"
ENDPOINT_MAGIC = "hermes-hooks endpoint 1"
AUTH_HEADER = "Hermes-Hooks-Auth"
PROOF_HEADER = b"hermes-hooks-proof"


def hermes_home() -> str:
    """$HERMES_HOME, else ~/.hermes (internal/hermeshome)."""
    return os.environ.get("HERMES_HOME") or os.path.join(os.path.expanduser("~"), ".hermes")


def user_address() -> str:
    """Where `serve --user` listens by default (server.UserAddr)."""
    if _WINDOWS:
        return "token://" + os.path.join(hermes_home(), "run", "hermes-hooks.endpoint")
    return "unix://" + os.path.join(hermes_home(), "run", "hermes-hooks.sock")


def default_address() -> str:
    """Where a per-project serve listens by default (server.DefaultAddr)."""
    if _WINDOWS:
        return "token://" + os.path.join(hermes_home(), "hermes-hooks.endpoint")
    return "unix://" + os.path.join(hermes_home(), "hermes-hooks.sock")


def _address_path(address: str) -> str:
    return address.split("://", 1)[1]


def choose(server: Any) -> Optional[str]:
    """The server to ask (an address), None for none: hook's hookServer."""
    if server is False or server == "":
        return None
    if server:
        target = str(server)
        return target if "://" in target else "unix://" + os.path.abspath(target)
    env = os.environ.get("HERMES_HOOKS_SERVER", "")
    if env == "off":
        return None
    if "://" in env:
        return env
    if env:
        return "unix://" + os.path.abspath(env)
    for address in (user_address(), default_address()):
        if os.path.lexists(_address_path(address)):  # server.Present: any file
            return address
    return None


def parse_target(target: str) -> Tuple[str, str]:
    """("unix" | "token", path) of an address; ServerDown for any other."""
    scheme, sep, rest = target.partition("://")
    if not sep:
        raise ServerDown(f"unsupported server address {target!r} (use unix:///path or token:///path)")
    if scheme in ("tcp", "http"):
        # Whoever listens on a port is unknown: while the server is down any
        # local user can take it, read every tool call and answer "no
        # objection" (and an address in the environment must not carry the
        # calls off the machine). token:// proves a key instead.
        raise ServerDown("a tcp:// server cannot prove which user runs it (use unix:// or token://)")
    if scheme not in ("unix", "token") or not rest:
        raise ServerDown(f"unsupported server address {target!r} (use unix:///path or token:///path)")
    if scheme == "unix":
        # A URL's path, as server.Forward reads it (unix://host/p is /p).
        return scheme, unquote(urlsplit(target).path)
    return scheme, os.path.abspath(rest)  # server.ParseAddr: not a URL (C:\ on Windows)


class Endpoint:
    """A token:// server: where it listens and the key both sides prove."""

    def __init__(self, path: str) -> None:
        data = check_endpoint(path)
        try:
            text = data.decode("ascii")
        except UnicodeDecodeError:
            text = ""
        lines = text.split("\n")
        if len(lines) != 4 or lines[3] != "" or lines[0] != ENDPOINT_MAGIC:
            raise ServerDown(f"{path}: not a hermes-hooks endpoint file")
        self.addr = lines[1]
        host, sep, port = self.addr.rpartition(":")
        host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
        try:
            loopback = ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = False
        if not sep or not loopback or not port.isdigit() or str(int(port)) != port or not 0 < int(port) < 65536:
            raise ServerDown(f"{path}: endpoint address {self.addr!r} is not a loopback IP and port")
        key = lines[2]
        if len(key) != 64 or any(c not in "0123456789abcdef" for c in key):
            raise ServerDown(f"{path}: endpoint key is not 32 bytes of lowercase hex")
        self.path, self.host, self.port, self.key = path, host, int(port), bytes.fromhex(key)

    def _mac(self, label: str, nonce: str) -> str:
        return hmac.new(self.key, (label + "\x00" + nonce).encode(), hashlib.sha256).hexdigest()

    def auth(self) -> Tuple[str, str]:
        """A fresh nonce and the request's AUTH_HEADER value."""
        nonce = secrets.token_hex(16)
        return nonce, nonce + "." + self._mac("request", nonce)

    def check_reply(self, nonce: str, headers: Mapping[bytes, bytes], status: int) -> None:
        """ServerDown unless the reply proves the key for nonce."""
        want = self._mac("reply", nonce).encode()
        if not hmac.compare_digest(headers.get(PROOF_HEADER, b""), want):
            raise ServerDown(f"not private to you: what answers at {self.addr} (from {self.path}) does not prove "
                             f"it holds the endpoint's key (HTTP {status}): not the server that wrote it")


def workdir(cwd: Optional[str]) -> str:
    """The working directory the one-shot `hermes-hooks dispatch`, started
    in cwd (None: here), has (Go's os.Getwd): $PWD — inherited — when it
    names that directory, else the directory's real path. A user-level
    serve runs the hooks there, as the one-shot does."""
    where = cwd or "."
    if _WINDOWS:
        return os.path.abspath(where)
    pwd = os.environ.get("PWD", "")
    if pwd.startswith("/"):
        try:
            if os.path.samestat(os.stat(pwd), os.stat(where)):
                return pwd
        except OSError:
            pass
    return os.path.realpath(where)


def project_of(fields: Mapping[str, Any], cwd: Optional[str], wd: str) -> str:
    """The one-shot's project directory (protocol.Firing.Bind): the
    payload's cwd when it names a directory, else its working directory."""
    host = fields.get("cwd")
    if isinstance(host, str) and host and os.path.isdir(os.path.join(cwd or ".", host)):
        return host
    return wd


# The versions of the hermes-hooks programs asked, by path and the file's
# identity: one `hermes-hooks version` per program (and per upgrade of it)
# in a host's life, not one per call.
_VERSIONS: Dict[Tuple[Any, ...], str] = {}
_VERSION_TIMEOUT = 10.0


def binary_version(binary: str, deadline: float) -> Optional[str]:
    """The version of the hermes-hooks program the one-shot would run, as
    serve names its own (Hermes-Hooks-Version); "" when it cannot be told
    (which no server's matches); None when there is no such program (the
    server is then the only hermes-hooks there is to ask)."""
    path = shutil.which(binary)
    if path is None:
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    key = (path, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    if key not in _VERSIONS:
        try:
            p = subprocess.run([path, "version"], stdin=subprocess.DEVNULL, capture_output=True,
                               timeout=max(0.001, min(_VERSION_TIMEOUT, deadline - time.monotonic())))
        except (OSError, subprocess.TimeoutExpired):
            return ""
        m = re.match(rb"hermes-hooks (\S+) \(", p.stdout)
        if p.returncode != 0 or not m:
            return ""
        _VERSIONS[key] = m.group(1).decode("utf-8", "replace")
    return _VERSIONS[key]
