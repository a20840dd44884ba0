"""The facts the rules look up again and again, computed once from the kit and the options."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from companion.engine import core
from companion.games.sekigahara.kit import SIDES, SekigaharaKit
from companion.games.sekigahara.rules.state import SekigaharaState, evolve

__all__ = ["Batch", "Context", "other"]

Knowledge = Literal["full", "table"]
Edition = Literal["2016", "2011"]


def other(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


@dataclass(frozen=True)
class Context:
    """The kit plus the options: what never changes during a game."""

    kit: SekigaharaKit
    knowledge: Knowledge = "full"
    """`full`: the engine deals the cards (simulation); `table`: hands are unknown (3.3)."""
    edition: Edition = "2016"
    """Which rulebook decides where the 2016 and 2011 texts differ (docs/sekigahara.md)."""

    @cached_property
    def owner(self) -> Mapping[str, str]:
        return {b.id: b.side for b in self.kit.blocks}

    @cached_property
    def card_side(self) -> Mapping[str, str]:
        return {c.id: c.side for c in self.kit.cards}

    @cached_property
    def deck(self) -> Mapping[str, frozenset[str]]:
        return {side: frozenset(c.id for c in self.kit.cards if c.side == side) for side in SIDES}

    @cached_property
    def recruitment_box(self) -> Mapping[str, str]:
        return {box.side: box.id for box in self.kit.boxes if box.id.endswith("recruitment")}

    @property
    def mori_box(self) -> str:
        return "mori_box"

    @cached_property
    def capital(self) -> Mapping[str, str]:
        return {loc.capital: loc.id for loc in self.kit.locations if loc.capital}

    @cached_property
    def castle(self) -> Mapping[str, str]:
        """Castle location -> its allegiance (4.3)."""
        return {loc.id: loc.castle for loc in self.kit.locations if loc.castle}

    @cached_property
    def resources(self) -> frozenset[str]:
        return frozenset(loc.id for loc in self.kit.locations if loc.resource)

    @cached_property
    def clan_side(self) -> Mapping[str, str]:
        return {clan: side for side, clans in self.kit.clans.items() for clan in clans}

    @cached_property
    def recruits_at(self) -> Mapping[str, frozenset[str]]:
        """Clan -> the locations printed with its mon (7.2)."""
        places: dict[str, set[str]] = {}
        for loc in self.kit.locations:
            for clan in loc.recruitment:
                places.setdefault(clan, set()).add(loc.id)
        return {clan: frozenset(locs) for clan, locs in places.items()}

    @cached_property
    def commanders(self) -> Mapping[str, str]:
        """Side -> its commander's block: Ishida Mitsunari, Tokugawa Ieyasu (2.1, 3.2)."""
        return {b.side: b.id for b in self.kit.blocks if b.leader == 3}

    def is_location(self, place: Any) -> bool:
        return isinstance(place, str) and place in self.kit.location

    def name(self, place: str) -> str:
        """A location by its printed name; "that place" for what names none (a refusal
        never quotes an id or a value as it was sent)."""
        loc = self.kit.location.get(place)
        return loc.name if loc else core.Sentence("that place")


class Batch(core.Batch[SekigaharaState]):
    """Sekigahara's events for one action (2.1: a game over is at once)."""

    def __init__(self, state: SekigaharaState) -> None:
        super().__init__(state, evolve)
