"""What the tactic and daimyo cards share: reading their arguments strictly, and moving soldiers
only once every move of the card is known to be possible (a card is carried out in full or not
at all: 5.1.2, 8.3)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.engine.core import IllegalAction, refuse_unknown_args
from companion.games.rumble_nation.rules.context import Batch
from companion.games.rumble_nation.rules.words import card_name, region_name

__all__ = ["Move", "apply_moves", "check_card_allowed", "entries", "known_keys", "opponent",
           "region", "whole"]

Move = dict[str, Any]
"""One group of soldiers moved: `{"player", "from", "to", "soldiers"}` (`reserve` for either
end when they come from or go back to the player's reserve)."""


def known_keys(args: Mapping[str, Any], allowed: Iterable[str], rule: str, what: str) -> None:
    """Refuse an argument the action does not take, naming it: a misspelt key (`form` for
    `from`) must not pass silently as if it had been left out."""
    refuse_unknown_args(args, allowed, rule, what)


def region(batch: Batch, value: Any, rule: str) -> str:
    if not isinstance(value, str) or value not in batch.kit.neighbours:
        raise IllegalAction(rule, f"there is no region {value!r} on the map (regions: "
                            f"{', '.join(sorted(batch.kit.neighbours))})")
    return value


def whole(value: Any, rule: str, low: int = 1, high: int = 99) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise IllegalAction(rule, f"a number of soldiers from {low} to {high}, not {value!r}")
    return value


def opponent(batch: Batch, player: str, value: Any, rule: str) -> str:
    if not isinstance(value, str) or value not in batch.state.players or value == player:
        raise IllegalAction(rule, f"{value!r} is not one of your opponents "
                            f"({', '.join(p for p in batch.state.players if p != player)})")
    return value


def entries(value: Any, keys: Iterable[str], rule: str, what: str, most: int
            ) -> list[Mapping[str, Any]]:
    """A list of 1 to `most` small mappings, each taking only `keys` (a card's `moves`)."""
    if not isinstance(value, tuple) or not 1 <= len(value) <= most \
            or not all(isinstance(v, Mapping) for v in value):
        raise IllegalAction(rule, f"{what}: a list of 1 to {most} entries")
    for entry in value:
        known_keys(entry, keys, rule, f"each of {what}")
    return list(value)


def check_card_allowed(batch: Batch, player: str, used: frozenset[str], what: str,
                       rule: str) -> None:
    """A tactic or daimyo card: once per game, before any player has placed all his soldiers
    (he then holds a katana), and instead of rolling the dice (5.1.2, 8.3)."""
    state = batch.state
    if player in used:
        raise IllegalAction(rule, f"each player uses {what} once per game")
    if state.katana:
        raise IllegalAction(rule, f"no more cards once a player has placed all his soldiers "
                            f"({', '.join(sorted(state.katana))} has)")
    if state.dice:
        raise IllegalAction(rule, "the dice are rolled: you must deploy soldiers this turn")


def apply_moves(batch: Batch, moves: Sequence[Move], card: str, rule: str,
                daimyo: Mapping[str, str] | None = None) -> None:
    """Check every move of a card can be done, then emit them as one event (with the daimyo
    moved too, for the cards that move it: 8.3)."""
    needed: dict[tuple[str, str], int] = {}
    for move in moves:
        key = (move["from"], move["player"])
        needed[key] = needed.get(key, 0) + move["soldiers"]
    for (where, player), count in needed.items():
        have = batch.state.reserve.get(player, 0) if where == "reserve" \
            else batch.state.count(where, player)
        if have < count:
            place = f"{player}'s reserve" if where == "reserve" \
                else region_name(batch.kit, where)
            raise IllegalAction(rule, f"{card_name(card)} needs {count} of {player}'s "
                                f"soldiers in {place}; there {'is' if have == 1 else 'are'} "
                                f"{have}")
    extra = {"daimyo": dict(daimyo)} if daimyo else {}
    batch.emit("UnitsMoved", card=card, moves=list(moves), **extra, rule=rule)
