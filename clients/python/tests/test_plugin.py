"""The Hermes plugin against a fake plugin context that keeps Hermes'
contract: ctx.register_hook(event, callback), then callback(**kwargs)."""

import importlib.util
import os
import shutil
import sys
import tempfile
import time
import unittest
from types import ModuleType, SimpleNamespace
from unittest import mock

from hermes_hooks import DEFAULT_TIMEOUT, Client, hermes_plugin

from . import fixture

PLUGIN_DIR = os.path.dirname(os.path.abspath(hermes_plugin.__file__))


class FakeContext:
    """Hermes' PluginContext, reduced to the call a hook plugin makes."""

    def __init__(self):
        self.hooks = {}

    def register_hook(self, event, callback):
        assert callable(callback)
        self.hooks.setdefault(event, []).append(callback)

    def fire(self, _event, /, **kwargs):
        (callback,) = self.hooks[_event]
        return callback(**kwargs)


TEXT = ("transform_tool_result", "transform_terminal_output", "transform_llm_output")

# (event, keyword arguments as Hermes passes them, what Hermes must get back)
REPLIES = [
    ("pre_tool_call", dict(tool_name="terminal", args={"command": "rm -rf /"}, task_id="t",
                           reply={"action": "block", "message": "no"}),
     {"action": "block", "message": "no"}),
    ("pre_tool_call", dict(tool_name="write_file", args={"path": "/x", "content": "c"}, task_id="t",
                           reply={"action": "modify", "args": {"path": "/safe"}}),
     {"action": "modify", "args": {"path": "/safe", "content": "c"}}),
    ("pre_tool_call", dict(tool_name="terminal", args={"command": "ls"}, task_id="t",
                           reply={"action": "approve", "message": "sure?", "rule_key": "terminal:ls"}),
     {"action": "approve", "message": "sure?", "rule_key": "terminal:ls"}),
    ("pre_tool_call", dict(tool_name="terminal", args={"command": "ls"}, task_id="t"), None),
    # A Claude hook's continue:false stops the agent; to Hermes it is at
    # least a block, never None (the tool would run).
    ("pre_tool_call", dict(tool_name="terminal", args={"command": "ls"}, task_id="t",
                           claude_reply={"continue": False, "stopReason": "budget spent"}),
     {"action": "block", "message": "budget spent"}),
    ("pre_llm_call", dict(session_id="s", user_message="hi", conversation_history=[], is_first_turn=True,
                          model="m", platform="cli", reply={"context": "today is Friday"}),
     {"context": "today is Friday"}),
    ("pre_llm_call", dict(session_id="s", user_message="hi"), None),
    ("pre_verify", dict(session_id="s-verify", coding=True, attempt=0, final_response="done",
                        changed_paths=["a.go"], reply={"action": "continue", "message": "run the tests"}),
     {"action": "continue", "message": "run the tests"}),
    ("pre_verify", dict(session_id="s-verify2", coding=True, attempt=0), None),
    ("post_tool_call", dict(tool_name="terminal", args={}, result="{}", reply={"context": "noted"}),
     {"context": "noted"}),
    # pre_gateway_dispatch (issue 27): a plugin's result decides the flow.
    ("pre_gateway_dispatch", dict(event=object(), gateway=object(), session_store=None,
                                  reply={"action": "skip", "reason": "not the owner"}),
     {"action": "skip", "reason": "not the owner"}),
    ("pre_gateway_dispatch", dict(event=object(), reply={"action": "rewrite", "text": "/help"}),
     {"action": "rewrite", "text": "/help"}),
    ("pre_gateway_dispatch", dict(event=object(), reply={"action": "allow"}), {"action": "allow"}),
    ("pre_gateway_dispatch", dict(event=object(), reply={"context": "not an action"}), None),
] + [
    (ev, dict(result="old", output="old", response_text="old", reply={"result": "new " + ev}), "new " + ev)
    for ev in TEXT
] + [
    (ev, dict(result="old", output="old", response_text="old", reply={"context": "not text"}), None)
    for ev in TEXT
]


class Plugin(unittest.TestCase):
    def setUp(self):
        self.h = fixture.home()

    def plugins(self):
        """The plugin registered twice: through the live server, and one-shot."""
        out = []
        for server in (None, False):
            ctx = FakeContext()
            hermes_plugin.register(ctx, client=Client(server=server, cwd=self.h.project))
            out.append(("server" if server is None else "oneshot", ctx))
        return out

    def test_registers_every_hermes_event_it_serves(self):
        ctx = FakeContext()
        hermes_plugin.register(ctx)
        self.assertEqual(sorted(ctx.hooks), sorted(self.h.events))
        self.assertEqual(list(hermes_plugin.HERMES_EVENTS), sorted(self.h.events))
        self.assertTrue(all(len(cbs) == 1 for cbs in ctx.hooks.values()))
        with open(os.path.join(PLUGIN_DIR, "plugin.yaml")) as f:
            text = f.read()
        self.assertIn("name: hermes-hooks", text)
        provided = [ln.strip()[2:] for ln in text.splitlines() if ln.startswith("  - ")]
        self.assertEqual(provided, list(hermes_plugin.HERMES_EVENTS))

    def test_returns_what_hermes_expects(self):
        for path, ctx in self.plugins():
            for i, (event, kwargs, want) in enumerate(REPLIES):
                with self.subTest(path=path, event=event, case=i):
                    self.assertEqual(ctx.fire(event, **kwargs), want)

    # Every event, through the server only: the one-shot path gives the
    # same directives (test_client.Paths.test_server_and_oneshot_agree).
    def test_every_event_without_an_opinion_returns_none(self):
        ctx = dict(self.plugins())["server"]
        for event in self.h.events:
            with self.subTest(event=event):
                self.assertIsNone(ctx.fire(event, session_id="quiet"))

    def test_observers_pass_context_through(self):
        ctx = dict(self.plugins())["server"]
        for event in self.h.events:
            if event in TEXT or event in ("pre_tool_call", "pre_verify", "pre_gateway_dispatch"):
                continue
            with self.subTest(event=event):
                self.assertEqual(ctx.fire(event, session_id="ctx", reply={"context": "c"}), {"context": "c"})

    def test_a_rewrite_hermes_cannot_carry_is_refused(self):
        # Hermes merges a modify over the arguments it sent, ignores an
        # empty one, and runs an approved call with the arguments it sent:
        # each rewrite below would run a call other than the one judged.
        def rewrite(args):
            return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": args}}

        sent = {"command": "rm -rf /", "workdir": "/"}
        cases = [
            ("a key dropped", dict(claude_reply=rewrite({"command": "ls"})), "dropped (workdir)"),
            ("emptied", dict(claude_reply=rewrite({})), "rewrite to no arguments"),
            ("asked about", dict(claude_reply=rewrite({"command": "ls", "workdir": "/tmp"}),
                                 reply={"action": "approve", "message": "sure?"}), "approve carries no arguments"),
        ]
        for path, ctx in self.plugins():
            for name, extra, why in cases:
                with self.subTest(path=path, case=name):
                    got = ctx.fire("pre_tool_call", tool_name="terminal", args=dict(sent), task_id="t", **extra)
                    self.assertEqual(got["action"], "block", got)
                    self.assertIn(why, got["message"])
            with self.subTest(path=path, case="every key kept"):
                got = ctx.fire("pre_tool_call", tool_name="terminal", args=dict(sent), task_id="t",
                               claude_reply=rewrite({"command": "ls", "workdir": "/tmp"}))
                self.assertEqual(got, {"action": "modify", "args": {"command": "ls", "workdir": "/tmp"}})

    def test_pre_llm_call_block_is_not_carried_and_says_so(self):
        for path, ctx in self.plugins():
            with self.subTest(path=path):
                with self.assertLogs("hermes_hooks.hermes_plugin", "WARNING") as logs:
                    got = ctx.fire("pre_llm_call", session_id="s", reply={"action": "block", "message": "no"})
                self.assertIsNone(got)
                self.assertIn("cannot refuse", logs.output[0])

    def test_gateway_objects_are_not_sent(self):
        # The message's fields go; Hermes' in-process objects stay.
        source = SimpleNamespace(platform=SimpleNamespace(value="discord"), chat_id=42, chat_type="group",
                                 user_id="u", user_name=None, chat_name="ops", thread_id="")
        event = SimpleNamespace(text="hi", message_id="m", source=source)
        fields = hermes_plugin.gateway_fields(dict(event=event, gateway=object(), session_store=object(), extra=1))
        self.assertEqual(fields, {"extra": 1, "platform": "discord", "chat_id": 42, "chat_type": "group",
                                  "chat_name": "ops", "thread_id": "", "user_id": "u", "user_name": None,
                                  "message_id": "m", "text": "hi"})
        empty = hermes_plugin.gateway_fields(dict(event=object(), gateway=object(), session_store=object()))
        self.assertEqual(set(empty), {"platform", "chat_id", "chat_type", "chat_name", "thread_id", "user_id",
                                      "user_name", "message_id", "text"})
        self.assertTrue(all(v is None for v in empty.values()))
        ctx = dict(self.plugins())["server"]
        self.assertIsNone(ctx.fire("pre_gateway_dispatch", event=object(), gateway=object(), session_store=object()))

    def test_no_answer_never_raises_and_refuses_where_a_guard_may_stand(self):
        # Issue 31 item 5: hermes-hooks that gives no answer — missing, a
        # non-zero exit, garbage, no answer in time — is never raised into
        # Hermes (which would deliver a gateway message past a raising
        # plugin): a tool call is blocked, a gateway message dropped, every
        # other event gets None.
        tmp = tempfile.mkdtemp(prefix="hermes-hooks-broken-")
        self.addCleanup(shutil.rmtree, tmp, True)
        programs = {"missing": os.path.join(tmp, "nonexistent")}
        for name, body in (("exit1", "echo 'hermes-hooks: error: boom' >&2; exit 1"), ("garbage", "echo 'not json'"),
                           ("not_a_directive", "echo '[1]'"), ("hang", "exec sleep 3600")):
            programs[name] = os.path.join(tmp, name)
            with open(programs[name], "w") as f:
                f.write("#!/bin/sh\ncat >/dev/null\n" + body + "\n")
            os.chmod(programs[name], 0o755)
        want = {"pre_tool_call": ("action", "block", "message", "hermes-hooks could not check this tool call"),
                "pre_gateway_dispatch": ("action", "skip", "reason", "hermes-hooks could not check this message"),
                "post_tool_call": None, "transform_tool_result": None, "pre_verify": None}
        for name, program in programs.items():
            ctx = FakeContext()
            # The hang is what must time out; the bound is short for it only.
            hermes_plugin.register(ctx, client=Client(server=False, binary=program, timeout=1 if name == "hang" else 60))
            for event, shape in want.items():
                with self.subTest(program=name, event=event):
                    with self.assertLogs("hermes_hooks.hermes_plugin", "WARNING") as logs:
                        got = ctx.fire(event, tool_name="terminal", args={"command": "ls"}, event=object())
                    self.assertIn("gave no answer on " + event, logs.output[0])
                    if shape is None:
                        self.assertIsNone(got)
                        continue
                    verb_key, verb, why_key, why = shape
                    self.assertEqual(sorted(got), sorted([verb_key, why_key]))
                    self.assertEqual(got[verb_key], verb)
                    self.assertTrue(got[why_key].startswith(why), got[why_key])

    def test_answers_before_hermes_abandons_the_callback(self):
        # Hermes runs the callbacks of pre_tool_call and of its hot-path
        # events on a worker it abandons after plugins.hook_callback_timeout
        # (30 s by default): a tool call is then refused with Hermes' own
        # words and the callback (every hermes-hooks hook of the event at
        # once) skipped for 60 s, the process left running. The plugin
        # answers first, a margin before Hermes' bound, as `hook AGENT`
        # answers before any other agent's deadline.
        try:
            import yaml  # noqa: F401  (the plugin reads Hermes' config with it outside Hermes)
        except ImportError:
            self.skipTest("PyYAML is not installed")
        tmp = tempfile.mkdtemp(prefix="hermes-hooks-bound-")
        self.addCleanup(shutil.rmtree, tmp, True)
        with open(os.path.join(tmp, "config.yaml"), "w") as f:
            f.write("plugins:\n  hook_callback_timeout: 2\n")
        hang = os.path.join(tmp, "hang")
        with open(hang, "w") as f:
            f.write("#!/bin/sh\ncat >/dev/null\nexec sleep 3600\n")
        os.chmod(hang, 0o755)
        ctx = FakeContext()
        with mock.patch.dict(os.environ, {"HERMES_HOME": tmp}):
            hermes_plugin.register(ctx, client=Client(server=False, binary=hang, timeout=20))
            for event, want in (("pre_tool_call", "block"), ("post_tool_call", None), ("pre_llm_call", None)):
                with self.subTest(event=event):
                    start = time.monotonic()
                    with self.assertLogs("hermes_hooks.hermes_plugin", "WARNING"):
                        got = ctx.fire(event, tool_name="terminal", args={"command": "ls"})
                    self.assertLess(time.monotonic() - start, 2, "Hermes would have abandoned the callback")
                    self.assertEqual(got and got["action"], want)
            # Events Hermes does not bound keep the plugin's own timeout.
            self.assertIsNone(hermes_plugin.answer_within("subagent_stop"))
            self.assertIsNone(hermes_plugin.answer_within("pre_gateway_dispatch"))

    def test_hermes_callback_bound_is_read_as_hermes_reads_it(self):
        # plugins.hook_callback_timeout: float() of the value; absent, null,
        # not a number or negative: 30 s; 0: no bound; above 600: 600.
        try:
            import yaml  # noqa: F401
        except ImportError:
            self.skipTest("PyYAML is not installed")
        tmp = tempfile.mkdtemp(prefix="hermes-hooks-bound-")
        self.addCleanup(shutil.rmtree, tmp, True)
        cases = {"": 30.0, "plugins: {}": 30.0, "plugins: {hook_callback_timeout: null}": 30.0,
                 "plugins: {hook_callback_timeout: 12}": 12.0, "plugins: {hook_callback_timeout: '7.5'}": 7.5,
                 "plugins: {hook_callback_timeout: 0}": 0.0, "plugins: {hook_callback_timeout: -1}": 30.0,
                 "plugins: {hook_callback_timeout: soon}": 30.0, "plugins: {hook_callback_timeout: 900}": 600.0,
                 "plugins: [1]": 30.0, "{{{": 30.0}
        with mock.patch.dict(os.environ, {"HERMES_HOME": tmp}):
            for text, want in cases.items():
                with self.subTest(config=text):
                    with open(os.path.join(tmp, "config.yaml"), "w") as f:
                        f.write(text + "\n")
                    self.assertEqual(hermes_plugin.hermes_callback_timeout(), want)
            with open(os.path.join(tmp, "config.yaml"), "w") as f:
                f.write("plugins: {hook_callback_timeout: 30}\n")
            self.assertEqual(hermes_plugin.answer_within("pre_tool_call"), 27.0)
            with open(os.path.join(tmp, "config.yaml"), "w") as f:
                f.write("plugins: {hook_callback_timeout: 0}\n")
            self.assertIsNone(hermes_plugin.answer_within("pre_tool_call"))

    def test_the_payload_names_hermes_profile(self):
        # Hermes' own shell hooks put the active profile in their stdin
        # ("profile", after "cwd"); Hermes passes it to no plugin callback,
        # so the plugin adds it, and a build without profiles (no
        # hermes_cli.profiles) sends none, as that build's own hooks got.
        tmp = tempfile.mkdtemp(prefix="hermes-hooks-profile-")
        self.addCleanup(shutil.rmtree, tmp, True)
        hook = os.path.join(tmp, "profile.sh")
        with open(hook, "w") as f:
            f.write("#!/bin/sh\nexec jq -c '{context: (\"profile=\" + (.profile // \"none\"))}'\n")
        os.chmod(hook, 0o755)
        with open(os.path.join(tmp, "config.yaml"), "w") as f:
            f.write(f"hooks:\n  post_llm_call:\n    - command: {hook}\n")
        profiles = ModuleType("hermes_cli.profiles")
        profiles.get_active_profile_name = lambda: "work"
        package = ModuleType("hermes_cli")
        package.profiles = profiles
        with mock.patch.dict(os.environ, {"HERMES_HOME": tmp, "HERMES_ACCEPT_HOOKS": "1"}):
            ctx = FakeContext()
            hermes_plugin.register(ctx, client=Client(server=False, cwd=tmp))
            with mock.patch.dict(sys.modules, {"hermes_cli": package, "hermes_cli.profiles": profiles}):
                self.assertEqual(ctx.fire("post_llm_call", session_id="s"), {"context": "profile=work"})
            with mock.patch.dict(sys.modules, {"hermes_cli": None, "hermes_cli.profiles": None}):
                self.assertEqual(ctx.fire("post_llm_call", session_id="s"), {"context": "profile=none"})

    def test_a_bad_timeout_setting_does_not_stop_registration(self):
        for raw in ("soon", "0", "-3", "nan", "inf"):
            with self.subTest(raw=raw), mock.patch.dict(os.environ, {"HERMES_HOOKS_TIMEOUT": raw}):
                with self.assertLogs("hermes_hooks.hermes_plugin", "WARNING"):
                    ctx = FakeContext()
                    hermes_plugin.register(ctx)
                self.assertIn("pre_gateway_dispatch", ctx.hooks)
                self.assertEqual(hermes_plugin.client_from_env().timeout, DEFAULT_TIMEOUT)

    def test_a_very_long_timeout_is_a_long_one(self):
        # "A year" is a valid setting: past what the clock calls can take,
        # it must still wait (not raise OverflowError, which refused every
        # tool call, and left the one-shot running with its stdin open).
        call = dict(tool_name="terminal", args={"command": "x"}, task_id="t", reply={"action": "block", "message": "long"})
        for raw in ("31536000", "1e12", "1e300"):
            for server in ("off", None):
                env = {"HERMES_HOOKS_TIMEOUT": raw}
                if server:
                    env["HERMES_HOOKS_SERVER"] = server
                with self.subTest(raw=raw, server=server), mock.patch.dict(os.environ, env):
                    client = hermes_plugin.client_from_env()
                    client.cwd = self.h.project
                    self.assertEqual(hermes_plugin.make_callback("pre_tool_call", client)(**call),
                                     {"action": "block", "message": "long"})

    def test_settings_from_the_environment(self):
        env = {"HERMES_HOOKS_SERVER": "off", "HERMES_HOOKS_BIN": "/opt/hh", "HERMES_HOOKS_TIMEOUT": "7",
               "HERMES_HOOKS_CONFIG": "/etc/hh.yaml", "HERMES_HOOKS_EVENTS": "pre_tool_call, pre_verify,bogus"}
        with mock.patch.dict(os.environ, env):
            c = hermes_plugin.client_from_env()
            self.assertEqual((c.server, c.binary, c.timeout, c.config), (False, "/opt/hh", 7.0, "/etc/hh.yaml"))
            ctx = FakeContext()
            with self.assertLogs("hermes_hooks.hermes_plugin", "WARNING"):
                hermes_plugin.register(ctx)
            self.assertEqual(sorted(ctx.hooks), ["pre_tool_call", "pre_verify"])

    def test_loads_as_a_directory_plugin(self):
        # Hermes imports ~/.hermes/plugins/<name>/__init__.py under a name of
        # its own and calls register(ctx).
        spec = importlib.util.spec_from_file_location("hermes_plugins.hermes_hooks_dir",
                                                      os.path.join(PLUGIN_DIR, "__init__.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        ctx = FakeContext()
        module.register(ctx, client=Client(server=False, cwd=self.h.project))
        self.assertEqual(ctx.fire("pre_tool_call", tool_name="terminal", args={"command": "x"},
                                  reply={"action": "block", "message": "dir"}),
                         {"action": "block", "message": "dir"})


if __name__ == "__main__":
    unittest.main()
