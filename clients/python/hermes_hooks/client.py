"""Client: fire a hook event through hermes-hooks and get its outcome.

It asks a live `hermes-hooks serve` when there is one — the one
`hermes-hooks hook` would ask, found in the same order (see _server: the
`server` given, else HERMES_HOOKS_SERVER, else the user-level serve's
socket $HERMES_HOME/run/hermes-hooks.sock, else the per-project
$HERMES_HOME/hermes-hooks.sock, when a file is there) — and runs the
one-shot `hermes-hooks dispatch EVENT` otherwise. A server that is not
there (connection refused, stale socket file), that would dispatch
otherwise (HTTP 409: another project, config or environment), or that is
not provably this user's (see _trust: the socket's owner and mode, its
directory's, the listening process's user; a token:// endpoint file's
owner and mode, and the key proved both ways; a tcp:// address is never
asked) is passed over with a warning and the event is dispatched one-shot
instead — the answer is the same either way, as for `hermes-hooks hook`.

One deadline covers the whole call: the host is never blocked past
`timeout` seconds. At the deadline a server request is abandoned (the
server then kills the hooks it started) and a one-shot process gets SIGTERM
(it kills its hooks' process groups and exits; SIGKILL follows after a
grace period, in the background).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
from typing import Any, Dict, Mapping, Optional, Tuple, Union
from urllib.parse import quote, urlencode

from . import _server
from ._server import hermes_home
from ._trust import ServerDown as _ServerDown, check_peer, check_socket
from .outcome import BadOutcomeError, HermesHooksError, Outcome

__all__ = [
    "Client", "dispatch", "hermes_home", "default_socket", "user_socket",
    "BinaryNotFoundError", "ServerNotAnsweringError", "DispatchError",
    "DispatchTimeoutError", "HermesHooksWarning",
]

log = logging.getLogger("hermes_hooks")
log.addHandler(logging.NullHandler())

DEFAULT_TIMEOUT = 330.0  # above the longest hook timeout (300 s)
_CONNECT_TIMEOUT = 0.5   # a live Unix socket accepts at once
_PROBE_TIMEOUT = 1.0     # a live server answers its health check at once (server.Forward)
_KILL_GRACE = 5.0        # after SIGTERM, before SIGKILL (in the background)
_MAX_REPLY = 64 << 20
# The longest wait the clock calls take (poll(2)'s milliseconds are a C
# int: ~24.8 days); a longer timeout waits this long, as good as forever
# for a hook call, rather than raise OverflowError on every call.
_MAX_TIMEOUT = 2_147_483.0


class BinaryNotFoundError(HermesHooksError):
    """The hermes-hooks program is not on PATH (or not executable)."""


class ServerNotAnsweringError(HermesHooksError):
    """The server took the request but gave no usable answer (dropped the
    connection, or refused it with 503/504): the dispatch did not complete.
    Never read this as "no objection"."""


class DispatchError(HermesHooksError):
    """hermes-hooks refused the call: unknown event, fields that are not a
    JSON object, or a config it cannot read (one-shot exit 2 or 1, HTTP
    4xx)."""


class DispatchTimeoutError(HermesHooksError, TimeoutError):
    """No outcome within the client's timeout."""


class HermesHooksWarning(UserWarning):
    """A live server was expected and not used (the call still succeeded)."""


def default_socket() -> str:
    """Where `hermes-hooks serve` listens by default."""
    return os.path.join(hermes_home(), "hermes-hooks.sock")


def user_socket() -> str:
    """Where `hermes-hooks serve --user` listens by default."""
    return os.path.join(hermes_home(), "run", "hermes-hooks.sock")


class Client:
    """A hermes-hooks client.

    server: "unix:///path/to.sock" (or the socket's path), or
      "token:///path/to.endpoint"; None (the default) finds the server as
      `hermes-hooks hook` does: HERMES_HOOKS_SERVER ("off": none), else
      the user-level serve ($HERMES_HOME/run/hermes-hooks.sock), else
      $HERMES_HOME/hermes-hooks.sock, when a file is there; False never
      uses a server. Any other address (tcp://, http://) is not asked: the
      call is dispatched one-shot, with a warning.
    binary: the hermes-hooks program for one-shot dispatches.
    timeout: seconds for one whole call (server attempt and fallback).
    config: a config file other than $HERMES_HOME/config.yaml (--config).
    cwd: the host's working directory (hooks run there, and its project
      hooks apply); default: this process's.
    """

    def __init__(self, server: Union[str, None, bool] = None, binary: str = "hermes-hooks",
                 timeout: float = DEFAULT_TIMEOUT, config: Optional[str] = None,
                 cwd: Optional[str] = None) -> None:
        if server is True:
            raise ValueError("server: an address, None (default socket) or False (never)")
        if not timeout > 0:  # NaN too
            raise ValueError("timeout must be positive")
        self.server = server
        self.binary = binary
        self.timeout = min(float(timeout), _MAX_TIMEOUT)
        self.config = config
        self.cwd = cwd

    def dispatch(self, event: str, fields: Optional[Mapping[str, Any]] = None) -> Outcome:
        """Fire event with the host's fields and return the outcome."""
        body, via = self._call(event, fields, hermes=False)
        return Outcome.from_dict(_decode(body), via=via)

    def dispatch_hermes(self, event: str, fields: Optional[Mapping[str, Any]] = None,
                        timeout: Optional[float] = None) -> Dict[str, Any]:
        """Fire event and return Hermes' directive for it, as hermes-hooks
        renders it (`?format=hermes`, `dispatch --format hermes`):
        {"action": "block", "message": …}, {"action": "modify", "args": …},
        {"action": "approve", …}, {"action": "continue", "message": …},
        {"context": …}, {"result": …} or {}. timeout, when given and
        shorter, bounds this call instead of the client's."""
        body, _ = self._call(event, fields, hermes=True, timeout=timeout)
        wire = _decode(body)
        if not isinstance(wire, dict):
            raise BadOutcomeError(f"Hermes directive is {type(wire).__name__}, not a JSON object")
        return wire

    # -- one call: server first, one-shot otherwise --------------------------

    def _call(self, event: str, fields: Optional[Mapping[str, Any]], hermes: bool,
              timeout: Optional[float] = None) -> Tuple[bytes, str]:
        if not isinstance(event, str) or not event:
            raise DispatchError("event must be a non-empty string")
        fields = dict(fields or {})
        # Unserialisable values become their string form, as Hermes does
        # for its own shell hooks; non-ASCII stays raw UTF-8.
        payload = json.dumps(fields, ensure_ascii=False, default=str).encode("utf-8")
        limit = self.timeout if timeout is None or not timeout > 0 else min(self.timeout, float(timeout))
        deadline = time.monotonic() + limit
        target = self._server_target()
        if target is not None:
            try:
                return self._post(target, event, fields, payload, hermes, deadline), "server"
            except _ServerDown as why:
                warnings.warn(f"hermes-hooks server {target}: {why}; dispatching one-shot instead",
                              HermesHooksWarning, stacklevel=3)
        return self._oneshot(event, payload, hermes, deadline, limit), "oneshot"

    def _server_target(self) -> Optional[str]:
        return _server.choose(self.server)

    def _query(self, fields: Mapping[str, Any], hermes: bool) -> Dict[str, str]:
        """What the server needs to dispatch exactly as the one-shot would
        (`hook`'s forwardQuery): a server that would not (another project,
        config or environment) answers 409 and the one-shot answers."""
        wd = _server.workdir(self.cwd)
        # The one-shot resolves a relative --config, and HERMES_HOME,
        # against its own working directory.
        config = self.config or os.path.join(hermes_home(), "config.yaml")
        query = {"project": _server.project_of(fields, self.cwd, wd), "wd": wd,
                 "config": os.path.abspath(os.path.join(self.cwd or "", config))}
        query.update(_inputs())
        if hermes:
            query["format"] = "hermes"
        return query

    def _post(self, target: str, event: str, fields: Mapping[str, Any], payload: bytes,
              hermes: bool, deadline: float) -> bytes:
        kind, path = _server.parse_target(target)
        query = self._query(fields, hermes)
        url = "/v1/dispatch/" + quote(event, safe="") + "?" + urlencode(query)
        head = "POST " + url + " HTTP/1.1\r\nContent-Type: application/json\r\n" + \
            f"Content-Length: {len(payload)}\r\nConnection: close\r\n"
        if kind == "unix":
            check_socket(path)
            sock = _connect_unix(path, deadline)
            try:
                data = _exchange(sock, (head + "Host: hermes-hooks\r\n\r\n").encode("latin-1") + payload,
                                 deadline, target)
            finally:
                sock.close()
            status, headers, body = _parse_http(data, target)
        else:
            ep = _server.Endpoint(path)
            _probe(ep, deadline, target)
            status, headers, body = _token_request(ep, head, payload, deadline, target)
        if status == 200:
            if not headers.get(b"hermes-hooks-inputs"):
                # It ignored the inputs stated: it may dispatch otherwise.
                raise _ServerDown("the server does not check the caller's accept channels, safe mode and managed "
                                  "config (an older hermes-hooks serve?)")
            # One of another version may decide otherwise than the one-shot
            # (a serve left running across an upgrade): as for `hook`.
            mine = _server.binary_version(self.binary, deadline)
            theirs = headers.get(b"hermes-hooks-version", b"").decode("utf-8", "replace")
            if mine is not None and theirs != mine:
                raise _ServerDown(f"the server is hermes-hooks {theirs!r}, the one-shot {self.binary} {mine!r} "
                                  "(restart the server after an upgrade)")
            return body
        detail = _error_text(body)
        if status in (409, 413):
            # Another project, config or environment (or a project a
            # user-level serve refuses); or a body larger than serve takes
            # (8 MiB) that the one-shot takes (64 MiB): the one-shot
            # answers, as for `hook`.
            raise _ServerDown(f"HTTP {status}: {detail}")
        if status in (503, 504) or status >= 500:
            raise ServerNotAnsweringError(f"hermes-hooks server {target}: HTTP {status}: {detail}")
        raise DispatchError(f"hermes-hooks server {target}: HTTP {status}: {detail}")

    def _oneshot(self, event: str, payload: bytes, hermes: bool, deadline: float, limit: float) -> bytes:
        binary = shutil.which(self.binary)
        if binary is None:
            raise BinaryNotFoundError(
                f"hermes-hooks binary {self.binary!r} not found on PATH (install it, or pass binary=/path/to/hermes-hooks)")
        argv = [binary]
        if self.config:
            argv += ["--config", self.config]
        argv += ["dispatch", event]
        if hermes:
            argv += ["--format", "hermes"]
        try:
            proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, cwd=self.cwd)
        except (FileNotFoundError, PermissionError, NotADirectoryError) as e:
            raise BinaryNotFoundError(f"cannot run hermes-hooks {binary!r}: {e}") from None
        remaining = deadline - time.monotonic()
        try:
            out, err = proc.communicate(payload, timeout=max(0.001, remaining))
        except subprocess.TimeoutExpired:
            _stop_in_background(proc)
            raise DispatchTimeoutError(
                f"hermes-hooks dispatch {event}: no outcome within {limit:g}s (its hooks are being stopped)") from None
        stderr = err.decode("utf-8", "replace").strip()
        if proc.returncode != 0:
            raise DispatchError(f"hermes-hooks dispatch {event}: exit {proc.returncode}: {stderr}")
        if stderr:
            # Warnings of the dispatch (an unapproved hook skipped, …).
            for line in stderr.splitlines():
                log.warning("%s", line)
        return out


def _connect_unix(path: str, deadline: float) -> socket.socket:
    """A connection to the socket at path, whose listening process is this
    user's (ServerDown otherwise, or when nothing listens)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(max(0.001, min(_CONNECT_TIMEOUT, deadline - time.monotonic())))
        try:
            sock.connect(path)
        except (FileNotFoundError, ConnectionRefusedError) as e:
            raise _ServerDown(e.strerror or str(e)) from None
        except socket.timeout:
            raise _ServerDown("no connection within %.1fs" % _CONNECT_TIMEOUT) from None
        except OSError as e:
            raise _ServerDown(str(e)) from None
        # The process listening must be this user's too: the file checks
        # cannot see who holds the socket, nor a swap between them and the
        # connect.
        check_peer(sock)
    except BaseException:
        sock.close()
        raise
    return sock


def _connect_tcp(ep: "_server.Endpoint", deadline: float) -> socket.socket:
    try:
        return socket.create_connection((ep.host, ep.port),
                                        timeout=max(0.001, min(_CONNECT_TIMEOUT, deadline - time.monotonic())))
    except socket.timeout:
        raise _ServerDown("no connection within %.1fs" % _CONNECT_TIMEOUT) from None
    except ConnectionRefusedError:
        raise _ServerDown("not running (connection refused)") from None
    except OSError as e:
        raise _ServerDown(str(e)) from None


def _token_request(ep: "_server.Endpoint", head: str, payload: bytes, deadline: float,
                   target: str) -> Tuple[int, Dict[bytes, bytes], bytes]:
    """One request to a token:// server, with the key proved, and its reply
    once the reply proves the key back."""
    nonce, auth = ep.auth()
    request = (head + f"Host: {ep.addr}\r\n{_server.AUTH_HEADER}: {auth}\r\n\r\n").encode("latin-1") + payload
    sock = _connect_tcp(ep, deadline)
    try:
        data = _exchange(sock, request, deadline, target)
    finally:
        sock.close()
    status, headers, body = _parse_http(data, target)
    ep.check_reply(nonce, headers, status)
    return status, headers, body


def _probe(ep: "_server.Endpoint", deadline: float, target: str) -> None:
    """The health check `hook` makes before it sends a call: what listens
    at a token:// endpoint's port is sent nothing of the call until it
    proved the key (a port a dead server left can be anyone's)."""
    head = "GET /healthz HTTP/1.1\r\nConnection: close\r\n"
    try:
        status, _, _ = _token_request(ep, head, b"", min(deadline, time.monotonic() + _PROBE_TIMEOUT), target)
    except (DispatchTimeoutError, ServerNotAnsweringError) as e:
        raise _ServerDown(f"not ready: {e}") from None
    if status != 200:
        raise _ServerDown(f"not ready: health check: HTTP {status}")


def _exchange(sock: socket.socket, request: bytes, deadline: float, target: str) -> bytes:
    """Send the request and read the whole reply, never past the deadline."""
    def left() -> float:
        t = deadline - time.monotonic()
        if t <= 0:
            raise socket.timeout()
        return t

    chunks = []
    size = 0
    try:
        sock.settimeout(left())
        try:
            sock.sendall(request)
        except (BrokenPipeError, ConnectionResetError):
            # The server answered before reading the whole request (413:
            # a body larger than it takes) and closed: its reply is read.
            pass
        while True:
            sock.settimeout(left())
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                if not chunks:
                    raise
                break  # the reply came, then the close of a request left unread
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > _MAX_REPLY:
                raise ServerNotAnsweringError(f"hermes-hooks server {target}: reply larger than {_MAX_REPLY} bytes")
    except socket.timeout:
        raise DispatchTimeoutError(f"hermes-hooks server {target}: no outcome within the timeout") from None
    except OSError as e:
        raise ServerNotAnsweringError(f"hermes-hooks server {target}: {e}") from None
    return b"".join(chunks)


def _truthy(value: Optional[str]) -> bool:
    """consent.isTruthy: how hermes-hooks reads HERMES_ACCEPT_HOOKS and
    HERMES_SAFE_MODE."""
    return (value or "").strip().lower() in ("1", "true", "yes", "on")


_SYSTEM_MANAGED = ("/Library/Application Support/hermes-hooks/config.yaml" if sys.platform == "darwin"
                   else "/etc/hermes-hooks/config.yaml")


def _inputs() -> Dict[str, str]:
    """What of this process's environment decides which hooks the one-shot
    dispatch runs, as `hermes-hooks hook` states it to a serve (server
    package, inputs.go): a serve whose own differ answers 409, and the
    call is dispatched here. Without it a serve that does not accept hooks
    would skip the guard an accepting caller's one-shot runs (no objection
    where the one-shot blocks), or one without the caller's managed config
    its guards; one of another home or HERMES_HOME the caller's `~/` paths
    and approvals."""
    q = {"inputs": "1"}
    if _truthy(os.environ.get("HERMES_ACCEPT_HOOKS")):
        q["env_accept_hooks"] = "1"
    if _truthy(os.environ.get("HERMES_SAFE_MODE")):
        q["safe_mode"] = "1"
    managed = os.environ.get("HERMES_HOOKS_MANAGED_CONFIG")
    if managed and os.path.abspath(managed) != _SYSTEM_MANAGED:
        q["managed_config"] = os.path.abspath(managed)
    # The home directory as Go reads it (os.UserHomeDir: "~/" in the config,
    # a Claude `if` rule's "~/"), and HERMES_HOME, whose allowlist the
    # one-shot reads approvals from.
    q["home"] = os.environ.get("USERPROFILE" if sys.platform == "win32" else "HOME", "")
    q["hermes_home"] = os.path.abspath(hermes_home())
    return q


def _parse_http(data: bytes, target: str) -> Tuple[int, Dict[bytes, bytes], bytes]:
    head, sep, body = data.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    parts = lines[0].split(b" ", 2) if lines else []
    if not sep or len(parts) < 2 or not parts[0].startswith(b"HTTP/") or not parts[1].isdigit():
        raise ServerNotAnsweringError(f"hermes-hooks server {target}: no HTTP reply (connection closed after {len(data)} bytes)")
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(b":")
        headers[k.strip().lower()] = v.strip()
    if headers.get(b"transfer-encoding", b"").lower() == b"chunked":
        body = _dechunk(body, target)
    elif b"content-length" in headers:
        n = int(headers[b"content-length"])
        if len(body) < n:
            raise ServerNotAnsweringError(f"hermes-hooks server {target}: reply cut short ({len(body)} of {n} bytes)")
        body = body[:n]
    return int(parts[1]), headers, body


def _dechunk(body: bytes, target: str) -> bytes:
    out = []
    while True:
        size_line, sep, rest = body.partition(b"\r\n")
        try:
            n = int(size_line.split(b";")[0], 16)
        except ValueError:
            raise ServerNotAnsweringError(f"hermes-hooks server {target}: bad chunked reply") from None
        if not sep or len(rest) < n:
            raise ServerNotAnsweringError(f"hermes-hooks server {target}: reply cut short")
        if n == 0:
            return b"".join(out)
        out.append(rest[:n])
        body = rest[n + 2:]


def _error_text(body: bytes) -> str:
    try:
        obj = json.loads(body)
        if isinstance(obj, dict) and isinstance(obj.get("error"), str):
            return obj["error"]
    except ValueError:
        pass
    return body.decode("utf-8", "replace").strip()[:200]


def _decode(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError as e:
        text = body.decode("utf-8", "replace").strip()
        raise BadOutcomeError(f"hermes-hooks answered something that is not JSON ({e}): {text[:200]!r}") from None


def _stop_in_background(proc: "subprocess.Popen[bytes]") -> None:
    """SIGTERM now (dispatch then kills its hooks' process groups and
    exits); SIGKILL after a grace period; reap — without making the caller
    wait."""
    try:
        proc.send_signal(signal.SIGTERM)
    except OSError:
        pass

    def reap() -> None:
        try:
            proc.communicate(timeout=_KILL_GRACE)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
        except (OSError, ValueError):
            pass

    threading.Thread(target=reap, name="hermes-hooks-reap", daemon=True).start()


def dispatch(event: str, fields: Optional[Mapping[str, Any]] = None, **client_options: Any) -> Outcome:
    """Client(**client_options).dispatch(event, fields)."""
    return Client(**client_options).dispatch(event, fields)
