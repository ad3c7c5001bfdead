"""Attack tests: a server that is not this user's is never asked.

Each fake serve (tests/fakeserve.py: a real process) answers "no objection"
to everything, where the real config's guard blocks. The client must not
send it the payload, and must dispatch one-shot instead with a warning —
what `hermes-hooks hook` does (server.Forward) — so the guard still blocks,
through the client and through the Hermes plugin.
"""

import os
import shutil
import stat
import tempfile
import unittest
import warnings
from unittest import mock

from hermes_hooks import Client, HermesHooksWarning, _trust, hermes_plugin

from . import fixture
from .fakeserve import FakeServe, nobody

BLOCK = {"action": "block", "message": "no"}
CALL = dict(tool_name="terminal", args={"command": "rm -rf /"}, task_id="t", reply=BLOCK)


class UntrustedServers(unittest.TestCase):
    def setUp(self):
        self.h = fixture.home()
        # A directory another user may enter and bind in (for the runs as
        # another user); each case then sets the modes it is about.
        self.dir = tempfile.mkdtemp(prefix="hermes-hooks-trust-")
        os.chmod(self.dir, 0o777)
        self.sock = os.path.join(self.dir, "hermes-hooks.sock")
        # The fake's record, where it can write it whoever it runs as.
        logs = tempfile.mkdtemp(prefix="hermes-hooks-trust-log-")
        os.chmod(logs, 0o777)
        self.log = os.path.join(logs, "asked.log")
        self.fakes = []
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.addCleanup(shutil.rmtree, logs, True)

    def tearDown(self):
        for f in self.fakes:
            f.close()

    def fake(self, path, **kw):
        f = FakeServe(path, self.log, **kw)
        self.fakes.append(f)
        return f

    def assert_not_asked(self, server, why, fake):
        """Through the client and the plugin: the guard blocks, one-shot,
        with a warning saying why; the fake serve read nothing."""
        client = Client(server=server, cwd=self.h.project)
        with self.assertWarnsRegex(HermesHooksWarning, why):
            wire = client.dispatch_hermes("pre_tool_call", CALL)
        self.assertEqual(wire, BLOCK)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", HermesHooksWarning)
            out = client.dispatch("pre_tool_call", dict(CALL, session_id="trust"))
            self.assertEqual(out.via, "oneshot")
            plugin = hermes_plugin.make_callback("pre_tool_call", client)
            self.assertEqual(plugin(**CALL), BLOCK)
        self.assertEqual(fake.asked(), b"", "the payload was sent to a server that is not this user's")

    def test_the_fake_is_believed_when_it_passes_the_checks(self):
        # The control: the same fake, private to this user, is asked (and
        # its "no objection" believed) — so the cases below fail for the
        # reason they name, not because the fake cannot answer.
        os.chmod(self.dir, 0o700)
        fake = self.fake(self.sock)
        wire = Client(server="unix://" + self.sock, cwd=self.h.project).dispatch_hermes("pre_tool_call", CALL)
        self.assertEqual(wire, {})
        self.assertIn(b"POST /v1/dispatch/pre_tool_call", fake.asked())

    def test_socket_open_to_others(self):
        os.chmod(self.dir, 0o700)
        fake = self.fake(self.sock, mode=0o666)
        self.assert_not_asked("unix://" + self.sock, "socket .* has mode 0666, open to other users", fake)

    def test_socket_in_a_directory_others_can_write(self):
        # /tmp-like: anyone could have put the socket there, or swap it.
        fake = self.fake(self.sock)
        self.assert_not_asked("unix://" + self.sock, "directory .* has mode 0777: others can write it", fake)

    def test_default_socket_open_to_others(self):
        # The default socket ($HERMES_HOME/hermes-hooks.sock), found by
        # its presence alone: another home, whose socket is the fake's.
        home = os.path.join(self.dir, "home")
        os.mkdir(home, 0o700)
        os.chmod(self.dir, 0o700)
        fake = self.fake(os.path.join(home, "hermes-hooks.sock"), mode=0o660)
        with mock.patch.dict(os.environ, {"HERMES_HOME": home}):
            client = Client(cwd=self.h.project)
            with self.assertWarnsRegex(HermesHooksWarning, "mode 0660, open to other users"):
                client.dispatch_hermes("pre_tool_call", CALL)
        self.assertEqual(fake.asked(), b"")

    def test_socket_of_another_user(self):
        if os.geteuid() == 0:
            uid, _ = nobody()
            fake = self.fake(self.sock, uid=uid)
            os.chmod(self.dir, 0o700)
            self.assertEqual(os.lstat(self.sock).st_uid, uid)
        else:
            # Not root: nobody else's process can be started; this user
            # plays the other one, as the Go tests do (myUID).
            os.chmod(self.dir, 0o700)
            fake = self.fake(self.sock)
            other = os.geteuid() + 1
            p = mock.patch.object(_trust, "_uid", lambda: other)
            p.start()
            self.addCleanup(p.stop)
            # The directory is "someone else's" too then; the socket is
            # checked first.
        self.assert_not_asked("unix://" + self.sock, r"the socket .* is owned by uid \d+, not by you", fake)

    def test_socket_of_mine_listened_on_by_another_user(self):
        # The socket file passes every file check (ours, 0600, in our 0700
        # directory) but the process listening is another user's: only
        # the peer's credentials tell.
        if os.geteuid() == 0:
            uid, _ = nobody()
            fake = self.fake(self.sock, uid=uid)
            os.chown(self.sock, 0, 0)
            os.chmod(self.dir, 0o700)
        else:
            os.chmod(self.dir, 0o700)
            fake = self.fake(self.sock)
            real = os.geteuid()
            p = mock.patch.object(_trust, "peer_uid", lambda sock: real + 1)
            p.start()
            self.addCleanup(p.stop)
        self.assert_not_asked("unix://" + self.sock, r"the server's process runs as uid \d+, not as you", fake)

    def test_symlink_to_a_socket(self):
        os.chmod(self.dir, 0o700)
        real = os.path.join(self.dir, "real.sock")
        fake = self.fake(real)
        os.symlink(real, self.sock)
        self.assert_not_asked("unix://" + self.sock, "is not a socket", fake)

    def test_tcp_is_never_sent_a_call(self):
        # Any local user can listen on a loopback port while the server is
        # down; and HERMES_HOOKS_SERVER naming a URL must not carry the
        # tool calls off the machine.
        fake = self.fake(None)
        for scheme in ("tcp", "http"):
            with self.subTest(scheme=scheme):
                self.assert_not_asked(f"{scheme}://127.0.0.1:{fake.port}", "cannot prove which user runs it", fake)

    def test_plugin_settings_naming_a_url(self):
        fake = self.fake(None)
        with mock.patch.dict(os.environ, {"HERMES_HOOKS_SERVER": f"tcp://127.0.0.1:{fake.port}"}):
            client = hermes_plugin.client_from_env()
        client.cwd = self.h.project
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", HermesHooksWarning)
            self.assertEqual(hermes_plugin.make_callback("pre_tool_call", client)(**CALL), BLOCK)
        self.assertEqual(fake.asked(), b"")

    def test_mode_bits_are_what_is_checked(self):
        # A table of the file rules on real files (no server).
        os.chmod(self.dir, 0o700)
        fake = self.fake(self.sock)
        for sock_mode, dir_mode, ok in ((0o600, 0o700, True), (0o700, 0o755, True), (0o640, 0o700, False),
                                        (0o602, 0o700, False), (0o600, 0o770, False), (0o600, 0o702, False)):
            with self.subTest(sock=oct(sock_mode), dir=oct(dir_mode)):
                os.chmod(self.sock, sock_mode)
                os.chmod(self.dir, dir_mode)
                try:
                    _trust.check_socket(self.sock)
                    trusted = True
                except _trust.ServerDown:
                    trusted = False
                self.assertEqual(trusted, ok)
        os.chmod(self.dir, 0o700)
        self.assertTrue(stat.S_ISSOCK(os.lstat(fake.path).st_mode))


if __name__ == "__main__":
    unittest.main()
