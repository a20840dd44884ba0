"""What the camera tells the Barletta referee, and what the record says the table should show.

A knight's counter carries one tag on each face: the front (the knight mounted) and the back
(on foot). Only the face that is up can be seen, so the tag read says both where the knight
stands and which face is up; a flip is one tag going and the other appearing in the same zone.
The zones are the field's hexes (by the rulebook's numbers, `1807`) and the mat's areas:
each side's reserve (knights not yet deployed, I1), camp (F2, L2) and Surrendered table
(captured and dead knights, H4.2, H5), and the dice tray.

This module is the contract between the reader (`reader.py`: pixels to tag zones and dice) and
the referee (`referee.py`: changes to actions); neither imports the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.games.barletta.rules.state import CAMP, BState
from companion.table.registry import TableRegistry
from companion.vision.table import TableDiff

__all__ = ["DICE_TRAY", "FACES", "FieldDiff", "FieldSnapshot", "area", "expected_zones",
           "knight_of", "piece_id", "simulated_registry", "zone_of"]

FACES = ("mounted", "foot")
"""A counter's front and back (A: the front shows the knight on horseback)."""
DICE_TRAY = "dice_tray"
"""The mat's area where dice are thrown and read."""


def piece_id(knight: str, mounted: bool) -> str:
    """The registry's name for one face of a knight's counter (`fieramosca@mounted`)."""
    return f"{knight}@{FACES[0] if mounted else FACES[1]}"


def knight_of(piece: str) -> tuple[str, bool]:
    """The knight and whether the face is the mounted one, from a registry piece id."""
    knight, _, face = piece.partition("@")
    if face not in FACES:
        raise ValueError(f"{piece!r} is not a face of a Barletta counter")
    return knight, face == FACES[0]


def simulated_registry(knights: list[str]) -> TableRegistry:
    """The simulated set: each knight's front tag then its back tag, in the kit's order
    (tags 10 and 11 on the first knight, 12 and 13 on the second, ...)."""
    return TableRegistry.in_kit_order(piece_id(k, m) for k in knights for m in (True, False))


def area(kind: str, side: str) -> str:
    """A mat area's zone id: `reserve_italians`, `camp_french`, `surrendered_italians`."""
    return f"{kind}_{side}"


def zone_of(state: BState, knight: str, side: str) -> str:
    """Where the record says `knight`'s counter lies: a hex, or one of its side's areas."""
    k = state.knights[knight]
    if k.out:
        return area("surrendered", side)
    if k.where == CAMP:
        return area("camp", side)
    if not k.where:
        return area("reserve", side)
    return k.where


def expected_zones(state: BState, registry: TableRegistry,
                   side_of: Mapping[str, str]) -> dict[int, str]:
    """The tags the camera should see, by zone: each knight's face that is up."""
    tags = registry.tags
    seen: dict[int, str] = {}
    for knight, k in state.knights.items():
        tag = tags.get(piece_id(knight, k.mounted))
        if tag is not None:
            seen[tag] = zone_of(state, knight, side_of[knight])
    return seen


@dataclass(frozen=True)
class FieldSnapshot:
    """The table as it stands, stable: each visible tag's zone, and the dice in the tray."""

    zones: Mapping[int, str]
    dice: tuple[int, ...] | None = ()
    """Faces in the tray, smallest first; () an empty tray; None: not read (covered, or a
    person said what the table shows and the tray was not looked at since)."""


@dataclass(frozen=True)
class FieldDiff:
    """What changed between two stable snapshots (`before` None: the first one)."""

    before: FieldSnapshot | None
    after: FieldSnapshot

    @property
    def tags(self) -> TableDiff:
        """Tags moved, appeared (a counter put down or flipped face up) and gone."""
        before = self.before.zones if self.before else {}
        after = self.after.zones
        return TableDiff({t: (before[t], after[t]) for t in before
                          if t in after and before[t] != after[t]},
                         {t: z for t, z in after.items() if t not in before},
                         {t: z for t, z in before.items() if t not in after})

    @property
    def thrown(self) -> tuple[int, ...] | None:
        """The dice now in the tray when they changed (a new throw), else None."""
        was = self.before.dice if self.before else ()
        if self.after.dice and self.after.dice != was:
            return self.after.dice
        return None

    def __bool__(self) -> bool:
        return bool(self.tags) or self.thrown is not None
