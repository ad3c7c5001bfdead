"""The gateway bridge: Hermes' gateway hooks go through hermes-hooks.

Hermes' messaging gateway loads every directory of $HERMES_HOME/hooks/ that
holds a HOOK.yaml (the events it wants) and a handler.py, and calls the
handler's handle(event_type, context) for each of those events: the
gateway's start, a session's start, end and reset, an agent's start, each
step and end, and every slash command (command:*, which Hermes fires as
command:model, command:reset, …). `hermes-hooks install hermes --gateway`
writes such a directory whose handler is this module's handle.

handle copies the event into a queue and returns at once; one background
thread hands the events over to hermes-hooks in the order they came (a
live `hermes-hooks serve`, or the one-shot `hermes-hooks dispatch`, as
the plugin does). So a slow hook script never delays a gateway turn, as
Hermes' own gateway hooks never block it. The hooks are observers: what
they reply is not read, and a failure is logged, never raised.

Settings: those of the plugin (hermes_hooks.hermes_plugin: HERMES_HOOKS_BIN,
HERMES_HOOKS_SERVER, HERMES_HOOKS_CONFIG, HERMES_HOOKS_TIMEOUT), read for
each event. HERMES_HOOKS_GATEWAY_QUEUE bounds the events waiting (default
1000); beyond it an event is dropped with a warning rather than held in
memory without end.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
from typing import Any, Callable, Mapping, Optional, Tuple

__all__ = ["GATEWAY_EVENTS", "Bridge", "handle", "drain"]

log = logging.getLogger("hermes_hooks.hermes_gateway")

# The gateway events the bridge's HOOK.yaml subscribes to (`hermes-hooks
# events --json`: gateway; the tests compare the three lists).
GATEWAY_EVENTS: Tuple[str, ...] = (
    "gateway:startup", "session:start", "session:end", "session:reset",
    "agent:start", "agent:step", "agent:end", "command:*",
)

DEFAULT_QUEUE = 1000


def _client() -> Any:
    # Imported here: the plugin module's settings, read when an event is
    # handed over (not when Hermes imports the handler).
    from hermes_hooks.hermes_plugin import client_from_env
    return client_from_env()


def _queue_size() -> int:
    try:
        n = int(os.environ.get("HERMES_HOOKS_GATEWAY_QUEUE") or DEFAULT_QUEUE)
    except ValueError:
        n = DEFAULT_QUEUE
    return max(n, 1)


class Bridge:
    """A queue of gateway events and the one thread that dispatches them.

    client: a callable returning the hermes_hooks Client for one event
    (default: the plugin's settings from the environment)."""

    def __init__(self, client: Optional[Callable[[], Any]] = None, size: Optional[int] = None) -> None:
        self._client = client or _client
        self._queue: "queue.Queue[Tuple[str, dict]]" = queue.Queue(size or _queue_size())
        self._lock = threading.Lock()
        self._worker: Optional[threading.Thread] = None
        self.dropped = 0

    def handle(self, event_type: str, context: Optional[Mapping[str, Any]] = None) -> None:
        """Queue the event and return; never raises."""
        try:
            # A copy: the gateway may change its dict after we return.
            fields = dict(context or {})
            self._queue.put_nowait((str(event_type), fields))
        except queue.Full:
            self.dropped += 1
            log.warning("hermes-hooks: %d gateway events are waiting; %s dropped", self._queue.maxsize, event_type)
            return None
        except Exception:  # a context that is not a mapping: logged, as Hermes would
            log.warning("hermes-hooks: gateway event %s not handed over", event_type, exc_info=True)
            return None
        self._start()
        return None

    def drain(self, timeout: Optional[float] = None) -> bool:
        """Wait until every queued event has been handed over (tests, and a
        gateway that wants to flush at shutdown); False on timeout."""
        done = threading.Event()

        def wait() -> None:
            self._queue.join()
            done.set()

        threading.Thread(target=wait, daemon=True).start()
        return done.wait(timeout)

    def _start(self) -> None:
        with self._lock:
            if self._worker is None or not self._worker.is_alive():
                self._worker = threading.Thread(target=self._run, name="hermes-hooks-gateway", daemon=True)
                self._worker.start()

    def _run(self) -> None:
        while True:
            event_type, fields = self._queue.get()
            try:
                self._client().dispatch(event_type, fields)
            except Exception as e:  # observers: logged and swallowed
                log.warning("hermes-hooks: gateway event %s: %s", event_type, e)
            finally:
                self._queue.task_done()


_bridge = Bridge()


def handle(event_type: str, context: Optional[Mapping[str, Any]] = None) -> None:
    """Hermes' gateway hook entry point."""
    return _bridge.handle(event_type, context)


def drain(timeout: Optional[float] = None) -> bool:
    """Wait until the events handle queued have been handed over."""
    return _bridge.drain(timeout)
