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

from companion.engine.core.sentence import Sentence

__all__ = ["Action", "Event", "Outcome", "Ranking", "canonical_json", "freeze", "rank", "thaw"]


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


Ranking = tuple[tuple[str, ...], ...]
"""Places, best first; the players level with each other share one place."""


def rank(keys: Mapping[str, Any]) -> Ranking:
    """Places from each player's key (higher is better: points, then a tie-break), the
    players with equal keys in one place, in the order `keys` names them."""
    places: dict[Any, list[str]] = {}
    for role, key in keys.items():
        places.setdefault(key, []).append(role)
    return tuple(tuple(places[key]) for key in sorted(places, reverse=True))


@dataclass(frozen=True)
class Outcome:
    """How a game ended (as python-chess's `Outcome(termination, winner)`), and why.

    `winner` is the one player who won, None when nobody won alone. `winners` names every
    player of a shared victory (Shogun's players level on points and war chests): empty only
    for a draw, where every player is level and nobody lost. `ranking` is the order the rules
    give the players (best first, the players level in one place); empty where a game names
    no order. `Outcome(termination, winner, rule)` still reads as before: its `winners` is
    the winner alone.
    """

    termination: str
    winner: str | None
    rule: str
    winners: tuple[str, ...] = ()
    ranking: Ranking = ()

    def __post_init__(self) -> None:
        winners = tuple(self.winners) or ((self.winner,) if self.winner else ())
        object.__setattr__(self, "winners", winners)
        object.__setattr__(self, "ranking", tuple(tuple(p) for p in self.ranking))
        if self.winner is not None and winners != (self.winner,):
            raise ValueError(f"the winner {self.winner!r} is not the only one of {winners!r}")

    @classmethod
    def ranked(cls, termination: str, rule: str, ranking: Ranking) -> Outcome:
        """The outcome of a game the rules rank: the first place wins (alone, or shared with
        those level with it); every player in the first place is a draw."""
        places = tuple(tuple(place) for place in ranking if place)
        winners = places[0] if len(places) > 1 else ()
        return cls(termination, winners[0] if len(winners) == 1 else None, rule, winners,
                   places)

    @classmethod
    def between(cls, termination: str, winner: str | None, rule: str,
                sides: tuple[str, ...]) -> Outcome:
        """A game of sides that one side wins and the others lose (or, None, a draw)."""
        if winner is None:
            return cls.ranked(termination, rule, (sides,))
        return cls.ranked(termination, rule,
                          ((winner,), tuple(s for s in sides if s != winner)))

    @property
    def draw(self) -> bool:
        """Nobody won: every player level."""
        return not self.winners

    def place(self, role: str) -> int | None:
        """The role's place (1 is first), None where the rules rank nobody."""
        for n, place in enumerate(self.ranking, start=1):
            if role in place:
                return n
        return None

    def sentence(self, names: Mapping[str, str] | None = None) -> Sentence:
        """The outcome in words, each player by `names` (their role otherwise): "Red wins:
        victory points (rule 7)", "Red and Blue share the victory: ...", "A draw: ..."."""
        said = [str((names or {}).get(role, role)) for role in self.winners]
        how = {"how": self.termination, "rule": self.rule}
        if not said:
            return Sentence("A draw: {how} (rule {rule})", **how)
        if len(said) == 1:
            return Sentence("{winner} wins: {how} (rule {rule})", winner=said[0], **how)
        return Sentence("{winners} and {last} share the victory: {how} (rule {rule})",
                        winners=", ".join(said[:-1]), last=said[-1], **how)

    def to_json(self) -> dict[str, Any]:
        return {"termination": self.termination, "winner": self.winner, "rule": self.rule,
                "winners": list(self.winners), "ranking": [list(p) for p in self.ranking]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        """`to_json` read back; the data of an older companion (no `winners`, no `ranking`)
        too."""
        return cls(str(data["termination"]), data.get("winner"), str(data["rule"]),
                   tuple(data.get("winners") or ()),
                   tuple(tuple(p) for p in data.get("ranking") or ()))
