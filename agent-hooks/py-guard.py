#!/usr/bin/env python3
"""Refuse terminal commands that match a rule; the rules are loaded once.

A Hermes-dialect pre_tool_call guard that works one-shot and as a worker
(`worker: true`): with a worker, the rules file is read and its patterns
compiled once, not on every tool call. Rules: one Python regular expression
per line in HERMES_GUARD_RULES (default: the built-in list below); blank
lines and # comments are ignored.
"""

import os
import re

try:
    # Installed: pip install ./agent-hooks/lib/python
    from hermes_hook import serve
except ImportError:
    # Not installed: this repository's copy. The script's own directory is
    # on the import path (not the working directory, which is the
    # project's), so a hermes_hook.py planted in a project is never it.
    from lib.python.hermes_hook import serve

BUILTIN = [
    r"\brm\s+-[a-zA-Z]*r[a-zA-Z]*f?\s+(/|~|\$HOME)(\s|$)",
    r"\bmkfs(\.\w+)?\b",
    r"\bdd\s+.*\bof=/dev/(sd|nvme|vd)",
    r">\s*/dev/(sd|nvme|vd)\w*",
]


def load_rules():
    path = os.environ.get("HERMES_GUARD_RULES")
    if not path:
        return [re.compile(p) for p in BUILTIN]
    with open(path, encoding="utf-8") as f:
        lines = [l.strip() for l in f]
    return [re.compile(l) for l in lines if l and not l.startswith("#")]


RULES = load_rules()


def handle(payload):
    args = payload.get("tool_input") or {}
    command = args.get("command") if isinstance(args, dict) else None
    if not isinstance(command, str):
        return None
    for rule in RULES:
        if rule.search(command):
            return {"action": "block", "message": "py-guard: %r matches the rule %s" % (command, rule.pattern)}
    return None


serve(handle)
