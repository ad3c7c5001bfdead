"""The outcome of one event firing, as `hermes-hooks dispatch` prints it.

The JSON Schema is protocol/outcome.schema.json in the hermes-hooks
repository. Optional members are absent when empty; `Outcome.to_dict()`
gives back exactly the object that was read (members this version does not
know are kept in `extra`, so nothing is lost when the schema grows).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields as dc_fields
from typing import Any, Dict, List, Optional

__all__ = ["Outcome", "HookReport", "BadOutcomeError", "HermesHooksError"]


class HermesHooksError(Exception):
    """Base class of every error this package raises."""


class BadOutcomeError(HermesHooksError):
    """hermes-hooks answered something that is not an outcome."""


_DECISIONS = ("none", "allow", "ask", "block")


def _check(obj: Dict[str, Any], name: str, kinds: tuple, required: bool, what: str) -> None:
    if name not in obj:
        if required:
            raise BadOutcomeError(f"{what}: missing {name!r}")
        return
    value = obj[name]
    # bool is an int in Python: a number field must not accept true/false.
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise BadOutcomeError(f"{what}: {name!r} is {type(value).__name__}, not {'/'.join(k.__name__ for k in kinds)}")


@dataclass
class HookReport:
    """What one matching hook did (an item of the outcome's `hooks`)."""

    event: str
    command: str
    dialect: str
    ran: bool
    exit_code: Optional[int]
    elapsed_ms: float
    timed_out: bool
    contribution: Optional[Dict[str, Any]]
    matcher: Optional[str] = None
    source: Optional[str] = None
    skipped: Optional[str] = None
    error: Optional[str] = None
    stdout_truncated: Optional[bool] = None
    stderr_truncated: Optional[bool] = None
    note: Optional[str] = None
    # The reply refused in another dialect's words, which this hook's
    # dialect does not read (the outcome's optional foreign_refusal).
    foreign_refusal: Optional[bool] = None
    shadow: Optional[bool] = None
    would: Optional[str] = None
    # A rule's verdict on the call as another hook rewrote it.
    rejudged: Optional[bool] = None
    extra: Dict[str, Any] = field(default_factory=dict)

    _REQUIRED = ("event", "command", "dialect", "ran", "exit_code", "elapsed_ms", "timed_out", "contribution")
    _TYPES = {
        "event": (str,), "command": (str,), "dialect": (str,), "ran": (bool,),
        "exit_code": (int, type(None)), "elapsed_ms": (int, float), "timed_out": (bool,),
        "contribution": (dict, type(None)), "matcher": (str,), "source": (str,), "skipped": (str,),
        "error": (str,), "stdout_truncated": (bool,), "stderr_truncated": (bool,), "note": (str,),
        "foreign_refusal": (bool,), "shadow": (bool,), "would": (str,), "rejudged": (bool,),
    }

    @classmethod
    def from_dict(cls, obj: Any) -> "HookReport":
        if not isinstance(obj, dict):
            raise BadOutcomeError(f"hook report is {type(obj).__name__}, not an object")
        for name, kinds in cls._TYPES.items():
            _check(obj, name, kinds, name in cls._REQUIRED, "hook report")
        known = {k: obj[k] for k in cls._TYPES if k in obj}
        return cls(**known, extra={k: v for k, v in obj.items() if k not in cls._TYPES})

    def to_dict(self) -> Dict[str, Any]:
        return _to_dict(self, self._REQUIRED)


@dataclass
class Outcome:
    """The single answer of one event firing.

    decision is "none", "allow", "ask" or "block" (block beats ask beats
    allow); message goes with it (the block reason for the model, the
    question for a human, the instruction to continue on pre_verify). args
    is set only when a hook rewrote the tool arguments; result only when a
    hook replaced a text (transform_* events). hooks has one report per
    matching hook. `via` says how the answer was obtained ("server" or
    "oneshot"); it is not part of the JSON.
    """

    event: str
    decision: str
    stop: bool
    hooks: List[HookReport]
    message: Optional[str] = None
    rule_key: Optional[str] = None
    args: Optional[Dict[str, Any]] = None
    context: Optional[str] = None
    stop_reason: Optional[str] = None
    system_message: Optional[str] = None
    result: Optional[str] = None
    inject_system: Optional[str] = None
    inject_user: Optional[str] = None
    metadata: Optional[Dict[str, Any]] = None
    env: Optional[Dict[str, Any]] = None
    hook_specific: Optional[Dict[str, Any]] = None
    terminal_sequence: Optional[str] = None
    deferred: Optional[bool] = None
    unapproved: Optional[int] = None
    extra: Dict[str, Any] = field(default_factory=dict)
    via: Optional[str] = field(default=None, compare=False)

    _REQUIRED = ("event", "decision", "stop", "hooks")
    _TYPES = {
        "event": (str,), "decision": (str,), "stop": (bool,), "hooks": (list,),
        "message": (str,), "rule_key": (str,), "args": (dict,), "context": (str,),
        "stop_reason": (str,), "system_message": (str,), "result": (str,),
        "inject_system": (str,), "inject_user": (str,), "metadata": (dict,), "env": (dict,),
        "hook_specific": (dict,), "terminal_sequence": (str,), "deferred": (bool,), "unapproved": (int,),
    }

    @property
    def blocked(self) -> bool:
        """The action is refused (on pre_verify: the agent must keep going)."""
        return self.decision == "block"

    @classmethod
    def from_dict(cls, obj: Any, via: Optional[str] = None) -> "Outcome":
        """Read an outcome object; BadOutcomeError when it is not one."""
        if not isinstance(obj, dict):
            raise BadOutcomeError(f"outcome is {type(obj).__name__}, not a JSON object")
        for name, kinds in cls._TYPES.items():
            _check(obj, name, kinds, name in cls._REQUIRED, "outcome")
        if obj["decision"] not in _DECISIONS:
            raise BadOutcomeError(f"outcome: unknown decision {obj['decision']!r}")
        known = {k: obj[k] for k in cls._TYPES if k in obj}
        known["hooks"] = [HookReport.from_dict(h) for h in obj["hooks"]]
        return cls(**known, extra={k: v for k, v in obj.items() if k not in cls._TYPES}, via=via)

    def to_dict(self) -> Dict[str, Any]:
        """The outcome JSON object again: required members always, optional ones when set."""
        out = _to_dict(self, self._REQUIRED)
        out["hooks"] = [h.to_dict() for h in self.hooks]
        return out


def _to_dict(obj: Any, required: tuple) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for f in dc_fields(obj):
        if f.name in ("extra", "via"):
            continue
        value = getattr(obj, f.name)
        if value is not None or f.name in required:
            out[f.name] = value
    out.update(obj.extra)
    return out
