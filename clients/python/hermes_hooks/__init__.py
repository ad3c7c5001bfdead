"""hermes_hooks: fire hook events through hermes-hooks from Python.

    from hermes_hooks import Client

    outcome = Client(timeout=30).dispatch("pre_tool_call", {
        "tool_name": "terminal", "args": {"command": cmd}, "session_id": sid})
    if outcome.blocked:
        ...  # give outcome.message to the model as the tool's result

A live `hermes-hooks serve` is used when there is one, else the one-shot
`hermes-hooks dispatch`. Standard library only. The Hermes plugin is
hermes_hooks.hermes_plugin.
"""

from .client import (DEFAULT_TIMEOUT, BinaryNotFoundError, Client, DispatchError,
                     DispatchTimeoutError, HermesHooksWarning, ServerNotAnsweringError,
                     default_socket, dispatch, hermes_home, user_socket)
from .outcome import BadOutcomeError, HermesHooksError, HookReport, Outcome

__all__ = [
    "Client", "dispatch", "Outcome", "HookReport", "hermes_home", "default_socket", "user_socket",
    "DEFAULT_TIMEOUT", "HermesHooksError", "BinaryNotFoundError", "ServerNotAnsweringError",
    "BadOutcomeError", "DispatchError", "DispatchTimeoutError", "HermesHooksWarning",
]
__version__ = "0.1.0"
