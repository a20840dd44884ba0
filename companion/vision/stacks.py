"""Stacks read as stacks: the zone each block on the map belongs to.

On a crowded map a block's nearest location is not always its location: Kiyosu's blocks spill
towards Okazaki, 33 mm away, once three stand there. Players keep each location's blocks
together as one stack, apart from the next location's stack, and read the table by stacks; so
does the companion. Blocks whose centres are within `link` mm of each other form a stack. A
stack takes the zone its blocks that have not moved since the last stable snapshot stood in
(continuity: a block keeps its zone until it is carried). A stack whose blocks all moved (or a
first look at the table) takes the location of its anchor: the block nearest a location's
centre, since a player puts a location's first block on the location itself. Two kept zones in
one stack, a carried block put down on another location's centre while touching the stack, or
an anchor between two locations, make the stack ambiguous: never guessed. Blocks
in a box or an area (rectangles) are in it, whatever their neighbours.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from companion.vision.geometry import AMBIGUOUS, Geometry

__all__ = ["Placed", "assign_zones", "stacks"]

SETTLED_REACH = 2.5
"""A settled zone is believed for a tag within this many zone radii of the location (a big
stack spreads that far)."""

Point = tuple[float, float]


@dataclass(frozen=True)
class Placed:
    """Where a tag stood in the last stable snapshot, and the zone it was read in."""

    zone: str
    at: Point


def assign_zones(geometry: Geometry, positions: Mapping[int, Point],
                 before: Mapping[int, Placed], link: float, still: float,
                 settled: Mapping[int, Placed] | None = None) -> tuple[dict[int, str],
                                                                     tuple[int, ...]]:
    """Tag -> zone (or AMBIGUOUS) for the tags at `positions` (board mm), and the tags outside
    every zone. `before`: the last stable placements; a tag within `still` mm of its place
    there has not moved. `settled`: where people have said the tags stand, and where they stood
    then (the record, after an action entered on the tablet): an ambiguous stack whose every
    tag is settled and has not moved since takes those zones (the table cannot say, a person
    has)."""
    zones: dict[int, str] = {}
    on_map: dict[int, Point] = {}
    for tag, at in positions.items():
        box = geometry.box_at(*at)
        if box is not None:
            zones[tag] = box
        else:
            on_map[tag] = at
    outside: list[int] = []
    for stack in stacks(on_map, link):
        zone = _kept(stack, on_map, before, geometry, still, link) \
            or _anchor(stack, on_map, geometry)
        if zone is None:
            outside += stack
        elif zone == AMBIGUOUS and _settle(stack, on_map, settled or {}, geometry, still):
            zones.update({tag: (settled or {})[tag].zone for tag in stack})
        else:
            zones.update(dict.fromkeys(stack, zone))
    return zones, tuple(sorted(outside))


def stacks(positions: Mapping[int, Point], link: float) -> list[list[int]]:
    """Groups of tags chained by distances of at most `link` (connected components)."""
    tags = sorted(positions)
    seen: set[int] = set()
    groups = []
    for start in tags:
        if start in seen:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            tag = todo.pop()
            group.append(tag)
            for other in tags:
                if other not in seen and _distance(positions[tag], positions[other]) <= link:
                    seen.add(other)
                    todo.append(other)
        groups.append(sorted(group))
    return groups


def _kept(stack: list[int], at: Mapping[int, Point], before: Mapping[int, Placed],
          geometry: Geometry, still: float, link: float) -> str | None:
    """The one map zone the stack's unmoved blocks were in; AMBIGUOUS if they disagree, or
    if a block carried into the stack stands on another location (within `link` of its
    centre): it may be a move there, touching this stack by accident."""
    boxes = {z.id for z in geometry.zones if z.rect is not None}
    unmoved = {t for t in stack if t in before and _distance(before[t].at, at[t]) <= still}
    kept = {before[t].zone for t in unmoved
            if before[t].zone not in boxes and before[t].zone != AMBIGUOUS}
    if not kept:
        return None
    if len(kept) > 1:
        return AMBIGUOUS
    zone = kept.pop()
    for tag in set(stack) - unmoved:  # put down on another location while touching this stack
        if any(z.id != zone and z.distance(*at[tag]) <= link for z in geometry.locations):
            return AMBIGUOUS
    return zone


def _settle(stack: list[int], at: Mapping[int, Point], settled: Mapping[int, Placed],
            geometry: Geometry, still: float) -> bool:
    """Whether every tag of an ambiguous stack is settled on a location it stands near and
    has not moved since a person said so."""
    for tag in stack:
        said = settled.get(tag)
        if said is None or _distance(said.at, at[tag]) > still:
            return False
        location = next((z for z in geometry.locations if z.id == said.zone), None)
        if location is None or location.radius is None \
                or location.distance(*at[tag]) > SETTLED_REACH * location.radius:
            return False
    return True


def _anchor(stack: list[int], at: Mapping[int, Point], geometry: Geometry) -> str | None:
    """The zone of the stack's block nearest a location's centre (None: off every location)."""
    anchor = min(stack, key=lambda t: min((z.distance(*at[t]) for z in geometry.locations),
                                          default=math.inf))
    return geometry.zone_of(*at[anchor])


def _distance(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])
