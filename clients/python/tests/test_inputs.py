"""A server answers only when it would dispatch as the one-shot does.

What decides which hooks run also comes from the caller's environment:
HERMES_ACCEPT_HOOKS (approve every hook of your own config), HERMES_SAFE_MODE
(hooks off) and HERMES_HOOKS_MANAGED_CONFIG (a managed layer of guards).
The one-shot dispatch inherits the client's environment; a live serve has
its own. The client states them (as `hermes-hooks hook` does, query
inputs=1) so that a serve that differs answers 409 and the call is
dispatched one-shot; a serve that does not say it checked them is not
believed. Real serve processes, started with an environment of their own.
"""

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import unittest
import warnings
from unittest import mock

from hermes_hooks import Client, HermesHooksWarning, hermes_plugin

from . import fixture

BLOCK = {"action": "block", "message": "no"}
CALL = dict(tool_name="terminal", args={"command": "rm -rf /"}, task_id="t", reply=BLOCK)
SETTINGS = ("HERMES_ACCEPT_HOOKS", "HERMES_SAFE_MODE", "HERMES_HOOKS_MANAGED_CONFIG")


class ServeEnvironment(unittest.TestCase):
    def setUp(self):
        self.bin = fixture.binary()
        self.tmp = tempfile.mkdtemp(prefix="hermes-hooks-inputs-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.home = os.path.join(self.tmp, "home")
        self.project = os.path.join(self.tmp, "project")
        os.makedirs(self.home, 0o700)
        os.makedirs(self.project)
        # A guard nobody approved: it runs only where hooks are accepted.
        with open(os.path.join(self.home, "config.yaml"), "w") as f:
            f.write(f"hooks:\n  pre_tool_call:\n    - command: {os.path.join(fixture.HOOKS, 'reply.sh')}\n")
        self.sock = os.path.join(self.home, "hermes-hooks.sock")
        env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
        env["HERMES_HOME"] = self.home
        self.serve = subprocess.Popen([self.bin, "serve", "--listen", "unix://" + self.sock], cwd=self.project, env=env,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(self._stop)
        deadline = time.monotonic() + 60  # a hang guard: it listens in milliseconds
        while True:
            s = socket.socket(socket.AF_UNIX)
            try:
                s.connect(self.sock)
                break
            except OSError:
                if self.serve.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError("hermes-hooks serve did not listen")
                time.sleep(0.02)
            finally:
                s.close()
        p = mock.patch.dict(os.environ, {"HERMES_HOME": self.home})
        p.start()
        self.addCleanup(p.stop)
        for k in SETTINGS:
            os.environ.pop(k, None)

    def _stop(self):
        self.serve.terminate()
        self.serve.wait(30)

    def oneshot(self):
        p = subprocess.run([self.bin, "dispatch", "pre_tool_call", "--format", "hermes"], input=json.dumps(CALL),
                           capture_output=True, text=True, cwd=self.project, timeout=60)
        return json.loads(p.stdout)

    def test_same_environment_is_served(self):
        out = Client(cwd=self.project).dispatch("pre_tool_call", dict(CALL, session_id="same"))
        self.assertEqual(out.via, "server")
        self.assertEqual(out.decision, "none")  # unapproved: skipped, here and one-shot alike

    def test_accepting_caller_is_not_served_by_a_serve_that_does_not_accept(self):
        # The accepting process approves the guard as it runs it (the
        # serve then runs it too): the plugin asks first.
        os.environ["HERMES_ACCEPT_HOOKS"] = "1"
        client = Client(cwd=self.project)
        with self.assertWarnsRegex(HermesHooksWarning, "HTTP 409"):
            self.assertEqual(hermes_plugin.make_callback("pre_tool_call", client)(**CALL), BLOCK)
        self.assertEqual(self.oneshot(), BLOCK, "the one-shot runs the accepted guard")

    def test_managed_layer_of_the_caller(self):
        # Only root can make a managed config the binary accepts (owned by
        # root, writable by nobody else); the caller naming one is enough
        # for the serve to differ.
        managed = os.path.join(self.tmp, "managed.yaml")
        with open(managed, "w") as f:
            f.write("hooks: {}\n")
        os.environ["HERMES_HOOKS_MANAGED_CONFIG"] = managed
        with self.assertWarnsRegex(HermesHooksWarning, "HTTP 409"):
            out = Client(cwd=self.project).dispatch("pre_tool_call", dict(CALL, session_id="managed"))
        self.assertEqual(out.via, "oneshot")

    def test_home_of_the_caller(self):
        # "~/" in the config and a Claude if rule's "~/" follow the home.
        other = os.path.join(self.tmp, "otherhome")
        os.makedirs(other)
        with mock.patch.dict(os.environ, {"HOME": other}):
            with self.assertWarnsRegex(HermesHooksWarning, "HTTP 409.*home directory"):
                out = Client(cwd=self.project).dispatch("pre_tool_call", dict(CALL, session_id="home"))
        self.assertEqual(out.via, "oneshot")

    def test_hermes_home_of_the_caller(self):
        # Sent to this serve with its config, but the approvals are those
        # of the caller's HERMES_HOME.
        other = os.path.join(self.tmp, "otherhermes")
        os.makedirs(other, 0o700)
        os.environ["HERMES_HOME"] = other
        client = Client(server=self.sock, cwd=self.project, config=os.path.join(self.home, "config.yaml"))
        with self.assertWarnsRegex(HermesHooksWarning, "HTTP 409.*HERMES_HOME"):
            out = client.dispatch("pre_tool_call", dict(CALL, session_id="hermes-home"))
        self.assertEqual(out.via, "oneshot")

    def test_safe_mode_of_the_caller(self):
        os.environ["HERMES_SAFE_MODE"] = "yes"
        with self.assertWarnsRegex(HermesHooksWarning, "HTTP 409"):
            out = Client(cwd=self.project).dispatch("pre_tool_call", dict(CALL, session_id="safe"))
        self.assertEqual(out.via, "oneshot")


# A guard the user saves while serve runs: a rule, so no approval is asked.
GUARD = """hooks:
  pre_tool_call:
    - matcher: terminal
      rule: 'args.command matches "rm\\\\s+-rf"'
      decision: block
      message: no rm -rf
      fail_closed: true
"""


class ServeConfigOnDisk(unittest.TestCase):
    """A serve answers only from the config the one-shot would read now:
    one that has not loaded the config on disk yet, or whose last reload
    failed, answers 409, and the call is dispatched one-shot."""

    setUp = ServeEnvironment.setUp
    _stop = ServeEnvironment._stop

    def config(self, text):
        with open(os.path.join(self.home, "config.yaml"), "w") as f:
            f.write(text)

    def healthz(self):
        s = socket.socket(socket.AF_UNIX)
        try:
            s.settimeout(30)
            s.connect(self.sock)
            s.sendall(b"GET /healthz HTTP/1.0\r\nHost: hermes-hooks\r\n\r\n")
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        finally:
            s.close()
        return json.loads(data.split(b"\r\n\r\n", 1)[1])

    def test_config_held_open_for_writing(self):
        # Open for writing by another process (here, this one): serve
        # waits for the writer (Linux) for as long as it holds the file,
        # and the one-shot reads no such file either: it refuses the call.
        held = open(os.path.join(self.home, "config.yaml"), "a")
        self.addCleanup(held.close)
        self.config(GUARD)
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            out = Client(cwd=self.project).dispatch("pre_tool_call", dict(CALL, session_id="held"))
        self.assertEqual(out.decision, "block", (out.via, out.message, [str(w.message) for w in seen]))
        if out.via == "server":
            self.assertEqual(out.message, "no rm -rf")
            self.assertGreater(self.healthz()["generation"], 1, "served by the config before the guard")
        else:
            self.assertIn("stays open for writing", out.message)
            self.assertTrue(any("HTTP 409" in str(w.message) for w in seen), [str(w.message) for w in seen])

    def test_broken_config(self):
        self.config(GUARD + "      decision: allow\n")
        deadline = time.monotonic() + 60  # a hang guard
        while "reload_error" not in self.healthz():
            self.assertLess(time.monotonic(), deadline, "serve never reported the broken config")
            time.sleep(0.02)
        with self.assertWarnsRegex(HermesHooksWarning, "HTTP 409"):
            out = Client(cwd=self.project).dispatch("pre_tool_call", dict(CALL, session_id="broken"))
        self.assertEqual(out.via, "oneshot")
        self.assertEqual(out.decision, "block")
        self.assertIn("refuses tool calls until", out.message)


if __name__ == "__main__":
    unittest.main()
