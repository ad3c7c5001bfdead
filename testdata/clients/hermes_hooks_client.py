from hermes_hooks import Client, HermesHooksError

client = Client(timeout=30)  # a live `hermes-hooks serve` if there is one, else one-shot `dispatch`
try:
    outcome = client.dispatch("pre_tool_call", {"tool_name": "terminal", "session_id": "s1",
                                                "args": {"command": "rm -rf /"}})
except HermesHooksError as e:  # binary not found, server not answering, bad outcome, timeout
    raise SystemExit(f"no outcome, so no tool call: {e}")
if outcome.blocked:
    print("blocked:", outcome.message)  # give this to the model as the tool's result
else:
    print("run it with", outcome.args or "the original args")
