import json
import subprocess


def dispatch(event, fields, binary="hermes-hooks"):
    """Fire a hook event and return the outcome (see "The outcome JSON")."""
    proc = subprocess.run([binary, "dispatch", event], input=json.dumps(fields),
                          capture_output=True, text=True, timeout=330)
    # 2: unknown event or bad fields; 1: could not run (a tool call with a config
    # that cannot be loaded is answered with a block instead); 128+N: a signal
    if proc.returncode != 0:
        raise RuntimeError(f"hermes-hooks: {proc.stderr.strip()}")
    return json.loads(proc.stdout)


outcome = dispatch("pre_tool_call", {"tool_name": "terminal", "session_id": "s1",
                                     "args": {"command": "rm -rf /"}})
if outcome["decision"] == "block":
    print("blocked:", outcome["message"])  # give this to the model as the tool's result
else:
    print("run it with", outcome.get("args") or "the original args")
