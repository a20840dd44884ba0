"""The whole Sekigahara game state as one immutable value, and how each event changes it.

Where a block is, who controls what, each side's cards as far as the engine knows them, and
where the week stands. Events are folded in by `evolve`; nothing else changes a state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Literal

from companion.engine.core import Event, Outcome

__all__ = [
    "BAG", "ELIMINATED", "Hand", "MovementPhase", "Pending", "SekigaharaState", "evolve",
]

BAG = "bag"
"""Where a block is before it is drawn (each side has its own bag, 5.1)."""
ELIMINATED = "eliminated"
"""Beside the board, face up, never to return (8.7.3)."""

Phase = Literal["setup", "reinforcements", "bid", "first_player", "movement", "combat", "over"]
Level = Literal["none", "minimal", "limited", "total"]


def frozen_map(data: Mapping[Any, Any] | None = None) -> Mapping[str, Any]:
    """A read-only mapping: states are values, never changed in place."""
    return MappingProxyType(dict(data or {}))


@dataclass(frozen=True)
class Hand:
    """One side's cards as the engine knows them (3.3).

    Full-knowledge mode knows the hand's cards (`cards`); table mode knows only how many there
    are (`cards` is None). Both know the discard pile, since discarded and played cards are
    public at the moment they are played. The draw pile is what is left.
    """

    count: int = 0
    cards: frozenset[str] | None = frozenset()
    discard: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Pending:
    """A draw the rules call for that chance (bag, deck) must resolve before play goes on."""

    kind: Literal["blocks", "cards"]
    side: str
    count: int
    to: str | None = None
    """Where drawn blocks go: a set-up location or a recruitment box."""
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "side": self.side, "count": self.count, "to": self.to,
                "reason": self.reason}


@dataclass(frozen=True)
class MovementPhase:
    """What the active side has done so far in its movement phase (7)."""

    level: Level | None = None
    moves: int = 0
    recruited: bool = False
    sources: frozenset[str] = frozenset()
    """Locations a group has moved from (each stack moves once, 7.1, 7.3.1)."""
    roads: frozenset[frozenset[str]] = frozenset()
    """Road segments used this phase (7.3.1)."""
    moved: frozenset[str] = frozenset()
    """Blocks that took part in a move (7.3.1)."""
    arrived: frozenset[str] = frozenset()
    """Blocks recruited or brought from the Mori box this turn: they may not move (7.2, 9.3)."""


@dataclass(frozen=True)
class SekigaharaState:
    week: int = 1
    turn: Literal["A", "B"] = "A"
    phase: Phase = "setup"
    first: str | None = None
    """The side that moves first in both turns of this week (6.3)."""
    active: str | None = None
    second_half: bool = False
    """False during the first player's phases of a turn, True during the second's (6.4)."""
    positions: Mapping[str, str] = field(default_factory=frozen_map)
    """Block id -> location id, box id, BAG or ELIMINATED."""
    disks: Mapping[str, str] = field(default_factory=frozen_map)
    """Disk id -> its castle's location, while the disk survives (3.4)."""
    revealed: frozenset[str] = frozenset()
    """Blocks whose identity the opponent has been shown and has not lost track of."""
    resources: Mapping[str, str] = field(default_factory=frozen_map)
    """Resource location -> controlling side; absent while nobody has entered it (4.2)."""
    castles: Mapping[str, str] = field(default_factory=frozen_map)
    """Castle location -> controlling side (4.3)."""
    hands: Mapping[str, Hand] = field(default_factory=frozen_map)
    pending: tuple[Pending, ...] = ()
    owed_discards: Mapping[str, int] = field(default_factory=frozen_map)
    """Cards each side must still discard in the reinforcement phase (6.2)."""
    bids: Mapping[str, str] = field(default_factory=frozen_map)
    """Bid cards placed face down and not yet revealed (6.3)."""
    bid_winner: str | None = None
    movement: MovementPhase = MovementPhase()
    outcome: Outcome | None = None

    def blocks_at(self, where: str, side: str | None = None,
                  owner: Mapping[str, str] | None = None) -> list[str]:
        """Blocks at a location or box, optionally only `side`'s (needs the `owner` map)."""
        found = [b for b, at in self.positions.items() if at == where]
        if side is not None and owner is not None:
            found = [b for b in found if owner[b] == side]
        return sorted(found)


# --- evolve: one small function per event type -------------------------------------------


def _set(state: SekigaharaState, **changes: Any) -> SekigaharaState:
    return replace(state, **changes)


def _place(state: SekigaharaState, moves: Mapping[str, str], *,
           reveal: bool = False, hide: frozenset[str] = frozenset()) -> SekigaharaState:
    positions = frozen_map({**state.positions, **moves})
    revealed = (state.revealed - hide) | (frozenset(moves) if reveal else frozenset())
    return replace(state, positions=positions, revealed=revealed)


def _blocks_placed(state: SekigaharaState, e: Event) -> SekigaharaState:
    to = e.data["to"]
    return _place(state, {b: to for b in e.data["blocks"]}, reveal=bool(e.data.get("shown")))


def _group_move_began(state: SekigaharaState, e: Event) -> SekigaharaState:
    """Once blocks leave a stack, the opponent cannot tell which went where (3.1)."""
    source = e.data["at"]
    hide = frozenset(b for b, at in state.positions.items() if at == source)
    return replace(state, revealed=state.revealed - hide)


def _stack_marched(state: SekigaharaState, e: Event) -> SekigaharaState:
    return _place(state, {b: e.data["to"] for b in e.data["blocks"]})


def _group_moved(state: SekigaharaState, e: Event) -> SekigaharaState:
    paths = e.data["paths"]
    source = e.data["from"]
    roads = {frozenset((a, b)) for path in paths.values()
             for a, b in zip((source, *path[:-1]), path, strict=True)}
    mp = state.movement
    movement = replace(mp, moves=mp.moves + 1, sources=mp.sources | {source},
                       roads=mp.roads | roads, moved=mp.moved | frozenset(paths))
    return replace(state, movement=movement)


def _recruited(state: SekigaharaState, e: Event) -> SekigaharaState:
    placed = _place(state, {b: e.data["to"] for b in e.data["blocks"]},
                    reveal=bool(e.data["shown"]))
    mp = state.movement
    return replace(placed, movement=replace(mp, recruited=True,
                                            arrived=mp.arrived | set(e.data["blocks"])))


def _mori_arrived(state: SekigaharaState, e: Event) -> SekigaharaState:
    placed = _place(state, {b: e.data["to"] for b in e.data["blocks"]}, reveal=True)
    mp = state.movement
    return replace(placed, movement=replace(mp, arrived=mp.arrived | set(e.data["blocks"])))


def _eliminated(state: SekigaharaState, e: Event) -> SekigaharaState:
    placed = _place(state, {b: ELIMINATED for b in e.data["blocks"]})
    gone = set(e.data.get("disks", ()))
    disks = frozen_map({d: at for d, at in state.disks.items() if d not in gone})
    return replace(placed, disks=disks, revealed=placed.revealed | set(e.data["blocks"]))


def _resource(state: SekigaharaState, e: Event) -> SekigaharaState:
    resources = {**state.resources, e.data["location"]: e.data["side"]}
    return _set(state, resources=frozen_map(resources))


def _castle(state: SekigaharaState, e: Event) -> SekigaharaState:
    return _set(state, castles=frozen_map({**state.castles, e.data["location"]: e.data["side"]}))


def _hand(state: SekigaharaState, side: str, hand: Hand) -> SekigaharaState:
    return _set(state, hands=frozen_map({**state.hands, side: hand}))


def _cards_drawn(state: SekigaharaState, e: Event) -> SekigaharaState:
    side, hand = e.data["side"], state.hands[e.data["side"]]
    cards = None if hand.cards is None else hand.cards | set(e.data.get("cards", ()))
    new = _hand(state, side, replace(hand, count=hand.count + e.data["count"], cards=cards))
    return _resolve_pending(new, "cards", side)


def _cards_discarded(state: SekigaharaState, e: Event) -> SekigaharaState:
    side, hand = e.data["side"], state.hands[e.data["side"]]
    gone = frozenset(e.data["cards"])
    cards = None if hand.cards is None else hand.cards - gone
    new = _hand(state, side, Hand(hand.count - len(gone), cards, hand.discard | gone))
    owed = state.owed_discards.get(side, 0)
    if e.data.get("reason") == "reinforcements" and owed:
        new = _set(new, owed_discards=frozen_map({**state.owed_discards, side: 0}))
    return new


def _reshuffled(state: SekigaharaState, e: Event) -> SekigaharaState:
    side = e.data["side"]
    return _hand(state, side, replace(state.hands[side], discard=frozenset()))


def _blocks_drawn(state: SekigaharaState, e: Event) -> SekigaharaState:
    placed = _place(state, {b: e.data["to"] for b in e.data["blocks"]})
    return _resolve_pending(placed, "blocks", e.data["side"], e.data["to"])


def _resolve_pending(state: SekigaharaState, kind: str, side: str,
                     to: str | None = None) -> SekigaharaState:
    for index, item in enumerate(state.pending):
        if item.kind == kind and item.side == side and (to is None or item.to == to):
            return replace(state, pending=state.pending[:index] + state.pending[index + 1:])
    return state


def _draws_due(state: SekigaharaState, e: Event) -> SekigaharaState:
    items = tuple(Pending(**item) for item in e.data["draws"])
    return replace(state, pending=state.pending + items)


def _phase_began(state: SekigaharaState, e: Event) -> SekigaharaState:
    d = e.data
    changes: dict[str, Any] = {"phase": d["phase"]}
    for key in ("week", "turn", "active", "second_half"):
        if key in d:
            changes[key] = d[key]
    if d["phase"] == "movement":
        changes["movement"] = MovementPhase()
    if d["phase"] == "reinforcements":
        changes["owed_discards"] = frozen_map(d["discards"])
    if d["phase"] == "bid":
        changes["bids"], changes["bid_winner"] = frozen_map({}), None
    return replace(state, **changes)


def _bid_placed(state: SekigaharaState, e: Event) -> SekigaharaState:
    return _set(state, bids=frozen_map({**state.bids, e.data["side"]: e.data["card"]}))


def _bids_revealed(state: SekigaharaState, e: Event) -> SekigaharaState:
    return _set(state, bids=frozen_map({}), bid_winner=e.data["winner"])


def _first_chosen(state: SekigaharaState, e: Event) -> SekigaharaState:
    return _set(state, first=e.data["first"])


def _level_chosen(state: SekigaharaState, e: Event) -> SekigaharaState:
    return _set(state, movement=replace(state.movement, level=e.data["level"]))


def _leader_declared(state: SekigaharaState, e: Event) -> SekigaharaState:
    return _set(state, revealed=state.revealed | {e.data["block"]})


def _game_ended(state: SekigaharaState, e: Event) -> SekigaharaState:
    d = e.data
    return _set(state, phase="over", outcome=Outcome(d["termination"], d["winner"], d["rule"]))


def _nothing(state: SekigaharaState, e: Event) -> SekigaharaState:
    return state


_EVOLVE = {
    "BlocksPlaced": _blocks_placed,
    "BlocksDrawn": _blocks_drawn,
    "DrawsDue": _draws_due,
    "CardsDrawn": _cards_drawn,
    "CardsDiscarded": _cards_discarded,
    "DiscardReshuffled": _reshuffled,
    "PhaseBegan": _phase_began,
    "ReinforcementsDue": _nothing,
    "BidPlaced": _bid_placed,
    "BidsRevealed": _bids_revealed,
    "FirstPlayerChosen": _first_chosen,
    "MovementLevelChosen": _level_chosen,
    "LeaderDeclared": _leader_declared,
    "GroupMoveBegan": _group_move_began,
    "StackMarched": _stack_marched,
    "GroupMoved": _group_moved,
    "BlocksRecruited": _recruited,
    "MoriArrived": _mori_arrived,
    "Overrun": _eliminated,
    "ResourceControlChanged": _resource,
    "CastleControlChanged": _castle,
    "VictoryPointsCounted": _nothing,
    "GameEnded": _game_ended,
}


def evolve(state: SekigaharaState, event: Event) -> SekigaharaState:
    """The state after `event`; KeyError for an event type Sekigahara never produces."""
    return _EVOLVE[event.type](state, event)
