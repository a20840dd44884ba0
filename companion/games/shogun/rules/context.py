"""The batch of events one action produces, folded as it goes, with the kit and the options
at hand, and the small lookups every chapter uses (who holds a special card, the round's
event's effects, what a player may enter)."""

from __future__ import annotations

from companion.engine import core
from companion.games.shogun.kit import FLAGS, Province, ShogunKit
from companion.games.shogun.rules.state import ShogunState, evolve

__all__ = ["CHESTS", "SPECIALS", "SPECIAL_NAMES", "Batch", "chest_value", "effect", "holder",
           "limited", "player_said", "province_said", "special_said", "usable"]

SPECIALS = ("chest", "rice", "six_armies", "attack", "defence")
"""The five special cards (Disponi le carte speciali): +1 chest at taxes, +1 rice, 6 armies
with deploy 5, +1 army attacking, +1 army defending."""
SPECIAL_NAMES = {"chest": "+1 war chest", "rice": "+1 rice", "six_armies": "6 armies",
                 "attack": "+1 army attacking", "defence": "+1 army defending"}
"""The special cards as the players name them (the words and the refusals)."""
PLAYERS = ("red", "blue", "yellow", "purple", "black")
"""The players' colours as the code spells them."""
CHESTS = tuple(f"chest_{n}" for n in range(5))
"""Each player's war-chest cards, 0 to 4 chests (Materiali giocatore)."""


def chest_value(card: str) -> int | None:
    """A war-chest card's chests; None for a province card."""
    return int(card[6:]) if card in CHESTS else None


def province_said(kit: ShogunKit, state: ShogunState, value: object) -> str:
    """A province a refusal names, by its printed name; "that province" for what names none
    (a refusal never quotes an id or a value as it was sent)."""
    found = kit.provinces(state.side).get(value) if isinstance(value, str) else None
    return found.name if found is not None else core.Sentence("that province")


def special_said(value: object) -> core.Sentence:
    """A special card a refusal names ("+1 rice"); "that card" for what names none."""
    return core.Sentence(SPECIAL_NAMES[value] if isinstance(value, str)
                         and value in SPECIAL_NAMES else "that card")


def player_said(role: str) -> core.Sentence:
    """A player a refusal names, by his colour as the players call each other ("Red",
    "Rosso"); the draws for the chance role, "that player" for anyone else."""
    if role in PLAYERS:
        return core.Sentence(role.capitalize())
    return core.Sentence("the draws" if role == core.CHANCE else "that player")


def holder(state: ShogunState, special: str) -> str | None:
    """Who took `special` this round."""
    for player, space in state.taken.items():
        if state.specials[space] == special:
            return player
    return None


def effect(kit: ShogunKit, state: ShogunState, kind: str, action: str | None = None) -> int:
    """The round's event's total change of `kind` (for `action`); 1 for a present flag
    (no_sea, temple_guard)."""
    if state.event is None:
        return 0
    total = 0
    for e in kit.event[state.event].effects:
        if e.kind == kind and (action is None or e.action == action):
            total += e.delta if kind not in FLAGS else 1
    return total


def limited(kit: ShogunKit, state: ShogunState, action: str, value: int) -> int:
    """A province card's rice or taxes within the round's event's bounds (at most / at least
    N: the transcribed events 7, 8, 10 and 11)."""
    if state.event is None:
        return value
    for e in kit.event[state.event].effects:
        if e.action == action and e.kind == "yield_max":
            value = min(value, e.delta)
        elif e.action == action and e.kind == "yield_min":
            value = max(value, e.delta)
    return value


def usable(kit: ShogunKit, side: str, players: int) -> dict[str, Province]:
    """The provinces in play: with 3 players, the 8 marked ones are not (2)."""
    return {p.id: p for p in kit.sides[side].provinces if players > 3 or not p.unused_with_3}


class Batch(core.Batch[ShogunState]):
    """Shogun's events for one action, with the kit and the provinces in play."""

    def __init__(self, kit: ShogunKit, state: ShogunState) -> None:
        super().__init__(state, evolve)
        self.kit = kit
        self.provinces = usable(kit, state.side, len(state.players))

    def neighbours(self, province: str) -> tuple[str, ...]:
        """Adjacent provinces in play, sea routes counting unless the round's event closes
        them (Dispiega / Sposta: sea routes are adjacent)."""
        sea = not effect(self.kit, self.state, "no_sea")
        return tuple(p for p in self.kit.neighbours(self.state.side, province, sea)
                     if p in self.provinces)
