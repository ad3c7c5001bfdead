"""hermes_hooks.Client against the real binary and a real server."""

import json
import os
import socket
import stat
import tempfile
import time
import unittest
import warnings

from hermes_hooks import (BadOutcomeError, BinaryNotFoundError, Client, DispatchError,
                          DispatchTimeoutError, HermesHooksWarning, HookReport, Outcome)

from . import fixture
from .cases import CASES, with_session


def _pid_in(path: str) -> "tuple[int, str] | None":
    """The pid (and start time, "" where there is no /proc) a test hook
    wrote to path, None while there is none."""
    try:
        with open(path) as f:
            fields = f.read().split()
    except FileNotFoundError:
        return None
    if not fields:
        return None
    return int(fields[0]), (fields[1] if len(fields) > 1 else "")


class OutcomeRoundTrip(unittest.TestCase):
    def setUp(self):
        self.h = fixture.home()

    def test_every_field_round_trips(self):
        seen, report_seen = set(), set()
        client = Client(server=False, cwd=self.h.project)
        for i, (event, fields) in enumerate(CASES):
            with self.subTest(event=event, case=i):
                f = with_session(fields, f"rt-{i}")
                raw = self.h.oneshot(event, f)
                self.assertEqual(Outcome.from_dict(raw).to_dict(), raw)
                out = client.dispatch(event, with_session(fields, f"rt-client-{i}"))
                self.assertEqual(fixture.strip_timing(out.to_dict()), fixture.strip_timing(raw))
                for name, value in raw.items():
                    if name != "hooks":
                        self.assertEqual(getattr(out, name), value, name)
                seen |= set(raw)
                for h in raw["hooks"]:
                    report_seen |= set(h)
        with open(fixture.SCHEMA) as fh:
            schema = json.load(fh)
        self.assertEqual(seen, set(schema["properties"]), "real outcomes of CASES cover every outcome member")
        for name in ("event", "command", "dialect", "source", "ran", "skipped", "exit_code", "elapsed_ms",
                     "timed_out", "contribution"):
            self.assertIn(name, report_seen)

    def test_schema_members_are_fields(self):
        with open(fixture.SCHEMA) as fh:
            schema = json.load(fh)
        report = schema["$defs"]["report"]["properties"]
        self.assertEqual(set(Outcome._TYPES), set(schema["properties"]))
        self.assertEqual(set(HookReport._TYPES), set(report))
        full_report = {"event": "pre_tool_call", "command": "x.sh", "dialect": "hermes", "matcher": "terminal",
                       "source": "/c.yaml", "ran": True, "skipped": "why", "exit_code": None, "elapsed_ms": 1.5,
                       "timed_out": False, "error": "e", "stdout_truncated": True, "stderr_truncated": False,
                       "note": "n", "foreign_refusal": True, "shadow": False, "would": "block: m", "rejudged": True,
                       "contribution": {"decision": "block", "message": "m"}}
        self.assertEqual(set(full_report), set(report))
        full = {"event": "pre_tool_call", "decision": "block", "message": "m", "rule_key": "k", "args": {"a": 1},
                "context": "c", "stop": True, "stop_reason": "r", "system_message": "s", "result": "t",
                "inject_system": "is", "inject_user": "iu", "metadata": {"m": [1]}, "env": {"FOO": "bar"},
                "hook_specific": {"sessionTitle": "t"}, "terminal_sequence": "\a", "deferred": True, "unapproved": 2, "hooks": [full_report], "future_member": {"x": 1}}
        self.assertEqual(set(full) - {"future_member"}, set(schema["properties"]))
        o = Outcome.from_dict(full)
        self.assertEqual(o.to_dict(), full)
        self.assertTrue(o.blocked)
        self.assertEqual(o.extra, {"future_member": {"x": 1}})

    def test_bad_outcomes(self):
        for bad in ([], {"event": "x"}, {"event": "x", "decision": "maybe", "stop": False, "hooks": []},
                    {"event": "x", "decision": "none", "stop": 0, "hooks": []},
                    {"event": "x", "decision": "none", "stop": False, "hooks": [{"command": "c"}]},
                    {"event": "x", "decision": "none", "stop": False, "hooks": [], "args": []}):
            with self.subTest(bad=bad), self.assertRaises(BadOutcomeError):
                Outcome.from_dict(bad)


class Paths(unittest.TestCase):
    def setUp(self):
        self.h = fixture.home()

    def test_server_and_oneshot_agree(self):
        server, oneshot = Client(cwd=self.h.project), Client(server=False, cwd=self.h.project)
        for i, (event, fields) in enumerate(CASES):
            with self.subTest(event=event, case=i):
                a = server.dispatch(event, with_session(fields, f"srv-{i}"))
                b = oneshot.dispatch(event, with_session(fields, f"one-{i}"))
                self.assertEqual((a.via, b.via), ("server", "oneshot"))
                self.assertEqual(fixture.strip_timing(a.to_dict()), fixture.strip_timing(b.to_dict()))
                wa = server.dispatch_hermes(event, with_session(fields, f"srvw-{i}"))
                wb = oneshot.dispatch_hermes(event, with_session(fields, f"onew-{i}"))
                wc = self.h.oneshot(event, with_session(fields, f"clw-{i}"), "--format", "hermes")
                self.assertEqual(wa, wb)
                self.assertEqual(wa, wc)

    def test_dead_server_falls_back_with_a_warning(self):
        stale = os.path.join(self.h.tmp, "dead.sock")
        s = socket.socket(socket.AF_UNIX)
        s.bind(stale)  # a socket file nobody listens on: connection refused
        s.close()
        self.assertTrue(stat.S_ISSOCK(os.stat(stale).st_mode))
        event, fields = CASES[0]
        want = fixture.strip_timing(self.h.oneshot(event, with_session(fields, "dead-want")))
        for server in ("unix://" + stale, "unix://" + os.path.join(self.h.tmp, "missing.sock")):
            with self.subTest(server=server):
                c = Client(server=server, cwd=self.h.project)
                with self.assertWarnsRegex(HermesHooksWarning, "dispatching one-shot instead"):
                    out = c.dispatch(event, with_session(fields, "dead"))
                self.assertEqual(out.via, "oneshot")
                self.assertEqual(fixture.strip_timing(out.to_dict()), want)

    def test_server_of_another_project_falls_back_with_a_warning(self):
        other = tempfile.mkdtemp(dir=self.h.tmp)
        with self.assertWarnsRegex(HermesHooksWarning, "HTTP 409"):
            out = Client(cwd=other).dispatch("pre_tool_call", {"tool_name": "terminal", "args": {"command": "ls"}})
        self.assertEqual(out.via, "oneshot")

    def test_payload_larger_than_the_server_takes_goes_oneshot(self):
        # serve takes 8 MiB, the one-shot 64: a tool call between the two
        # (a large file written) is checked one-shot, as `hook` does, not
        # refused because a server runs.
        client = Client(cwd=self.h.project)
        fields = {"tool_name": "write_file", "args": {"path": "/x", "content": "a" * (1 << 20)}, "task_id": "t",
                  "reply": {"action": "block", "message": "big"}, "session_id": "big"}
        taken = client.dispatch("pre_tool_call", fields)  # one it takes goes to it
        self.assertEqual((taken.via, taken.decision, taken.message), ("server", "block", "big"))
        fields["args"]["content"] = "a" * (9 << 20)
        with self.assertWarnsRegex(HermesHooksWarning, "HTTP 413"):
            self.assertEqual(client.dispatch_hermes("pre_tool_call", fields), {"action": "block", "message": "big"})

    def test_timeout_is_respected_and_the_hook_is_stopped(self):
        # The hook (an hour's sleep) must have started — written its pid —
        # before the client's timeout fires, and on a loaded machine
        # starting hermes-hooks and the hook can take more than a second.
        # So the timeout doubles until the hook started within it; every
        # attempt must still return at its timeout and stop its hook.
        for name, server in (("oneshot", False), ("server", None)):
            with self.subTest(path=name):
                pidfiles = []
                for timeout in (1, 2, 4, 8, 16, 32):
                    kw = {} if server is None else {"server": server}
                    client = Client(timeout=timeout, cwd=self.h.project, **kw)
                    pidfile = os.path.join(self.h.tmp, f"sleep-{name}-{timeout}.pid")
                    pidfiles.append(pidfile)
                    start = time.monotonic()
                    with self.assertRaises(DispatchTimeoutError):
                        client.dispatch("post_tool_call", {"tool_name": "sleepy_tool", "sleep": 3600, "pidfile": pidfile,
                                                           "session_id": f"t-{name}-{timeout}"})
                    took = time.monotonic() - start
                    self.assertGreaterEqual(took, 0.9 * timeout)
                    # A hang guard: a client that waited for its hook would
                    # take the hour.
                    self.assertLess(took, timeout + 30, "the client returned %.2fs after a %ds timeout" % (took, timeout))
                    if _pid_in(pidfile):
                        break
                else:
                    self.fail("the hook never started within the client's timeout, even 32s")
                # Every hook that started — a late one of an attempt that
                # gave up before it too — is stopped.
                for pid, begun in filter(None, map(_pid_in, pidfiles)):
                    deadline = time.monotonic() + 60
                    while fixture.pid_alive(pid, begun) and time.monotonic() < deadline:
                        time.sleep(0.05)
                    self.assertFalse(fixture.pid_alive(pid, begun),
                                     "the sleeping hook outlived the timeout: " + fixture.describe(pid))

    def test_unserialisable_fields_become_strings(self):
        class Thing:
            def __str__(self):
                return "<thing>"
        out = Client(cwd=self.h.project).dispatch(
            "post_llm_call", {"obj": Thing(), "reply": {"context": "seen"}, "session_id": "obj"})
        self.assertEqual(out.context, "seen")


class Errors(unittest.TestCase):
    def setUp(self):
        self.h = fixture.home()

    def test_binary_not_found(self):
        with self.assertRaisesRegex(BinaryNotFoundError, "not found"):
            Client(server=False, binary="/nonexistent/hermes-hooks").dispatch("pre_tool_call", {})

    def test_bad_outcome(self):
        fake = os.path.join(self.h.tmp, "fake-hermes-hooks")
        with open(fake, "w") as f:
            f.write("#!/bin/sh\ncat >/dev/null\necho 'not json'\n")
        os.chmod(fake, 0o755)
        with self.assertRaisesRegex(BadOutcomeError, "not JSON"):
            Client(server=False, binary=fake).dispatch("pre_tool_call", {})
        with open(fake, "w") as f:
            f.write('#!/bin/sh\ncat >/dev/null\necho \'{"event": "pre_tool_call"}\'\n')
        with self.assertRaisesRegex(BadOutcomeError, "missing 'decision'"):
            Client(server=False, binary=fake).dispatch("pre_tool_call", {})

    def test_unknown_event(self):
        for c in (Client(server=False, cwd=self.h.project), Client(cwd=self.h.project)):
            with self.subTest(server=c.server), self.assertRaisesRegex(DispatchError, "pre_tools_call"):
                with warnings.catch_warnings():
                    warnings.simplefilter("error")
                    c.dispatch("pre_tools_call", {})


if __name__ == "__main__":
    unittest.main()
