"""Event firings that, together, make hermes-hooks fill every member of the
outcome JSON (clients/testdata/cases.json, shared with the Node tests; the
hooks of clients/testdata/hooks reply with the fields "reply", "reply2",
"reply3", "claude_reply" and "claude_env")."""

import json
import os

with open(os.path.join(os.path.dirname(__file__), "..", "..", "testdata", "cases.json")) as _f:
    CASES = [(c["event"], c["fields"]) for c in json.load(_f)]


def with_session(fields, sid):
    out = dict(fields)
    out["session_id"] = sid
    return out
