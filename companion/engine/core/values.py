"""Actions and events: the two small values a game record is made of.

An action is what a person did at the table ("moved these blocks along this road"); an event is
what the rules made of it ("Kiso now controlled by Tokugawa"). Both are immutable and have a
canonical text form that round-trips (as python-chess's `Move.uci()` does), so records, tests,
logs and the tablet all speak the same language.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = ["Action", "Event", "Outcome", "canonical_json", "freeze", "thaw"]


def freeze(value: Any) -> Any:
    """A deep read-only copy of JSON-like data: mappings become proxies, lists tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise TypeError(f"not JSON data: {value!r}")


def thaw(value: Any) -> Any:
    """Plain dicts and lists again, ready for `json.dumps`."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [thaw(v) for v in value]
    return value


def canonical_json(value: Any) -> str:
    """One spelling for equal data: sorted keys, no spaces, UTF-8 kept."""
    return json.dumps(thaw(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True, eq=False)
class Action:
    """What a role did: `Action("red", "move", {"block": "red_b", "to": "mill"})`.

    `role` is a player's role, or `chance` for dice and draws (the chance player of OpenSpiel),
    so random outcomes are in the history and a replay is exact.
    """

    role: str
    verb: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "args", freeze(self.args))

    def text(self) -> str:
        """Canonical text: `red move {"block":"red_b","to":"mill"}`."""
        return f"{self.role} {self.verb} {canonical_json(self.args)}"

    @classmethod
    def from_text(cls, text: str) -> Action:
        """Parse `text()` back; ValueError names what is wrong."""
        parts = text.strip().split(" ", 2)
        if len(parts) < 2:
            raise ValueError(f"an action reads 'ROLE VERB [ARGS-JSON]', got {text!r}")
        args = json.loads(parts[2]) if len(parts) == 3 else {}
        if not isinstance(args, dict):
            raise ValueError(f"action arguments must be a JSON object, got {parts[2]!r}")
        return cls(parts[0], parts[1], args)

    def to_json(self) -> dict[str, Any]:
        return {"role": self.role, "verb": self.verb, "args": thaw(self.args)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Action:
        return cls(str(data["role"]), str(data["verb"]), data.get("args") or {})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and self.text() == other.text()

    def __hash__(self) -> int:
        return hash(self.text())

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Action({self.text()!r})"


@dataclass(frozen=True, eq=False)
class Event:
    """What the rules made of an action, named in the past tense: `BlockMoved`, `CastleFell`."""

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "data", freeze(self.data))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, **thaw(self.data)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        rest = {k: v for k, v in data.items() if k != "type"}
        return cls(str(data["type"]), rest)

    def text(self) -> str:
        return f"{self.type} {canonical_json(self.data)}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and self.text() == other.text()

    def __hash__(self) -> int:
        return hash(self.text())

    def __repr__(self) -> str:
        return f"Event({self.text()!r})"


@dataclass(frozen=True)
class Outcome:
    """How a game ended (as python-chess's `Outcome`): a winner or None for a draw, and why."""

    termination: str
    winner: str | None
    rule: str

    def to_json(self) -> dict[str, Any]:
        return {"termination": self.termination, "winner": self.winner, "rule": self.rule}
