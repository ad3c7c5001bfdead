"""Issue 27: Hermes' gateway hooks and pre_gateway_dispatch, through the
real binary, as a stand-in gateway (tests/standin.py, Hermes' documented
contract) loads what `hermes-hooks install hermes --gateway` installed.

The scenarios of Hermes' own suites for these hooks, run against the
bridge: tests/gateway/test_hooks.py (a handler registered and called for
its events, sync handlers, command:* matching a concrete command, errors
that do not propagate, a missing context) and
tests/gateway/test_pre_gateway_dispatch.py (internal messages bypass the
hook, the hook fires without a session store, skip short-circuits
dispatch, rewrite keeps the rest of the message)."""

import glob
import json
import os
import shutil
import subprocess
import tempfile
import threading
import unittest
from unittest import mock

from hermes_hooks import hermes_gateway

from . import fixture, standin

HOOKS = fixture.HOOKS
HANG = 120  # seconds: hang guards only, far beyond any expected duration


def script(name: str) -> str:
    return os.path.join(HOOKS, name)


def release(fifo: str) -> None:
    """Let a script waiting on fifo go (if one still is)."""
    try:
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:  # no reader left
        return
    try:
        os.write(fd, b"go\n")
    finally:
        os.close(fd)


class GatewayHome:
    """A HERMES_HOME with the plugin and the gateway hook installed by the
    binary, and a hooks file of its own (HERMES_HOOKS_CONFIG, as the README
    advises: Hermes' own config.yaml keeps no hooks)."""

    def __init__(self) -> None:
        self.bin = fixture.binary()
        self.tmp = tempfile.mkdtemp(prefix="hermes-hooks-gateway-")
        self.home = os.path.join(self.tmp, "home")
        self.out = os.path.join(self.tmp, "out")
        os.makedirs(self.home)
        os.makedirs(self.out)
        rec = lambda name: f"{script('gateway_record.sh')} {self.out} {name}"  # noqa: E731
        lines = ["hooks:"]
        for ev in hermes_gateway.GATEWAY_EVENTS:
            lines += [f'  "{ev}":', f"    - command: {rec(ev.replace(':', '-').replace('*', 'any'))}"]
        lines += ["  command:model:", f"    - command: {rec('command-model')}",
                  "  pre_gateway_dispatch:", f"    - command: {rec('dispatch')}",
                  f"    - command: {script('gateway_policy.sh')}",
                  f"    - command: {script('gateway_late.sh')}"]
        self.config = self._write("hermes-hooks.yaml", lines)
        self.closed = self._write("closed.yaml", [
            "hooks:", "  pre_gateway_dispatch:",
            f"    - command: {script('gateway_policy.sh')}", "      fail_closed: true"])
        for cfg in (self.config, self.closed):
            self.cli("--config", cfg, "approve", "--all")
        self.cli("install", "hermes", "--gateway")

    def _write(self, name, lines):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        return path

    def env(self, config=None):
        return {"HERMES_HOME": self.home, "HERMES_HOOKS_CONFIG": config or self.config,
                "HERMES_HOOKS_SERVER": "off"}

    def cli(self, *args):
        env = dict(os.environ, HERMES_HOME=self.home)
        p = subprocess.run([self.bin, *args], capture_output=True, text=True, env=env, cwd=self.tmp, timeout=HANG)
        if p.returncode != 0:
            raise AssertionError(f"hermes-hooks {' '.join(args)}: exit {p.returncode}: {p.stderr}")
        return p.stdout

    def records(self, name):
        out = []
        for path in sorted(glob.glob(os.path.join(self.out, name + ".*"))):
            with open(path) as f:
                out.append(json.load(f))
        return out

    def clear(self):
        for path in glob.glob(os.path.join(self.out, "*")):
            os.remove(path)

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


class Gateway(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.h = GatewayHome()
        cls.addClassCleanup(cls.h.close)

    def setUp(self):
        self.h.clear()
        patch = mock.patch.dict(os.environ, self.h.env())
        patch.start()
        self.addCleanup(patch.stop)
        self.gw = standin.Gateway(self.h.home)
        self.gw.discover_and_load()

    def drain(self):
        (hook,) = self.gw.loaded_hooks
        self.assertTrue(hook["module"].drain(HANG), "the bridge did not hand its events over")

    def test_installed_hook_loads_for_every_gateway_event(self):
        (hook,) = self.gw.loaded_hooks
        self.assertEqual(hook["name"], "hermes-hooks")
        self.assertEqual(list(hook["events"]), list(hermes_gateway.GATEWAY_EVENTS))
        names = json.loads(self.h.cli("events", "--json"))
        self.assertEqual(sorted(e["name"] for e in names if e["gateway"]), sorted(hermes_gateway.GATEWAY_EVENTS))

    def test_each_event_reaches_its_script_with_its_fields(self):
        contexts = {
            "gateway:startup": {"platforms": ["telegram", "discord"]},
            "session:start": {"platform": "telegram", "user_id": "u1", "session_id": "s1", "session_key": "k1"},
            "session:end": {"platform": "telegram", "user_id": "u1", "session_id": "s1", "session_key": "k1"},
            "session:reset": {"platform": "telegram", "user_id": "u1", "session_id": "s2", "session_key": "k1"},
            "agent:start": {"platform": "telegram", "user_id": "u1", "chat_id": "c1", "thread_id": "",
                            "chat_type": "dm", "session_id": "s2", "message": "hi"},
            "agent:step": {"platform": "telegram", "user_id": "u1", "session_id": "s2", "iteration": 3,
                           "tool_names": ["terminal", "read_file"]},
            "agent:end": {"platform": "telegram", "user_id": "u1", "session_id": "s2", "message": "hi",
                          "response": "hello"},
            "command:model": {"platform": "telegram", "user_id": "u1", "command": "model", "args": "gpt-5"},
        }
        for event, ctx in contexts.items():
            standin.run(self.gw.emit(event, ctx))
        self.drain()
        for event, ctx in contexts.items():
            name = "command-any" if event == "command:model" else event.replace(":", "-")
            with self.subTest(event=event):
                (got,) = self.h.records(name)
                self.assertEqual(got["hook_event_name"], "command:*" if event == "command:model" else event)
                extra = dict(got["extra"])
                if "session_id" in ctx:
                    self.assertEqual(got["session_id"], ctx["session_id"])
                    extra["session_id"] = ctx["session_id"]
                self.assertEqual(extra, ctx)

    def test_command_wildcard_matches_a_concrete_command(self):
        standin.run(self.gw.emit("command:model", {"command": "model", "args": ""}))
        standin.run(self.gw.emit("command:reset", {"command": "reset", "args": ""}))
        self.drain()
        self.assertEqual(sorted(r["extra"]["command"] for r in self.h.records("command-any")), ["model", "reset"])
        self.assertEqual([r["extra"]["command"] for r in self.h.records("command-model")], ["model"])

    def test_a_slow_script_does_not_delay_the_handler(self):
        # The script waits on a FIFO the test writes only once the gateway's
        # call came back: a handler that waited for the script would never
        # return (the join below is a hang guard, not a measurement).
        fifo = os.path.join(self.h.tmp, "hold")
        os.mkfifo(fifo)
        self.addCleanup(os.remove, fifo)
        self.addCleanup(release, fifo)  # a failed test leaves no script waiting
        returned = threading.Event()

        def gateway_turn():
            standin.run(self.gw.emit("agent:step", {"iteration": 1, "tool_names": [], "hold": fifo}))
            returned.set()

        t = threading.Thread(target=gateway_turn, daemon=True)
        t.start()
        t.join(HANG)
        self.assertTrue(returned.is_set(), "the gateway hook waited for a script that waits for the gateway")
        self.assertEqual(self.h.records("agent-step"), [])  # still held
        with open(fifo, "w") as f:
            f.write("go\n")
        self.drain()
        self.assertEqual(len(self.h.records("agent-step")), 1)

    def test_errors_do_not_propagate(self):
        with mock.patch.dict(os.environ, {"HERMES_HOOKS_BIN": "/nonexistent/hermes-hooks"}):
            with self.assertLogs("hermes_hooks.hermes_gateway", "WARNING") as logs:
                standin.run(self.gw.emit("agent:start", {"platform": "telegram"}))
                self.drain()
        self.assertIn("agent:start", logs.output[0])
        self.assertEqual(self.h.records("agent-start"), [])

    def test_missing_context_is_empty(self):
        standin.run(self.gw.emit("agent:start"))
        self.drain()
        (got,) = self.h.records("agent-start")
        self.assertEqual(got["extra"], {})


class GatewayDispatch(unittest.TestCase):
    """pre_gateway_dispatch: the plugin, loaded as Hermes loads it (enabled
    in config.yaml by install), decides from the scripts' replies."""

    @classmethod
    def setUpClass(cls):
        cls.h = GatewayHome()
        cls.addClassCleanup(cls.h.close)

    def gateway(self, config=None, **env):
        self.h.clear()
        patch = mock.patch.dict(os.environ, {**self.h.env(config), **env})
        patch.start()
        self.addCleanup(patch.stop)
        gw = standin.Gateway(self.h.home)
        gw.load_plugins()
        self.assertEqual(len(gw.plugin_hooks["pre_gateway_dispatch"]), 1)
        return gw

    def test_install_enabled_the_plugin(self):
        self.assertIn("hermes-hooks", standin.enabled_plugins(self.h.home))

    def test_skip_rewrite_allow(self):
        gw = self.gateway()
        for text, action, delivered in [
            ("skip: not now", "skip", None),
            ("rewrite /help", "dispatch", "/help"),   # the later skip does not count
            ("allow it", "dispatch", "allow it"),     # nor here
            ("just talk", "dispatch", "just talk"),   # no opinion: normal dispatch
        ]:
            with self.subTest(text=text):
                gw.delivered.clear()
                self.assertEqual(standin.run(gw.handle_message(standin.message(text))), action)
                self.assertEqual([m.text for m in gw.delivered], [] if delivered is None else [delivered])
        # The message's fields, not Hermes' objects, reached the script.
        (got,) = [r["extra"] for r in self.h.records("dispatch") if r["extra"]["text"] == "skip: not now"]
        self.assertEqual(got, {"platform": "telegram", "chat_id": "c-u-owner", "chat_type": "dm", "chat_name": "",
                               "thread_id": "", "user_id": "u-owner", "user_name": "tester", "message_id": "m1",
                               "text": "skip: not now"})

    def test_plugin_answers(self):
        gw = self.gateway()
        (callback,) = gw.plugin_hooks["pre_gateway_dispatch"]
        msg = standin.message
        self.assertEqual(callback(event=msg("skip: x"), gateway=None, session_store=None),
                         {"action": "skip", "reason": "skip: x"})
        self.assertEqual(callback(event=msg("rewrite y"), gateway=None, session_store=None),
                         {"action": "rewrite", "text": "y"})
        self.assertEqual(callback(event=msg("allow"), gateway=None, session_store=None), {"action": "allow"})
        self.assertIsNone(callback(event=msg("hello"), gateway=None, session_store=None))

    def test_rewrite_keeps_the_rest_of_the_message(self):
        gw = self.gateway()
        standin.run(gw.handle_message(standin.message("rewrite short")))
        (m,) = gw.delivered
        self.assertEqual((m.text, m.message_id, m.source.user_id), ("short", "m1", "u-owner"))

    def test_internal_messages_bypass_the_hook(self):
        gw = self.gateway()
        self.assertEqual(standin.run(gw.handle_message(standin.message("skip: x", internal=True))), "dispatch")
        self.assertEqual(self.h.records("dispatch"), [])

    def test_fires_without_a_session_store(self):
        gw = self.gateway()
        del gw.session_store
        self.assertEqual(standin.run(gw.handle_message(standin.message("skip: y"))), "skip")

    def test_a_crashing_hook_falls_back_to_normal_dispatch(self):
        gw = self.gateway()
        self.assertEqual(standin.run(gw.handle_message(standin.message("crash"))), "dispatch")
        self.assertEqual([m.text for m in gw.delivered], ["crash"])

    def test_a_crashing_fail_closed_hook_skips(self):
        gw = self.gateway(self.h.closed)
        (callback,) = gw.plugin_hooks["pre_gateway_dispatch"]
        got = callback(event=standin.message("crash"), gateway=None, session_store=None)
        self.assertEqual(got["action"], "skip")
        self.assertIn("failed closed: exited with status 3 and printed nothing: policy crashed", got["reason"])
        self.assertEqual(standin.run(gw.handle_message(standin.message("crash"))), "skip")
        self.assertEqual(gw.delivered, [])

    # Issue 31 item 5: the plugin never raises into Hermes, which would
    # deliver the message: without hermes-hooks' answer, whether a
    # fail_closed guard (an owner-only gate) holds the gateway cannot be
    # known, so the message is dropped, with the reason logged.
    def test_hermes_hooks_missing_drops_the_message(self):
        gw = self.gateway(HERMES_HOOKS_BIN="/nonexistent/hermes-hooks")
        with self.assertLogs("hermes_hooks.hermes_plugin", "WARNING") as logs:
            self.assertEqual(standin.run(gw.handle_message(standin.message("hello"))), "skip")
        self.assertEqual(gw.delivered, [])
        self.assertIn("BinaryNotFoundError", logs.output[0])

    # A typo in the hooks file: hermes-hooks answers the skip itself, naming
    # the file and the line.
    def test_a_config_that_does_not_load_drops_the_message(self):
        broken = self.h._write("broken.yaml", ["hooks:", "  pre_gateway_dispatch:", "    - command: [unclosed"])
        gw = self.gateway(broken)
        (callback,) = gw.plugin_hooks["pre_gateway_dispatch"]
        got = callback(event=standin.message("hello"), gateway=None, session_store=None)
        self.assertEqual(sorted(got), ["action", "reason"])
        self.assertEqual(got["action"], "skip")
        self.assertIn("hermes-hooks refuses gateway messages until " + broken + " loads (line ", got["reason"])
        self.assertEqual(standin.run(gw.handle_message(standin.message("hello"))), "skip")
        self.assertEqual(gw.delivered, [])


if __name__ == "__main__":
    unittest.main()
