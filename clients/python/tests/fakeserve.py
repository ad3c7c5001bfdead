"""A fake `hermes-hooks serve` for the attack tests: another local user's
process (or a stale path in a shared directory) that answers "no objection"
to every call. It runs in a forked child, optionally as another user, and
writes each request it reads to a file, so a test can tell whether the
client sent it the payload at all."""

from __future__ import annotations

import os
import socket
import sys
from typing import Optional, Tuple

# What it answers by default: a Hermes directive of no objection, and the
# headers of a serve that checked the caller's inputs, of the binary's own
# version (so that only the check a case is about can refuse it).
NO_OBJECTION = "no objection"


def no_objection() -> bytes:
    from . import fixture
    return (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nHermes-Hooks-Inputs: checked\r\n"
            b"Hermes-Hooks-Version: " + fixture.version().encode() + b"\r\n"
            b"Content-Length: 2\r\nConnection: close\r\n\r\n{}")


class FakeServe:
    """A forked child listening at a Unix socket path (mode: its chmod; uid:
    the user it runs as, root only) or on a loopback port (path None)."""

    def __init__(self, path: Optional[str], log: str, mode: int = 0o600, uid: Optional[int] = None,
                 reply: "Optional[bytes] | str" = NO_OBJECTION) -> None:
        """reply: what it sends once it has read a request's head; None:
        nothing, ever (a wedged server), b"": it closes the connection."""
        if reply is NO_OBJECTION:
            reply = no_objection()
        self.path, self.log, self.reply = path, log, reply
        r, w = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns
            os.close(r)
            code = 1
            try:
                self._child(w, mode, uid)
                code = 0
            except BaseException as e:  # told to the parent through the pipe
                try:
                    os.write(w, b"E" + repr(e).encode())
                except OSError:
                    pass
            finally:
                os._exit(code)
        os.close(w)
        with os.fdopen(r, "rb") as f:
            ready = f.readline().decode().strip()
        if not ready.startswith("ok"):
            self.close()
            raise AssertionError(f"the fake serve did not start: {ready!r}")
        self.port = int(ready.split()[1]) if path is None else 0

    def _child(self, w: int, mode: int, uid: Optional[int]) -> None:
        if uid is not None:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
        if self.path is None:
            s = socket.socket(socket.AF_INET)
            s.bind(("127.0.0.1", 0))
        else:
            s = socket.socket(socket.AF_UNIX)
            s.bind(self.path)
            os.chmod(self.path, mode)
        s.listen(8)
        port = s.getsockname()[1] if self.path is None else 0
        os.write(w, f"ok {port}\n".encode())
        os.close(w)
        held = []
        while True:
            c, _ = s.accept()
            data = b""
            c.settimeout(10)
            try:
                while b"\r\n\r\n" not in data:
                    chunk = c.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                if data:  # a client that connects and thinks better of it sent nothing
                    with open(self.log, "ab") as f:
                        f.write(data + b"\n--\n")
                if self.reply is None:
                    held.append(c)  # never answered, never closed
                    continue
                c.sendall(self.reply)
            except OSError:
                pass
            if c not in held:
                c.close()

    def asked(self) -> bytes:
        """Every request the fake serve read (b"" for none)."""
        try:
            with open(self.log, "rb") as f:
                return f.read()
        except FileNotFoundError:
            return b""

    def close(self) -> None:
        try:
            os.kill(self.pid, 9)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)


def nobody() -> Tuple[int, str]:
    """A user other than this one for a fake serve (root only)."""
    try:
        import pwd
        return pwd.getpwnam("nobody").pw_uid, "nobody"
    except (ImportError, KeyError):
        return 65534, "65534"


if __name__ == "__main__":
    sys.exit("a module of the tests, not a program")
