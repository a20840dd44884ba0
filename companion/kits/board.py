"""What every map-based kit shares: locations joined by roads.

Game kits extend `Location` and `Road` with their own fields (castles, hexes, regions);
`check_graph` holds the checks that make a map usable at all, whatever the game.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from companion.kits.problems import Problems

__all__ = ["MAX_COUNT", "Count", "Frozen", "Id", "Location", "Quantity", "Road", "at_most",
           "check_graph", "neighbours_of"]

Id = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$")]
"""Ids are lower-case snake case, so they survive YAML, URLs and the record format alike."""


Fraction = Annotated[float, Field(ge=0, le=1)]

MAX_COUNT = 1000
"""The bound of a count no rule bounds more tightly: no game's box holds a thousand of one
thing. Counts are expanded into objects and loops, so an unbounded one (`count: 100000000`)
would take minutes and all memory before any check could say it is wrong."""


def at_most(bound: int, what: str) -> Callable[[int], int]:
    """A validator refusing a count above `bound`; the message names the bound and why."""

    def check(value: int) -> int:
        if value > bound:
            raise ValueError(f"at most {bound}: {what}")
        return value

    return check


Count = Annotated[int, Field(ge=1), AfterValidator(at_most(MAX_COUNT, "more than any game "
                                                                    "holds of one thing"))]
"""How many of something (at least one), within `MAX_COUNT`."""
Quantity = Annotated[int, Field(ge=0), AfterValidator(at_most(MAX_COUNT, "more than any game "
                                                                       "holds of one thing"))]
"""How many of something (possibly none), within `MAX_COUNT`."""


class Frozen(BaseModel):
    """Base of every kit model: immutable, and strict about unknown fields (typos)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Location(Frozen):
    """A point on the map that pieces stand on."""

    id: Id
    name: str
    xy: tuple[Fraction, Fraction] | None = None
    """Centre on the printed board, as fractions of its width and height (for calibration)."""


class Road(Frozen):
    """A segment joining two adjacent locations, listed once (it works both ways)."""

    a: Id
    b: Id
    kind: str = "road"


def neighbours_of(roads: Sequence[Road]) -> dict[str, tuple[str, ...]]:
    """Adjacency lists, each sorted, so every walk over the map is deterministic."""
    adjacent: dict[str, set[str]] = {}
    for road in roads:
        adjacent.setdefault(road.a, set()).add(road.b)
        adjacent.setdefault(road.b, set()).add(road.a)
    return {loc: tuple(sorted(others)) for loc, others in adjacent.items()}


def check_graph(
    problems: Problems,
    file: str,
    locations: Sequence[Location],
    roads: Sequence[Road],
) -> None:
    """Duplicate ids, roads to nowhere, duplicate roads, isolated locations, disconnected map."""
    ids: dict[str, int] = {}
    for index, loc in enumerate(locations):
        if loc.id in ids:
            problems.add(
                file, ("locations", index, "id"),
                f"duplicate id '{loc.id}' (first at locations[{ids[loc.id]}])",
            )
        else:
            ids[loc.id] = index
    seen: dict[frozenset[str], int] = {}
    good_roads: list[Road] = []
    for index, road in enumerate(roads):
        ok = True
        for end in ("a", "b"):
            name = getattr(road, end)
            if name not in ids:
                problems.add(file, ("roads", index, end), f"unknown location '{name}'")
                ok = False
        pair = frozenset((road.a, road.b))
        if road.a == road.b:
            problems.add(file, ("roads", index), f"road joins '{road.a}' to itself")
            ok = False
        elif pair in seen:
            problems.add(file, ("roads", index), f"duplicate road (first at roads[{seen[pair]}])")
        else:
            seen[pair] = index
        if ok:
            good_roads.append(road)
    adjacent = neighbours_of(good_roads)
    for loc_id, index in ids.items():
        if loc_id not in adjacent:
            problems.add(file, ("locations", index), f"location '{loc_id}' has no roads")
    _check_connected(problems, file, ids, adjacent)


def _check_connected(
    problems: Problems, file: str, ids: dict[str, int], adjacent: dict[str, tuple[str, ...]]
) -> None:
    connected = [loc for loc in ids if loc in adjacent]
    if not connected:
        return
    reached = {connected[0]}
    queue = deque([connected[0]])
    while queue:
        for other in adjacent[queue.popleft()]:
            if other not in reached:
                reached.add(other)
                queue.append(other)
    cut_off = [loc for loc in connected if loc not in reached]
    if cut_off:
        problems.add(
            file, ("locations", ids[cut_off[0]]),
            f"map is disconnected: {', '.join(cut_off)} cannot be reached from '{connected[0]}'",
        )
