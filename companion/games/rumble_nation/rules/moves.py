"""Moving soldiers for tactic and daimyo cards: each card's move, checked in full (5.1 ②)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.engine.core import IllegalAction
from companion.games.rumble_nation.rules.context import Batch

__all__ = ["Move", "apply_moves", "check_card_allowed", "region", "whole"]

Move = dict[str, Any]


def region(batch: Batch, value: Any, rule: str) -> str:
    if not isinstance(value, str) or value not in batch.kit.neighbours:
        raise IllegalAction(rule, f"no region {value!r}")
    return value


def whole(value: Any, rule: str, low: int = 1, high: int = 99) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise IllegalAction(rule, f"a number of soldiers from {low} to {high}, not {value!r}")
    return value


def check_card_allowed(batch: Batch, player: str, used: frozenset[str], what: str,
                       rule: str) -> None:
    """A tactic or daimyo card: once per game, before any player has placed all his soldiers
    (he then holds a katana), and instead of rolling the dice (5.1 ②, 8 ③)."""
    state = batch.state
    if player in used:
        raise IllegalAction(rule, f"each player uses {what} once per game")
    if state.katana:
        raise IllegalAction(rule, f"no {what}s once any player has placed all his soldiers")
    if state.dice:
        raise IllegalAction(rule, "the dice are rolled: deploy soldiers this turn")


def apply_moves(batch: Batch, moves: Sequence[Move], card: str, rule: str) -> None:
    """Check every soldier move of a card can be done, then emit them as one event."""
    needed: dict[tuple[str, str], int] = {}
    for move in moves:
        if move["from"] != "reserve":
            key = (move["from"], move["player"])
            needed[key] = needed.get(key, 0) + move["soldiers"]
    for (where, player), count in needed.items():
        if batch.state.count(where, player) < count:
            raise IllegalAction(rule, f"{card}: {player} has {batch.state.count(where, player)} "
                                f"soldier(s) in {where}, not {count}")
    from_reserve: dict[str, int] = {}
    for move in moves:
        if move["from"] == "reserve":
            from_reserve[move["player"]] = from_reserve.get(move["player"], 0) + move["soldiers"]
    for player, count in from_reserve.items():
        if batch.state.reserve.get(player, 0) < count:
            raise IllegalAction(rule, f"{card}: {player} has {batch.state.reserve.get(player, 0)} "
                                "soldier(s) in reserve")
    batch.emit("UnitsMoved", card=card, moves=list(moves), rule=rule)
