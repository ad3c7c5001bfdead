"""The Hermes plugin: every Hermes hook event goes through hermes-hooks.

Hermes calls register(ctx) once; the plugin registers one callback per
Hermes hook event (ctx.register_hook(event, callback)). Each callback
forwards the keyword arguments Hermes passes as the event's fields to a
live `hermes-hooks serve` (or the one-shot `hermes-hooks dispatch`) and
returns what Hermes' plugin-hook contract expects for that event, from the
directive hermes-hooks renders for Hermes (`?format=hermes`):

  pre_tool_call   {"action": "block", "message": …} (a Claude hook's
                  continue:false too: the tool must not run), {"action": "modify",
                  "args": …} (the arguments after every rewrite),
                  {"action": "approve", …}, or None
  pre_llm_call    {"context": …} or None
  pre_verify      {"action": "continue", "message": …} or None
  pre_gateway_dispatch
                  {"action": "skip", "reason": …}, {"action": "rewrite",
                  "text": …}, {"action": "allow"}, or None (normal dispatch)
  transform_*     the replacement text, or None (unchanged)
  every other     {"context": …} or None (Hermes ignores observers' returns)

pre_gateway_dispatch hands hermes-hooks the incoming message's fields, not
Hermes' in-process objects (see gateway_fields): platform, chat_id,
chat_type, chat_name, thread_id, user_id, user_name, message_id and text.

Every event's fields also carry Hermes' active profile (profile), which
Hermes' own shell hooks find in their stdin and hands no plugin callback.

A callback never raises into Hermes. When hermes-hooks gives no answer
(the program missing, a non-zero exit, output that is not a directive, no
answer within HERMES_HOOKS_TIMEOUT, a server that drops the request) the
warning is logged and the callback answers as a guard that cannot be asked
must: pre_tool_call {"action": "block", "message": …} (the tool does not
run), pre_gateway_dispatch {"action": "skip", "reason": …} (the message is
dropped), every other event None (as Hermes treats a raising callback
there). On pre_gateway_dispatch Hermes would deliver the message past a
raising plugin; whether a fail_closed guard (an owner-only gate) holds the
gateway is in the config only hermes-hooks reads, so without its answer it
cannot be known, and the message is dropped. hermes-hooks itself drops it
with a reason when it runs but cannot evaluate such a guard (its config
does not load, the guard is missing, crashes or times out). A gateway that
has no such guard and would rather deliver when hermes-hooks is broken
leaves pre_gateway_dispatch out of HERMES_HOOKS_EVENTS.

Hermes' gateway hooks (HOOK.yaml events) are not plugin hooks: they reach
hermes-hooks through the gateway bridge, hermes_hooks.hermes_gateway.

Settings (environment of the Hermes process): HERMES_HOOKS_BIN (the
program, default hermes-hooks on PATH), HERMES_HOOKS_SERVER (a serve's
unix:// or token:// address or socket path, or "off"; default: the server
`hermes-hooks hook` finds, the user-level serve's
$HERMES_HOME/run/hermes-hooks.sock, else $HERMES_HOME/hermes-hooks.sock,
when present; a socket or endpoint file that is not provably this user's,
or a tcp:// address, is not asked),
HERMES_HOOKS_CONFIG (a config other than $HERMES_HOME/config.yaml),
HERMES_HOOKS_TIMEOUT (seconds per event, default 330),
HERMES_HOOKS_EVENTS (comma-separated: register only these events).

Hermes itself bounds the callbacks of pre_tool_call and of its hot-path
events (post_tool_call, pre/post_llm_call, pre/post_api_request,
api_request_error, pre/post_auxiliary_call, pre_verify, on_session_start,
on_session_end, transform_*) by plugins.hook_callback_timeout (default
30 s): past it Hermes abandons the callback — a tool call is refused in
Hermes' words, anything else goes on without it — and skips that callback
for 60 s, which for this plugin is every hermes-hooks hook of the event.
On those events the plugin answers a margin before Hermes' bound (read
from Hermes' config as Hermes reads it: answer_within), as hermes-hooks
answers before any other agent's deadline: a guard that has not answered
by then refuses the tool call, and the dispatch's hooks are stopped.
"""

from __future__ import annotations

import logging
import os
from typing import Any, Callable, Dict, Iterable, Optional, Tuple

from hermes_hooks import DEFAULT_TIMEOUT, Client

__all__ = ["register", "HERMES_EVENTS", "client_from_env", "to_hermes", "make_callback", "gateway_fields",
           "unanswered", "hermes_callback_timeout", "answer_within"]

log = logging.getLogger("hermes_hooks.hermes_plugin")

# The Hermes hook events hermes-hooks serves: Hermes' VALID_HOOKS without
# transform_api_error_classification, which takes a directive only a
# Python plugin can give (`hermes-hooks events --json`: hermes and not
# shell_unsupported; the tests compare the two).
HERMES_EVENTS: Tuple[str, ...] = (
    "agent_loop_stopped", "api_request_error", "gateway_platform_event",
    "kanban_task_blocked", "kanban_task_claimed", "kanban_task_completed",
    "on_interim_message", "on_kanban_dispatch_tick", "on_kanban_task_updated",
    "on_kanban_worker_exited", "on_kanban_worker_spawned", "on_kanban_worker_stale_claim",
    "on_room_member_activity", "on_session_end", "on_session_finalize", "on_session_reset",
    "on_session_start", "on_skill_lifecycle", "on_stream_delta", "on_stream_end",
    "on_stream_start", "post_api_request", "post_approval_response", "post_auxiliary_call",
    "post_llm_call", "post_tool_call", "pre_api_request", "pre_approval_request",
    "pre_auxiliary_call", "pre_command", "pre_gateway_dispatch", "pre_llm_call",
    "pre_tool_call", "pre_transcription", "pre_verify", "subagent_start", "subagent_stop",
    "transform_llm_output", "transform_terminal_output", "transform_tool_result",
)

# Events whose plugin callbacks Hermes asks for a string (the new text) or
# None, not a dict.
_TEXT_EVENTS = frozenset({"transform_llm_output", "transform_terminal_output", "transform_tool_result"})
# Where Hermes reads only {"context": …}: a block (a hermes-hooks runtime
# extension) cannot be carried.
_CONTEXT_ONLY_EVENTS = frozenset({"pre_llm_call"})


def _timeout_from_env() -> float:
    # A bad value must not make register() raise: Hermes would then load
    # no callback at all, and every guard would be off.
    raw = os.environ.get("HERMES_HOOKS_TIMEOUT")
    if not raw:
        return DEFAULT_TIMEOUT
    try:
        timeout = float(raw)
    except ValueError:
        timeout = 0.0
    if not 0 < timeout < float("inf"):
        log.warning("HERMES_HOOKS_TIMEOUT=%r is not a number of seconds; using %gs", raw, DEFAULT_TIMEOUT)
        return DEFAULT_TIMEOUT
    return timeout


# The events whose callbacks Hermes runs on a worker it abandons after
# plugins.hook_callback_timeout (hermes_cli's bounded and fail-closed hook
# sets); subagent_stop and the rest run unbounded on Hermes' own thread.
_HERMES_BOUNDED_EVENTS = frozenset({
    "pre_tool_call", "post_tool_call", "transform_terminal_output", "transform_tool_result",
    "transform_llm_output", "pre_llm_call", "post_llm_call", "pre_api_request", "post_api_request",
    "api_request_error", "pre_auxiliary_call", "post_auxiliary_call", "pre_verify", "on_session_start",
    "on_session_end",
})
_HERMES_CALLBACK_TIMEOUT = 30.0      # Hermes' default
_HERMES_MAX_CALLBACK_TIMEOUT = 600.0  # and its ceiling


def _hermes_config() -> Any:
    """Hermes' config: through Hermes when the plugin runs in it (its
    profile, its cache), else $HERMES_HOME/config.yaml read with PyYAML."""
    try:
        from hermes_cli import config as hermes_config  # type: ignore[import-not-found]
    except ImportError:
        hermes_config = None
    for name in ("load_config_readonly", "load_config"):
        load = getattr(hermes_config, name, None)
        if callable(load):
            return load()
    import yaml  # type: ignore[import-untyped]  # Hermes' own dependency
    from hermes_hooks._server import hermes_home
    try:
        with open(os.path.join(hermes_home(), "config.yaml"), encoding="utf-8-sig") as f:
            return yaml.safe_load(f)
    except FileNotFoundError:
        return None


def hermes_callback_timeout() -> float:
    """Seconds Hermes waits for a bounded plugin callback, 0 for no bound:
    plugins.hook_callback_timeout read as Hermes reads it (float() of the
    value; absent, null, not a number, negative or unreadable: 30; above
    600: 600)."""
    try:
        plugins = (_hermes_config() or {}).get("plugins")
        raw = plugins.get("hook_callback_timeout") if isinstance(plugins, dict) else None
        if raw is None:
            return _HERMES_CALLBACK_TIMEOUT
        timeout = float(raw)
    except Exception:  # a config that cannot be read: Hermes' default, never a raise into Hermes
        return _HERMES_CALLBACK_TIMEOUT
    if not timeout >= 0:  # negative, NaN
        return _HERMES_CALLBACK_TIMEOUT
    return min(timeout, _HERMES_MAX_CALLBACK_TIMEOUT)


def answer_within(event: str) -> Optional[float]:
    """The seconds the callback for event has before Hermes abandons it,
    less a margin for stopping the dispatch (a tenth, between a quarter of
    a second and five seconds, as `hook AGENT` keeps); None where Hermes
    sets no bound."""
    if event not in _HERMES_BOUNDED_EVENTS:
        return None
    bound = hermes_callback_timeout()
    if bound <= 0:
        return None
    within = bound - min(max(bound / 10, 0.25), 5.0)
    return within if within > 0 else bound / 2


def client_from_env() -> Client:
    """The Client the plugin uses, from the HERMES_HOOKS_* settings."""
    server: Any = os.environ.get("HERMES_HOOKS_SERVER") or None
    if server is not None and server.lower() in ("off", "none", "0", "false"):
        server = False
    return Client(server=server, binary=os.environ.get("HERMES_HOOKS_BIN") or "hermes-hooks",
                  timeout=_timeout_from_env(), config=os.environ.get("HERMES_HOOKS_CONFIG") or None)


def _events_from_env() -> Iterable[str]:
    only = os.environ.get("HERMES_HOOKS_EVENTS")
    if not only:
        return HERMES_EVENTS
    wanted = [e.strip() for e in only.split(",") if e.strip()]
    unknown = [e for e in wanted if e not in HERMES_EVENTS]
    if unknown:
        log.warning("HERMES_HOOKS_EVENTS: not Hermes hook events hermes-hooks serves, ignored: %s", ", ".join(unknown))
    return [e for e in HERMES_EVENTS if e in wanted]


# The message's fields pre_gateway_dispatch passes on: (name in the
# payload, object it is read from, attribute). Hermes passes a MessageEvent
# (text, message_id, source) and in-process handles (gateway,
# session_store) that a script can do nothing with.
_MESSAGE_FIELDS = (
    ("platform", "source", "platform"), ("chat_id", "source", "chat_id"),
    ("chat_type", "source", "chat_type"), ("chat_name", "source", "chat_name"),
    ("thread_id", "source", "thread_id"), ("user_id", "source", "user_id"),
    ("user_name", "source", "user_name"), ("message_id", "event", "message_id"),
    ("text", "event", "text"),
)
_IN_PROCESS = frozenset({"event", "gateway", "session_store"})


def _plain(value: Any) -> Any:
    """A field's JSON value: an enum (Hermes' Platform) by its value, any
    other object by its text, None as null."""
    value = getattr(value, "value", value)
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def gateway_fields(kwargs: Dict[str, Any]) -> Dict[str, Any]:
    """The fields pre_gateway_dispatch hands hermes-hooks: the incoming
    message's (null where Hermes' MessageEvent has no such attribute),
    and every other keyword argument but Hermes' in-process objects."""
    event = kwargs.get("event")
    objects = {"event": event, "source": getattr(event, "source", None)}
    fields = {k: v for k, v in kwargs.items() if k not in _IN_PROCESS}
    for name, obj, attr in _MESSAGE_FIELDS:
        fields.setdefault(name, _plain(getattr(objects[obj], attr, None)))
    return fields


# Events whose keyword arguments are Hermes objects, and what is sent instead.
_FIELDS = {"pre_gateway_dispatch": gateway_fields}


def to_hermes(event: str, wire: Dict[str, Any]) -> Any:
    """What the plugin returns to Hermes for event, given hermes-hooks'
    Hermes directive for it."""
    if event in _TEXT_EVENTS:
        result = wire.get("result")
        return result if isinstance(result, str) and result else None
    if event in _CONTEXT_ONLY_EVENTS and wire.get("action") == "block":
        log.warning("hermes-hooks refused the turn on %s (%s), but a Hermes plugin cannot refuse it there; ignored",
                    event, wire.get("message", ""))
        return None
    return wire or None


# What a callback answers when hermes-hooks gave none, where a guard that
# cannot be asked must refuse (see the module's doc); every other event
# gets None.
_UNANSWERED = {
    "pre_tool_call": lambda why: {
        "action": "block", "message": f"hermes-hooks could not check this tool call ({why}); refused rather than run unchecked"},
    "pre_gateway_dispatch": lambda why: {
        "action": "skip", "reason": f"hermes-hooks could not check this message ({why}); dropped rather than delivered unchecked"},
}


def unanswered(event: str, error: BaseException) -> Any:
    """What the callback for event returns when hermes-hooks gave no answer
    (error): a refusal where a guard may stand, else None; logged."""
    why = f"{type(error).__name__}: {error}"
    refuse = _UNANSWERED.get(event)
    log.warning("hermes-hooks gave no answer on %s (%s)%s", event, why,
                "; refused" if refuse else "; nothing done")
    return refuse(why) if refuse else None


def _active_profile() -> Optional[str]:
    """The profile Hermes' own shell hooks name in their payload (its
    hermes_cli.profiles.get_active_profile_name); None outside Hermes, or in
    a build without profiles, whose shell hooks got no profile key."""
    try:
        from hermes_cli.profiles import get_active_profile_name  # type: ignore[import-not-found]
        name = get_active_profile_name()
    except Exception:  # ImportError, or a profile Hermes cannot tell: never a raise into Hermes
        return None
    return name if isinstance(name, str) else None


def make_callback(event: str, client: Client) -> Callable[..., Any]:
    """The callback registered for event."""
    fields = _FIELDS.get(event, dict)

    def callback(**kwargs: Any) -> Any:
        try:
            sent = fields(kwargs)
            if "profile" not in sent:
                # Hermes passes no callback the profile, but its shell hooks
                # read it in their stdin, beside cwd: hermes-hooks puts a
                # host's profile field there.
                profile = _active_profile()
                if profile is not None:
                    sent["profile"] = profile
            return to_hermes(event, client.dispatch_hermes(event, sent, timeout=answer_within(event)))
        except Exception as e:  # never into Hermes: see the module's doc
            return unanswered(event, e)

    callback.__name__ = callback.__qualname__ = f"hermes_hooks[{event}]"
    return callback


def register(ctx: Any, client: Optional[Client] = None) -> None:
    """Hermes' plugin entry point: one callback per Hermes hook event."""
    client = client or client_from_env()
    for event in _events_from_env():
        ctx.register_hook(event, make_callback(event, client))
