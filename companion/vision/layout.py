"""Where a tidy player puts each block: one stack per location, apart from the next stack.

The simulated table needs blocks laid out the way people lay them out: a location's first
block on the location, the next ones touching its stack, growing away from other stacks and
never closer than `apart` mm to another location's blocks, so a reader (human or
`vision.stacks`) can tell the stacks apart; blocks in a box or an area fill it row by row.
A block stays where it is until it is carried somewhere else.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.vision.geometry import Geometry, Zone
from companion.vision.synth import Scene

__all__ = ["Layout", "LayoutFull"]

Point = tuple[float, float]
SHIFTS = (0.0, -0.25, 0.25, -0.5, 0.5)
NEIGHBOURS = tuple(offset for shift in SHIFTS
                   for offset in ((1.0, shift), (-1.0, shift), (shift, 1.0), (shift, -1.0)))
"""A stack grows by a block beside one of its blocks, squarely or shifted by up to half a
block: blocks are squares standing square to the map, and a corner-to-corner neighbour would be
too far to read as one stack."""


class LayoutFull(Exception):
    """No place for a block in its zone that keeps the stacks apart."""


@dataclass
class Layout:
    geometry: Geometry
    pitch: float = 0.0
    """Centre distance of touching blocks (mm); 0: 1.45 tags (the tag, its quiet zone, rim)."""
    apart: float = 0.0
    """Closest two blocks of different stacks may stand (mm); 0: 1.5 pitches."""
    reach: float = 110.0
    """How far from its location a big stack may spread (mm)."""
    crowd: bool = False
    """When no tidy place is left, put the block down touching its stack anyway (as a player
    would) rather than raise LayoutFull; counted in `crowded`."""
    crowded: int = 0
    placed: dict[int, tuple[str, Point]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.pitch = self.pitch or self.geometry.tag_mm * 1.45
        self.apart = self.apart or self.pitch * 1.5

    @property
    def core(self) -> float:
        """Around each location's centre no other location's block stands (mm): a block put
        down on a location is then always a move there, and a stack's anchor is its own.
        Wider than `apart`, so a location's centre is always free."""
        return self.apart + 0.5

    @property
    def link(self) -> float:
        """The distance up to which two blocks are read as one stack (`vision.stacks`)."""
        return self.pitch * 1.2

    def arrange(self, zones: Mapping[int, str]) -> Scene:
        """The table with each tag in `zones`: blocks already in their zone stay put; blocks
        gone are taken away; carried blocks are put down, in tag order."""
        carried = {t: p[1] for t, p in self.placed.items() if zones.get(t) != p[0]}
        self.placed = {t: p for t, p in self.placed.items() if t not in carried}
        for tag, zone in sorted(zones.items()):
            if tag not in self.placed:
                spot = self._spot(self.geometry.zone(zone), carried.get(tag))
                self.placed[tag] = (zone, spot)
        return Scene(dict(self.placed))

    def _spot(self, zone: Zone, was: Point | None) -> Point:
        """The first free spot; never where the block stood (a carried block must be seen
        to move: a stack spilling towards its neighbour may stand where the other's grows)."""
        candidates = self._in_box(zone) if zone.rect is not None else self._on_map(zone)
        for level in (0, 1, 2) if self.crowd else (0,):
            for spot in candidates:
                if was is not None and math.hypot(spot[0] - was[0],
                                                  spot[1] - was[1]) < self.pitch:
                    continue
                if self._free(spot, zone, level):
                    self.crowded += level > 0
                    return spot
        raise LayoutFull(f"no room for another block at {zone.id} "
                         f"({sum(1 for z, _ in self.placed.values() if z == zone.id)} there)")

    def _in_box(self, zone: Zone) -> list[Point]:
        assert zone.rect is not None
        left, top, width, height = zone.rect
        margin = self.pitch / 2
        columns = int((width - 2 * margin) // self.pitch) + 1
        rows = int((height - 2 * margin) // self.pitch) + 1
        return [(left + margin + c * self.pitch, top + margin + r * self.pitch)
                for r in range(rows) for c in range(columns)]

    def _on_map(self, zone: Zone) -> list[Point]:
        """Spots touching the zone's stack, nearest the location first; on the location (or
        the nearest spot that is clearly its own) when the stack is empty."""
        own = [at for z, at in self.placed.values() if z == zone.id]
        cx, cy = zone.center
        if own:
            spots = {(x + dx * step, y + dy * step) for x, y in own for dx, dy in NEIGHBOURS
                     for step in (self.pitch, self.pitch * 1.15)
                     if math.hypot(dx, dy) * step < self.link - 1}  # touching: one stack
        else:
            reach = range(-3, 4)
            spots = {(cx + i * self.pitch / 2, cy + j * self.pitch / 2)
                     for i in reach for j in reach}
            spots = {s for s in spots if self.geometry.zone_of(*s) == zone.id
                     and math.hypot(s[0] - cx, s[1] - cy) < self.core - 1}  # the anchor
        near = [s for s in spots if math.hypot(s[0] - cx, s[1] - cy) <= self.reach]
        return sorted(near, key=lambda s: (math.hypot(s[0] - cx, s[1] - cy), s))

    def _free(self, spot: Point, zone: Zone, level: int = 0) -> bool:
        """Whether a block may stand at `spot`. Level 0: tidy. Crowded, level 1: on another
        location's ground, still apart from its stack; level 2: anywhere on the map out of the
        boxes and off other blocks (stacks may then touch and be read as one)."""
        width, height = self.geometry.board_mm
        if zone.rect is None and not (0 <= spot[0] <= width and 0 <= spot[1] <= height):
            return False
        if zone.rect is None and self.geometry.box_at(*spot) is not None:
            return False
        if level == 0 and zone.rect is None and any(
                math.hypot(spot[0] - z.center[0], spot[1] - z.center[1]) < self.core
                for z in self.geometry.locations if z.id != zone.id):
            return False  # another location's own ground: its first block goes there
        for other, at in self.placed.values():
            if max(abs(spot[0] - at[0]), abs(spot[1] - at[1])) < self.pitch * 0.99:
                return False  # squares standing square: they overlap unless a side apart
            stacks = other != zone.id and zone.rect is None \
                and self.geometry.zone(other).rect is None
            if level < 2 and stacks and math.hypot(spot[0] - at[0], spot[1] - at[1]) < self.apart:
                return False
        return True
