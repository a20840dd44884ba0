"""The batch of events one action produces (the engine core's `Batch`), with what the rules
need at hand: the kit, the options, and a few readings of the position shared by the
chapters."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine import core
from companion.engine.core import IllegalAction, Sentence
from companion.games.barletta.kit import SIDES, BarlettaKit
from companion.games.barletta.rules.state import BState, evolve

__all__ = ["Batch", "dice", "enemy", "knight_arg", "name"]


def enemy(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


def name(kit: BarlettaKit, knight: str) -> str:
    """A knight as the rulebook writes it (Fieramosca, de Sachet)."""
    found = kit.by_id.get(knight)
    return found.name if found is not None else str(knight)


class Batch(core.Batch[BState]):
    """Barletta's events for one action, with the kit and the options (M1, M2)."""

    def __init__(self, kit: BarlettaKit, state: BState, options: Mapping[str, Any]) -> None:
        super().__init__(state, evolve)
        self.kit = kit
        self.options = options

    def side(self, knight: str) -> str:
        return self.kit.side_of[knight]

    def vc(self, knight: str) -> int:
        return self.kit.vc(knight)

    def out_of_action(self, side: str) -> int:
        """A side's knights captured or killed (D1, D2: the Surrended table)."""
        return len(self.state.gone.get(side, ()))


def knight_arg(batch: Batch, value: Any, side: str, rule: str) -> str:
    """A knight of `side` still in play, named by its id; IllegalAction otherwise."""
    if not isinstance(value, str) or value not in batch.kit.by_id:
        raise IllegalAction(rule, Sentence("there is no such knight"))
    if batch.side(value) != side:
        raise IllegalAction(rule, Sentence("{knight} is not one of your knights",
                                           knight=name(batch.kit, value)))
    if batch.state.knights[value].out:
        raise IllegalAction(rule, Sentence("{knight} is out of the fight",
                                           knight=name(batch.kit, value)))
    return value


def dice(value: Any, count: int, rule: str) -> tuple[int, ...]:
    """`count` dice, each 1 to 6."""
    if not isinstance(value, tuple) or len(value) != count or not all(
            isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in value):
        raise IllegalAction(rule, Sentence("{count} dice, each from 1 to 6", count=count))
    return value
