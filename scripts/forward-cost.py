#!/usr/bin/env python3
"""What a forwarded `hermes-hooks hook claude PreToolUse` costs, binary A
against binary B: each with its own `serve --log-level debug` and
HERMES_HOME (the same config: a rule and an included rule file), N calls
each, interleaved call by call (the first of each pair alternates), every
call served (stderr empty). Prints the wall time of the hook process and
serve's own handling of the request (its log's duration_ms).

    go build -o /tmp/hh-before ./cmd/hermes-hooks   # at the older commit
    go build -o /tmp/hh-after ./cmd/hermes-hooks
    python3 scripts/forward-cost.py /tmp/hh-before /tmp/hh-after 300

Run it twice with A and B swapped: on a loaded machine the slots differ by
more than a few microseconds."""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

CONFIG = """rules: [rules.yaml]
hooks:
  pre_tool_call:
    - matcher: terminal
      rule: 'args.command matches "rm\\\\s+-rf"'
      decision: block
      message: no rm -rf
"""
RULES = "hooks: {}\n"
PAYLOAD = json.dumps({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                      "tool_input": {"command": "ls"}})


def setup(binary):
    root = tempfile.mkdtemp(prefix="hhm-")
    home, work = os.path.join(root, "h"), os.path.join(root, "w")
    os.makedirs(home)
    os.makedirs(work)
    for name, text in (("config.yaml", CONFIG), ("rules.yaml", RULES)):
        with open(os.path.join(home, name), "w") as f:
            f.write(text)
    env = dict(os.environ, HERMES_HOME=home, HERMES_ACCEPT_HOOKS="", HERMES_SAFE_MODE="")
    sock = os.path.join(home, "hermes-hooks.sock")
    log = open(os.path.join(root, "serve.log"), "w")
    srv = subprocess.Popen([binary, "serve", "--log-level", "debug"], cwd=work, env=env, stderr=log)
    deadline = time.monotonic() + 60  # a hang guard: serve listens in milliseconds
    while not os.path.exists(sock):
        assert time.monotonic() < deadline and srv.poll() is None
        time.sleep(0.02)
    return dict(bin=binary, env=env, work=work, srv=srv, times=[], log=log.name, root=root)


def once(c):
    t = time.perf_counter()
    p = subprocess.run([c["bin"], "hook", "claude", "PreToolUse"], input=PAYLOAD, env=c["env"], cwd=c["work"],
                       capture_output=True, text=True)
    took = (time.perf_counter() - t) * 1000
    assert p.returncode == 0 and p.stdout == "" and p.stderr == "", (p.stdout, p.stderr)  # stderr empty: served
    c["times"].append(took)


a, b = setup(sys.argv[1]), setup(sys.argv[2])
n = int(sys.argv[3]) if len(sys.argv) > 3 else 200
for c in (a, b):
    for _ in range(10):  # warm-up
        once(c)
    c["times"].clear()
for i in range(n):
    for c in ((a, b) if i % 2 == 0 else (b, a)):
        once(c)
for name, c in (("A " + sys.argv[1], a), ("B " + sys.argv[2], b)):
    t = sorted(c["times"])
    print(f"{name}: median {statistics.median(t):.2f} ms, p95 {t[int(len(t)*0.95)]:.2f} ms, n={len(t)}")
    c["srv"].terminate()
    c["srv"].wait()
    with open(c["log"]) as f:
        served = re.findall(r"msg=dispatch .*status=200.* duration_ms=([0-9.]+)", f.read())
    d = sorted(float(ms) for ms in served[-n:])  # the timed calls, not the warm-up
    print(f"     serve's own handling (duration_ms): median {statistics.median(d)*1000:.0f} µs, "
          f"p95 {d[int(len(d)*0.95)]*1000:.0f} µs, n={len(d)}")
    shutil.rmtree(c["root"], True)
