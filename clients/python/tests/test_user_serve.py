"""The client finds the server `hermes-hooks hook` finds, in the same order.

`hook` asks --server, else HERMES_HOOKS_SERVER (a socket path, unix://,
token://, or "off"; tcp:// refused), else the user-level serve's socket
($HERMES_HOME/run/hermes-hooks.sock, `serve --user`), else the per-project
default $HERMES_HOME/hermes-hooks.sock (docs/user-serve.md). A user who
starts `serve --user` gets its speed-up in Hermes too. The client states
what a user-level serve needs to answer as the one-shot would (the project,
the one-shot's working directory, where the hooks run), and keeps the trust
checks for the new socket and for token:// endpoint files. Real serve
processes; the attacks' servers are real processes too (fakeserve).
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

from hermes_hooks import Client, HermesHooksWarning, _trust

from . import fixture
from .fakeserve import FakeServe, nobody

BLOCK = {"action": "block", "message": "no"}
CALL = dict(tool_name="terminal", args={"command": "rm -rf /"}, task_id="t", reply=BLOCK)
SETTINGS = ("HERMES_ACCEPT_HOOKS", "HERMES_SAFE_MODE", "HERMES_HOOKS_MANAGED_CONFIG", "HERMES_HOOKS_SERVER")
# A hook that says where it runs: the one-shot runs it in its own working
# directory, and so must a user-level serve.
WHERE = "#!/bin/sh\ncat >/dev/null\nprintf '{\"context\":\"%s\"}\\n' \"$(pwd -P)\"\n"


def wait_listening(proc, path):
    deadline = time.monotonic() + 60  # a hang guard: it listens in milliseconds
    while True:
        if path.endswith(".endpoint"):
            if os.path.exists(path):
                return
        else:
            s = socket.socket(socket.AF_UNIX)
            try:
                s.connect(path)
                return
            except OSError:
                pass
            finally:
                s.close()
        if proc.poll() is not None or time.monotonic() > deadline:
            raise AssertionError(f"hermes-hooks serve did not listen at {path}")
        time.sleep(0.02)


class UserServe(unittest.TestCase):
    def setUp(self):
        self.bin = fixture.binary()
        self.tmp = os.path.realpath(tempfile.mkdtemp(prefix="hermes-hooks-user-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.home = os.path.join(self.tmp, "home")
        self.project = os.path.join(self.tmp, "project")
        self.sub = os.path.join(self.project, "sub")
        os.makedirs(self.home, 0o700)
        os.makedirs(os.path.join(self.project, ".git"))
        os.makedirs(self.sub)
        where = os.path.join(self.tmp, "where.sh")
        with open(where, "w") as f:
            f.write(WHERE)
        os.chmod(where, 0o755)
        with open(os.path.join(self.home, "config.yaml"), "w") as f:
            f.write(f"hooks:\n  pre_tool_call:\n    - command: {os.path.join(fixture.HOOKS, 'reply.sh')}\n"
                    f"  pre_llm_call:\n    - command: {where}\n")
        self.env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
        self.env["HERMES_HOME"] = self.home
        subprocess.run([self.bin, "approve", "--all"], cwd=self.project, env=self.env, check=True,
                       capture_output=True, timeout=60)
        self.run_dir = os.path.join(self.home, "run")
        self.user_sock = os.path.join(self.run_dir, "hermes-hooks.sock")
        self.procs = []
        p = mock.patch.dict(os.environ, {"HERMES_HOME": self.home})
        p.start()
        self.addCleanup(p.stop)
        for k in SETTINGS:
            os.environ.pop(k, None)

    def tearDown(self):
        for proc in self.procs:
            if isinstance(proc, FakeServe):
                proc.close()
                continue
            proc.terminate()
            proc.wait(30)

    def serve(self, *args, at=None):
        proc = subprocess.Popen([self.bin, "serve", "--user", *args], cwd=self.tmp, env=self.env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.procs.append(proc)
        wait_listening(proc, at or self.user_sock)
        return proc

    def fake(self, path, **kw):
        logs = tempfile.mkdtemp(prefix="hermes-hooks-user-log-")
        os.chmod(logs, 0o777)
        self.addCleanup(shutil.rmtree, logs, True)
        f = FakeServe(path, os.path.join(logs, "asked.log"), **kw)
        self.procs.append(f)
        return f

    def oneshot(self, event, fields):
        p = subprocess.run([self.bin, "dispatch", event], input=json.dumps(fields), capture_output=True,
                           text=True, cwd=self.sub, env=self.env, timeout=60, check=True)
        return json.loads(p.stdout)

    # -- found and used ------------------------------------------------------

    def test_user_serve_is_found_by_itself(self):
        self.serve()
        fields = dict(cwd=self.project, session_id="user", reply=BLOCK, tool_name="terminal", args={})
        client = Client(cwd=self.sub)
        with warnings.catch_warnings():
            warnings.simplefilter("error", HermesHooksWarning)
            out = client.dispatch("pre_tool_call", fields)
            where = client.dispatch("pre_llm_call", dict(fields, session_id="where"))
        self.assertEqual(out.via, "server")
        self.assertEqual(fixture.strip_timing(out.to_dict()),
                         fixture.strip_timing(self.oneshot("pre_tool_call", dict(fields, session_id="user2"))))
        # The hooks ran where the one-shot runs them: the client's cwd, not
        # the payload's project directory.
        self.assertEqual(where.via, "server")
        self.assertEqual(where.context, self.sub)
        self.assertEqual(self.oneshot("pre_llm_call", dict(fields, session_id="where2"))["context"], self.sub)

    def test_environment_names_the_server(self):
        self.serve()
        for value, via in ((self.user_sock, "server"), ("unix://" + self.user_sock, "server"), ("off", "oneshot")):
            with self.subTest(HERMES_HOOKS_SERVER=value), mock.patch.dict(os.environ, {"HERMES_HOOKS_SERVER": value}):
                with warnings.catch_warnings():
                    warnings.simplefilter("error", HermesHooksWarning)
                    self.assertEqual(Client(cwd=self.project).dispatch("pre_tool_call", CALL).via, via)
        with mock.patch.dict(os.environ, {"HERMES_HOOKS_SERVER": "tcp://127.0.0.1:9"}):
            with self.assertWarnsRegex(HermesHooksWarning, "cannot prove which user runs it"):
                self.assertEqual(Client(cwd=self.project).dispatch("pre_tool_call", CALL).via, "oneshot")

    def test_token_endpoint(self):
        os.makedirs(self.run_dir, 0o700)
        ep = os.path.join(self.run_dir, "hermes-hooks.endpoint")
        self.serve("--listen", "token://" + ep, at=ep)
        for how in ({"server": "token://" + ep}, {"env": "token://" + ep}):
            with self.subTest(**how), mock.patch.dict(os.environ, {"HERMES_HOOKS_SERVER": how.get("env", "")}):
                with warnings.catch_warnings():
                    warnings.simplefilter("error", HermesHooksWarning)
                    client = Client(server=how.get("server"), cwd=self.project)
                    out = client.dispatch("pre_tool_call", CALL)
                    self.assertEqual(out.via, "server")
                    self.assertTrue(out.blocked)
                    self.assertEqual(client.dispatch_hermes("pre_tool_call", CALL), BLOCK)

    def test_payload_cwd_not_a_directory(self):
        # A payload's cwd that is no directory: the one-shot uses its own
        # working directory as the project, and so does the call stated.
        self.serve()
        out = Client(cwd=self.project).dispatch("pre_tool_call", dict(CALL, cwd=os.path.join(self.tmp, "gone")))
        self.assertEqual(out.via, "server")
        self.assertTrue(out.blocked)

    # -- attacks: not asked, said why, the guard still blocks one-shot --------

    def assert_not_asked(self, why, fake, client=None):
        client = client or Client(cwd=self.project)
        with self.assertWarnsRegex(HermesHooksWarning, why):
            self.assertEqual(client.dispatch_hermes("pre_tool_call", CALL), BLOCK)
        self.assertNotIn(b"POST", fake.asked(), "the call was sent to a server that is not provably this user's")

    def test_user_socket_of_another_user(self):
        if os.geteuid() != 0:
            # Not root: nobody else's process can be started; this user
            # plays the other one, as test_trust does (the socket is
            # checked before its directory).
            os.makedirs(self.run_dir, 0o700)
            fake = self.fake(self.user_sock)
            p = mock.patch.object(_trust, "_uid", lambda: os.geteuid() + 1)
            p.start()
            self.addCleanup(p.stop)
            self.assert_not_asked(r"the socket .* is owned by uid \d+, not by you", fake)
            return
        uid, _ = nobody()
        # Another user's process binds there: it must reach the directory.
        os.chmod(self.tmp, 0o711)
        os.chmod(self.home, 0o711)
        os.makedirs(self.run_dir, 0o777)
        os.chmod(self.run_dir, 0o777)
        fake = self.fake(self.user_sock, uid=uid)
        os.chmod(self.run_dir, 0o700)
        self.assert_not_asked(r"the socket .* is owned by uid \d+, not by you", fake)

    def test_user_socket_in_a_group_writable_directory(self):
        os.makedirs(self.run_dir, 0o700)
        fake = self.fake(self.user_sock)
        os.chmod(self.run_dir, 0o770)
        self.assert_not_asked(r"directory .*run has mode 0770: others can write it", fake)

    def write_endpoint(self, path, port, mode):
        with open(path, "w") as f:
            f.write(f"hermes-hooks endpoint 1\n127.0.0.1:{port}\n{'ab' * 32}\n")
        os.chmod(path, mode)

    def test_token_file_readable_by_others(self):
        os.makedirs(self.run_dir, 0o700)
        fake = self.fake(None)
        ep = os.path.join(self.run_dir, "hermes-hooks.endpoint")
        self.write_endpoint(ep, fake.port, 0o644)
        self.assert_not_asked(r"the endpoint file .* has mode 0644, open to other users", fake,
                              Client(server="token://" + ep, cwd=self.project))
        self.assertEqual(fake.asked(), b"")

    def test_token_listener_without_the_key(self):
        # The endpoint file is private, but what listens on its port did not
        # write it (a server that died, its port taken): it cannot prove the
        # key, so the health check fails and the call is never sent.
        os.makedirs(self.run_dir, 0o700)
        fake = self.fake(None)
        ep = os.path.join(self.run_dir, "hermes-hooks.endpoint")
        self.write_endpoint(ep, fake.port, 0o600)
        with mock.patch.dict(os.environ, {"HERMES_HOOKS_SERVER": "token://" + ep}):
            self.assert_not_asked("does not prove it holds the endpoint's key", fake)

    def test_user_socket_comes_first(self):
        # Both sockets present: the user-level one is the one asked, as by
        # `hook` — here a fake that is not private, so nothing is asked.
        os.makedirs(self.run_dir, 0o700)
        fake = self.fake(self.user_sock, mode=0o666)
        other = self.fake(os.path.join(self.home, "hermes-hooks.sock"))
        self.assert_not_asked(r"the socket .*run/hermes-hooks.sock has mode 0666", fake)
        self.assertEqual(other.asked(), b"")


if __name__ == "__main__":
    unittest.main()
