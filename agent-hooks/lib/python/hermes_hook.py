"""hermes_hook: write a hook once; run it one-shot or as a hermes-hooks worker.

    from hermes_hook import serve, Exit   # pip install ./agent-hooks/lib/python

    def handle(payload):
        if "rm -rf" in payload.get("tool_input", {}).get("command", ""):
            return {"action": "block", "message": "no rm -rf"}
        return None            # no opinion

    serve(handle)

One-shot (a plain hook entry): one JSON payload on stdin, the reply on stdout,
then exit. As a worker (an entry with `worker: true`, started with
HERMES_HOOK_WORKER=1): one payload per line on stdin and one reply per line on
stdout, until stdin closes, so whatever the script loads at start-up (rules,
models, imports) is loaded once instead of on every event. Each worker request
carries an id ("hermes_hooks_request_id") that its reply must echo; serve does
that here, and the handler sees the payload without it.

A handler returns the reply object (None or {} for no opinion) or raises
Exit(code, stderr) for what a one-shot hook says with its exit status (exit 2
in the Claude dialect). Standard library only.
"""

import json
import os
import sys

__all__ = ["serve", "Exit"]

# The key of a worker request's id, in the payload and in the reply.
REQUEST_ID = "hermes_hooks_request_id"


class Exit(Exception):
    """A reply by exit status: Exit(2, "reason") is Claude's exit-2 block."""

    def __init__(self, code, stderr=""):
        super().__init__(stderr)
        self.code = int(code)
        self.stderr = stderr


def _reply(handler, payload):
    try:
        out = handler(payload)
    except Exit as e:
        return {"exit": e.code, "stderr": e.stderr}
    return out or {}


def serve(handler):
    """Run handler for every event this process is given (see module doc)."""
    if os.environ.get("HERMES_HOOK_WORKER") != "1":
        raw = sys.stdin.read()
        payload = json.loads(raw) if raw.strip() else {}
        out = _reply(handler, payload)
        if "exit" in out:
            sys.stderr.write(out.get("stderr", ""))
            sys.exit(out["exit"])
        print(json.dumps(out))
        return
    for line in sys.stdin:
        if not line.strip():
            continue
        rid = None
        try:
            payload = json.loads(line)
            if isinstance(payload, dict):
                rid = payload.pop(REQUEST_ID, None)
            out = _reply(handler, payload)
        except Exception as e:  # a bad event must not kill the worker
            out = {"exit": 1, "stderr": "%s: %s" % (type(e).__name__, e)}
        if isinstance(out, dict):
            # The reply answers this request, and says so.
            out = dict(out)
            out[REQUEST_ID] = rid
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()
