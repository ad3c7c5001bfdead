"""A serve of this user's that is broken: no answer it gives (or fails to
give) may become "no objection" where a guard stands. Each case is a real
fake serve process (tests/fakeserve.py) that passes every trust check.
What the one-shot would say is the guard's block; the plugin must answer
that (by going one-shot) or refuse the call itself, on pre_tool_call and
pre_gateway_dispatch, and never raise into Hermes."""

import os
import shutil
import tempfile
import unittest
import warnings
from types import SimpleNamespace

from hermes_hooks import Client, HermesHooksWarning, hermes_plugin

from . import fixture
from .fakeserve import FakeServe


def http(status: str, body: bytes, *headers: str) -> bytes:
    head = [f"HTTP/1.1 {status}", "Content-Type: application/json", *headers, f"Content-Length: {len(body)}",
            "Connection: close"]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


INPUTS = "Hermes-Hooks-Inputs: checked"
try:
    # Checked, and of the binary's own version: every case but the version's
    # is about what the reply says.
    CHECKED = INPUTS + "\r\nHermes-Hooks-Version: " + fixture.version()
except unittest.SkipTest:
    CHECKED = INPUTS  # no binary: the tests skip
BLOCK = {"action": "block", "message": "no"}
CALL = dict(tool_name="terminal", args={"command": "rm -rf /"}, task_id="t", reply=BLOCK)
MESSAGE = SimpleNamespace(text="hi", message_id="m1",
                          source=SimpleNamespace(platform="telegram", chat_id="c", chat_type="dm", chat_name="n",
                                                 thread_id=None, user_id="u", user_name="n"))

# (name, what the fake serve sends, whether the one-shot answers: True —
# the guard's own block —, or the plugin refuses by itself: False)
CASES = [
    ("409 another project", http("409 Conflict", b'{"error": "this server serves /elsewhere"}', CHECKED), True),
    ("413 too large", http("413 Request Entity Too Large", b'{"error": "request body is larger"}', CHECKED), True),
    ("no inputs header (an older serve)", http("200 OK", b"{}"), True),
    # After an upgrade, a serve still running the old binary may decide
    # otherwise: `hook` does not use it, nor does the client.
    ("another version", http("200 OK", b"{}", INPUTS, "Hermes-Hooks-Version: v0.0.0-not-this-one"), True),
    ("no version", http("200 OK", b"{}", INPUTS), True),
    ("500", http("500 Internal Server Error", b'{"error": "boom"}', CHECKED), False),
    ("503 busy", http("503 Service Unavailable", b'{"error": "too many"}', CHECKED, "Retry-After: 1"), False),
    ("400", http("400 Bad Request", b'{"error": "bad"}', CHECKED), False),
    ("204 no content", http("204 No Content", b"", CHECKED), False),
    ("200 not JSON", http("200 OK", b"<html>ok</html>", CHECKED), False),
    ("200 a JSON list", http("200 OK", b"[]", CHECKED), False),
    ("200 a JSON string", http("200 OK", b'"allow"', CHECKED), False),
    ("200 null", http("200 OK", b"null", CHECKED), False),
    ("200 cut short", http("200 OK", b"{}", CHECKED).replace(b"Content-Length: 2", b"Content-Length: 90"), False),
    ("200 bad chunking", b"HTTP/1.1 200 OK\r\n" + CHECKED.encode() + b"\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}", False),
    ("not HTTP", b"SSH-2.0-OpenSSH_9.6\r\n", False),
    ("closed without a word", b"", False),
    ("a reply over 64 MiB", http("200 OK", b"{" + b" " * (65 << 20) + b"}", CHECKED), False),
    ("never answers", None, False),
]


class BrokenServe(unittest.TestCase):
    def setUp(self):
        self.h = fixture.home()
        self.dir = tempfile.mkdtemp(prefix="hermes-hooks-broken-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.sock = os.path.join(self.dir, "hermes-hooks.sock")

    def test_no_broken_answer_is_no_objection(self):
        for name, reply, oneshot in CASES:
            with self.subTest(case=name):
                fake = FakeServe(self.sock, os.path.join(self.dir, "asked.log"), reply=reply)
                try:
                    # A short timeout for the server that never answers:
                    # the others answer at once.
                    client = Client(server="unix://" + self.sock, cwd=self.h.project,
                                    timeout=2 if reply is None else 60)
                    with warnings.catch_warnings(record=True) as seen:
                        warnings.simplefilter("always", HermesHooksWarning)
                        tool = hermes_plugin.make_callback("pre_tool_call", client)(**CALL)
                        gate = hermes_plugin.make_callback("pre_gateway_dispatch", client)(
                            event=MESSAGE, gateway=object(), session_store=None, reply={"action": "skip", "reason": "no"})
                        seen_one_shot = any("dispatching one-shot instead" in str(w.message) for w in seen)
                    self.assertIn(b"POST /v1/dispatch/", fake.asked(), "the fake serve was asked")
                finally:
                    fake.close()
                    os.unlink(self.sock)
                    if os.path.exists(os.path.join(self.dir, "asked.log")):
                        os.unlink(os.path.join(self.dir, "asked.log"))
                if oneshot:
                    self.assertTrue(seen_one_shot)
                    self.assertEqual(tool, BLOCK)
                    self.assertEqual(gate, {"action": "skip", "reason": "no"})
                else:
                    self.assertFalse(seen_one_shot)
                    self.assertEqual(tool["action"], "block", tool)
                    self.assertIn("could not check this tool call", tool["message"])
                    self.assertEqual(gate["action"], "skip", gate)
                    self.assertIn("could not check this message", gate["reason"])


if __name__ == "__main__":
    unittest.main()
