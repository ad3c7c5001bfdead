"""A stand-in for Hermes' messaging gateway, as far as hooks go, written
from Hermes' hooks documentation (not its code):

* Plugins: a plugin of $HERMES_HOME/plugins/<name>/ loads only when
  config.yaml's plugins.enabled lists it (and plugins.disabled does not);
  its register(ctx) calls ctx.register_hook(event, callback).
* pre_gateway_dispatch: for each incoming message that is not internal,
  the callbacks run in registration order with event=, gateway= and
  session_store= (None when the gateway has none); the first recognised
  action dict wins — {"action": "skip"} drops the message, {"action":
  "rewrite", "text": …} replaces its text, {"action": "allow"} (or None)
  dispatches it normally; a callback that raises is logged, and the
  message goes on to normal dispatch.
* Gateway hooks: every directory of $HERMES_HOME/hooks/ holding a HOOK.yaml
  (a mapping with a non-empty events list, not enabled: false) and a
  handler.py whose handle(event_type, context) is registered for those
  events; emit calls the handlers of the exact event, then those of its
  wildcard (command:* for command:model), awaiting async ones, with {} when
  no context is given; a handler's error is logged, never raised.
"""

from __future__ import annotations

import asyncio
import importlib.util
import inspect
import logging
import os
import re
import sys
from types import SimpleNamespace
from typing import Any, Callable, Dict, List, Optional

log = logging.getLogger("standin.gateway")

RECOGNISED = ("skip", "rewrite", "allow")


def load_yaml(path: str) -> Any:
    """PyYAML when Hermes' environment has it (it always does); else the
    little of YAML these tests write: `key:` and `- item` lines."""
    with open(path) as f:
        text = f.read()
    try:
        import yaml
    except ImportError:
        return _mini_yaml(text)
    return yaml.safe_load(text)


def _mini_yaml(text: str) -> Dict[str, Any]:
    root: Dict[str, Any] = {}
    # (indentation, parent, key): the open container is parent[key] (root
    # for the first entry).
    stack: List[Any] = [(-1, None, None)]

    def container(entry: Any) -> Dict[str, Any]:
        _, parent, key = entry
        if parent is None:
            return root
        if not isinstance(parent[key], dict):
            parent[key] = {}
        return parent[key]

    for raw in text.splitlines():
        if raw.lstrip().startswith("#"):
            continue
        line = re.sub(r"\s+#.*$", "", raw).rstrip()
        if not line.strip() or line.strip() == "---":
            continue
        ind, body = len(line) - len(line.lstrip()), line.strip()
        if body.startswith("-"):
            _, parent, key = stack[-1]
            if parent is not None:
                if not isinstance(parent[key], list):
                    parent[key] = []
                parent[key].append(_scalar(body[1:]))
            continue
        while stack[-1][0] >= ind:
            stack.pop()
        key, _, value = body.partition(":")
        c = container(stack[-1])
        c[key.strip()] = _scalar(value) if value.strip() else None
        stack.append((ind, c, key.strip()))
    return root


def _scalar(s: str) -> Any:
    s = s.strip()
    if s.startswith("[") and s.endswith("]"):
        return [_scalar(x) for x in s[1:-1].split(",") if x.strip()]
    if s in ("", "~", "null"):
        return None
    if s == "{}":
        return {}
    return s.strip("'\"")


def enabled_plugins(home: str) -> List[str]:
    cfg = load_yaml(os.path.join(home, "config.yaml")) or {}
    plugins = cfg.get("plugins") or {}
    disabled = set(plugins.get("disabled") or [])
    return [p for p in (plugins.get("enabled") or []) if p not in disabled]


class Context:
    """The plugin context, reduced to the call a hook plugin makes."""

    def __init__(self, gateway: "Gateway") -> None:
        self._gateway = gateway

    def register_hook(self, event: str, callback: Callable[..., Any]) -> None:
        self._gateway.plugin_hooks.setdefault(event, []).append(callback)


class Gateway:
    def __init__(self, home: str) -> None:
        self.home = home
        self.plugin_hooks: Dict[str, List[Callable[..., Any]]] = {}
        self.handlers: Dict[str, List[Callable[..., Any]]] = {}
        self.loaded_hooks: List[Dict[str, Any]] = []
        self.delivered: List[Any] = []
        self.session_store: Any = None

    # -- start-up -----------------------------------------------------------

    def load_plugins(self) -> None:
        # Discovered plugins (folders of plugins/), loaded when enabled.
        for name in enabled_plugins(self.home):
            d = os.path.join(self.home, "plugins", name)
            if not os.path.isfile(os.path.join(d, "plugin.yaml")):
                continue
            spec = importlib.util.spec_from_file_location(
                "hermes_plugins." + re.sub(r"\W", "_", name), os.path.join(d, "__init__.py"),
                submodule_search_locations=[d])
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module
            spec.loader.exec_module(module)
            module.register(Context(self))

    def discover_and_load(self) -> None:
        hooks = os.path.join(self.home, "hooks")
        if not os.path.isdir(hooks):
            return
        for name in sorted(os.listdir(hooks)):
            d = os.path.join(hooks, name)
            manifest, handler = os.path.join(d, "HOOK.yaml"), os.path.join(d, "handler.py")
            if not (os.path.isfile(manifest) and os.path.isfile(handler)):
                continue
            meta = load_yaml(manifest)
            if not isinstance(meta, dict) or not meta.get("events") or meta.get("enabled") is False:
                continue
            spec = importlib.util.spec_from_file_location("hermes_hook_" + re.sub(r"\W", "_", name), handler)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            handle = getattr(module, "handle", None)
            if not callable(handle):
                continue
            for event in meta["events"]:
                self.handlers.setdefault(event, []).append(handle)
            self.loaded_hooks.append({"name": meta.get("name", name), "events": meta["events"], "module": module})

    # -- gateway hooks ------------------------------------------------------

    async def emit(self, event_type: str, context: Optional[Dict[str, Any]] = None) -> None:
        handlers = list(self.handlers.get(event_type, []))
        if ":" in event_type and not event_type.endswith(":*"):
            handlers += self.handlers.get(event_type.split(":", 1)[0] + ":*", [])
        for fn in handlers:
            try:
                result = fn(event_type, context if context is not None else {})
                if inspect.isawaitable(result):
                    await result
            except Exception:
                log.exception("gateway hook %s failed", event_type)

    # -- incoming messages --------------------------------------------------

    async def handle_message(self, event: Any) -> Optional[str]:
        """One incoming message: the pre_gateway_dispatch hook, then normal
        dispatch (here: delivered to the agent). Returns the action taken."""
        if not getattr(event, "internal", False):
            action = self._pre_gateway_dispatch(event)
            if action and action["action"] == "skip":
                return "skip"
            if action and action["action"] == "rewrite":
                event = SimpleNamespace(**{**vars(event), "text": action["text"]})
        self.delivered.append(event)
        return "dispatch"

    def _pre_gateway_dispatch(self, event: Any) -> Optional[Dict[str, Any]]:
        for callback in self.plugin_hooks.get("pre_gateway_dispatch", []):
            try:
                result = callback(event=event, gateway=self, session_store=getattr(self, "session_store", None))
            except Exception:
                log.exception("pre_gateway_dispatch callback failed")
                continue
            if isinstance(result, dict) and result.get("action") in RECOGNISED:
                if result["action"] == "rewrite" and not isinstance(result.get("text"), str):
                    continue
                return result
        return None


def message(text: str, user_id: str = "u-owner", chat_type: str = "dm", internal: bool = False) -> Any:
    """A MessageEvent as Hermes' gateway builds it, with a Platform enum."""
    platform = SimpleNamespace(value="telegram")
    source = SimpleNamespace(platform=platform, user_id=user_id, chat_id="c-" + user_id, user_name="tester",
                             chat_type=chat_type, chat_name="", thread_id="")
    return SimpleNamespace(text=text, message_id="m1", source=source, internal=internal)


def run(coro: Any) -> Any:
    return asyncio.run(coro)
