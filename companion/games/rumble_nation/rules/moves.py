"""What the tactic and daimyo cards share: reading their arguments strictly, and moving soldiers
only once every move of the card is known to be possible (a card is carried out in full or not
at all: 5.1.2, 8.3)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from companion.engine.core import IllegalAction, Sentence, refuse_unknown_args
from companion.games.rumble_nation.rules.context import Batch
from companion.games.rumble_nation.rules.names import card_name, joined, player_said, region_name

__all__ = ["Move", "apply_moves", "check_card_allowed", "entries", "known_keys", "no_more_cards",
           "opponent", "region", "whole"]

Move = dict[str, Any]
"""One group of soldiers moved: `{"player", "from", "to", "soldiers"}` (`reserve` for either
end when they come from or go back to the player's reserve)."""


def known_keys(args: Mapping[str, Any], allowed: Iterable[str], rule: str, what: str) -> None:
    """Refuse an argument the action does not take, naming it: a misspelt key (`form` for
    `from`) must not pass silently as if it had been left out."""
    refuse_unknown_args(args, allowed, rule, what)


def region(batch: Batch, value: Any, rule: str) -> str:
    if not isinstance(value, str) or value not in batch.kit.neighbours:
        raise IllegalAction(rule, Sentence(
            "there is no such region on the map (regions: {regions})",
            regions=", ".join(sorted(region_name(batch.kit, r) for r in batch.kit.neighbours))))
    return value


def whole(value: Any, rule: str, low: int = 1, high: int = 99) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise IllegalAction(rule, Sentence(
            "a number of soldiers from {low} to {high}", low=low, high=high))
    return value


def opponent(batch: Batch, player: str, value: Any, rule: str) -> str:
    if not isinstance(value, str) or value not in batch.state.players or value == player:
        raise IllegalAction(rule, Sentence(
            "{player} is not one of your opponents ({opponents})", player=player_said(value),
            opponents=joined([player_said(p) for p in batch.state.players if p != player])))
    return value


def entries(value: Any, keys: Iterable[str], rule: str, what: str, most: int
            ) -> list[Mapping[str, Any]]:
    """A list of 1 to `most` small mappings, each taking only `keys` (a card's `moves`)."""
    if not isinstance(value, tuple) or not 1 <= len(value) <= most \
            or not all(isinstance(v, Mapping) for v in value):
        raise IllegalAction(rule, Sentence("{what}: a list of 1 to {most} entries",
                                           what=Sentence(what), most=most))
    for entry in value:
        known_keys(entry, keys, rule, Sentence("each of {what}", what=Sentence(what)))
    return list(value)


def check_card_allowed(batch: Batch, player: str, used: frozenset[str], what: str,
                       rule: str) -> None:
    """A tactic or daimyo card (`what`, said: "a tactic card"): once per game, before any
    player has placed all his soldiers (he then holds a katana), and instead of rolling the
    dice (5.1.2, 8.3)."""
    state = batch.state
    if player in used:
        raise IllegalAction(rule, Sentence("each player uses {card} once per game", card=what))
    if state.katana:
        raise IllegalAction(rule, no_more_cards(state.katana))
    if state.dice:
        raise IllegalAction(rule, "the dice are rolled: you must deploy soldiers this turn")


def no_more_cards(katana: Mapping[str, int]) -> Sentence:
    """Why no card may be played once a player holds a katana (5.1.2, 7), naming who does."""
    return Sentence("no more cards once a player has placed all his soldiers ({players} has)",
                    players=joined([player_said(p) for p in sorted(katana)]))


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
            place = Sentence("in {player}'s reserve", player=player_said(player)) \
                if where == "reserve" else Sentence("in {region}",
                                                    region=region_name(batch.kit, where))
            raise IllegalAction(rule, Sentence(
                "{card} needs {count} of {player}'s soldiers {place}; there is {have}"
                if have == 1 else
                "{card} needs {count} of {player}'s soldiers {place}; there are {have}",
                card=card_name(card), count=count, player=player_said(player), place=place,
                have=have))
    extra = {"daimyo": dict(daimyo)} if daimyo else {}
    batch.emit("UnitsMoved", card=card, moves=list(moves), **extra, rule=rule)
