"""One test home for the whole run: a HERMES_HOME whose config registers the
test hooks of clients/testdata/hooks on every Hermes event, all approved
(but one), and a live `hermes-hooks serve` on its default socket.

The binary is $HERMES_HOOKS_BIN, else hermes-hooks on PATH (the Go test
clients/clients_test.go builds it and puts it there).
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import unittest
from typing import Any, Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
HOOKS = os.path.join(REPO, "clients", "testdata", "hooks")
SCHEMA = os.path.join(REPO, "protocol", "outcome.schema.json")


def binary() -> str:
    b = os.environ.get("HERMES_HOOKS_BIN") or shutil.which("hermes-hooks")
    if not b:
        raise unittest.SkipTest("hermes-hooks not on PATH and HERMES_HOOKS_BIN unset (go test ./clients/ builds it)")
    return b


def version() -> str:
    """The binary's version, as serve sends it (Hermes-Hooks-Version)."""
    out = subprocess.run([binary(), "version"], capture_output=True, text=True, timeout=60, check=True).stdout
    return out.split()[1]


class Home:
    def __init__(self) -> None:
        self.bin = binary()
        self.tmp = tempfile.mkdtemp(prefix="hermes-hooks-pytest-")
        self.home = os.path.join(self.tmp, "home")
        self.project = os.path.join(self.tmp, "project")
        os.makedirs(self.home)
        os.makedirs(self.project)
        os.environ["HERMES_HOME"] = self.home
        for k in ("HERMES_ACCEPT_HOOKS", "HERMES_SAFE_MODE"):
            os.environ.pop(k, None)
        self.events = self._hermes_events()
        reply = os.path.join(HOOKS, "reply.sh")
        claude = os.path.join(HOOKS, "claude.sh")
        lines = ["hooks:"]
        for ev in self.events:
            lines += [f"  {ev}:", f"    - command: {reply}"]
            if ev == "pre_llm_call":
                lines += [f"    - command: {reply} 2", f"    - command: {reply} 3"]
            if ev == "post_tool_call":
                # Its own timeout is the longest there is: only the
                # client's timeout may be what stops it in the tests.
                lines += [f"    - command: {os.path.join(HOOKS, 'sleep.sh')}", "      matcher: sleepy_tool",
                          "      timeout: 300"]
            if ev in ("on_session_start", "pre_tool_call"):
                lines += [f"    - command: {claude}", "      dialect: claude"]
        self.config = os.path.join(self.home, "config.yaml")
        self._write(lines)
        self.cli("approve", "--all")
        # One entry added after the approval: it is reported as skipped.
        lines.insert(lines.index("  post_llm_call:") + 2, f"    - command: {reply} 9")
        self._write(lines)
        # The project is a repository with a hook nobody approved: the
        # outcome counts it (unapproved) and tells once per session.
        os.makedirs(os.path.join(self.project, ".git"))
        os.makedirs(os.path.join(self.project, ".hermes"))
        with open(os.path.join(self.project, ".hermes", "hooks.yaml"), "w") as f:
            f.write(f"hooks:\n  post_llm_call:\n    - command: {reply} 8\n")
        self.socket = os.path.join(self.home, "hermes-hooks.sock")
        self.server: Optional[subprocess.Popen] = None
        self.start_server()
        atexit.register(self.close)

    def _write(self, lines: List[str]) -> None:
        with open(self.config, "w") as f:
            f.write("\n".join(lines) + "\n")

    def _hermes_events(self) -> List[str]:
        out = self.cli("events", "--json")
        return [e["name"] for e in json.loads(out) if e["hermes"] and not e["shell_unsupported"]]

    def cli(self, *args: str, stdin: str = "") -> str:
        p = subprocess.run([self.bin, *args], input=stdin, capture_output=True, text=True,
                           cwd=self.project, timeout=60)
        if p.returncode != 0:
            raise AssertionError(f"hermes-hooks {' '.join(args)}: exit {p.returncode}: {p.stderr}")
        return p.stdout

    def oneshot(self, event: str, fields: Dict[str, Any], *flags: str) -> Any:
        """The outcome `hermes-hooks dispatch` prints, run directly."""
        return json.loads(self.cli("dispatch", event, *flags, stdin=json.dumps(fields)))

    def start_server(self) -> None:
        self.server = subprocess.Popen([self.bin, "serve", "--listen", "unix://" + self.socket],
                                       cwd=self.project, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60  # a hang guard: it listens in milliseconds
        while time.monotonic() < deadline:
            s = socket.socket(socket.AF_UNIX)
            try:
                s.connect(self.socket)
                return
            except OSError:
                if self.server.poll() is not None:
                    raise AssertionError("hermes-hooks serve exited at start")
                time.sleep(0.02)
            finally:
                s.close()
        raise AssertionError("hermes-hooks serve did not listen within 60s")

    def close(self) -> None:
        if self.server and self.server.poll() is None:
            self.server.terminate()
            try:
                self.server.wait(10)
            except subprocess.TimeoutExpired:
                self.server.kill()
                self.server.wait()
        shutil.rmtree(self.tmp, ignore_errors=True)


_home: Optional[Home] = None


def home() -> Home:
    global _home
    if _home is None:
        _home = Home()
    return _home


def strip_timing(outcome: Dict[str, Any]) -> Dict[str, Any]:
    """The outcome without what differs between two runs of the same hooks."""
    out = dict(outcome)
    out["hooks"] = [{k: v for k, v in h.items() if k != "elapsed_ms"} for h in outcome["hooks"]]
    return out


def pid_alive(pid: int, started: str = "") -> bool:
    """Whether pid is a live process — and, given the start time the
    process read from /proc (started), still the same one: a pid can be
    given to another process soon after its own ended."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(") ", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return False  # reaped between the kill above and this open
    except OSError:
        return True
    if started and fields[19] != started:
        return False
    return fields[0] != "Z"  # a zombie is dead for our purpose


def describe(pid: int) -> str:
    """What pid is now, for a failure message."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError as e:
        return f"pid {pid}: {e}"
    return f"pid {pid}: {cmd!r}, stat {stat!r}"
