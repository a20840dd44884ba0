"""Where things are on the table, in board millimetres: location circles, boxes and areas.

The geometry of a game's table comes from its kit (location centres) and a calibration file
(`board.yaml`, shipped in the game's folder or measured into the user's calibration folder:
see `companion.userdata`; the board's size, the corner markers, the boxes and the
off-board areas). Vision maps tags into these zones; it never learns what the zones mean.

`Board` is what every game's board gives the host, whatever its map: a point-to-point map
(Sekigahara's locations), a region map (Rumble Nation's and Shogun's regions, by their centres)
or a hex field (La Disfida di Barletta's hexes, each with its hexagon): zones with positions
and outlines, the off-board areas, the corner markers. A game's `board` capability returns
one (`companion.games.contract.BoardLoader`); `Geometry` is the implementation they share, and
`Geometry.load` reads a map whose locations carry their place on the printed board (`xy`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import yaml

__all__ = ["AMBIGUOUS", "Board", "Geometry", "Point", "Zone"]

Point = tuple[float, float]
"""A point on the table, in board millimetres."""

AMBIGUOUS = "?"
"""The zone of a tag between two zones, or outside all of them: never guessed."""


@dataclass(frozen=True)
class Zone:
    id: str
    name: str
    center: tuple[float, float]
    radius: float | None = None
    rect: tuple[float, float, float, float] | None = None
    outline: tuple[Point, ...] = ()
    """The zone's printed shape where it is not its circle (a hex), for drawing; pieces
    still belong to it by `radius` (a circle inside the shape, so that an edge is never
    guessed)."""

    def polygon(self, segments: int = 24) -> tuple[Point, ...]:
        """The zone's outline: its printed shape, its rectangle, or its circle."""
        if self.outline:
            return self.outline
        if self.rect is not None:
            left, top, w, h = self.rect
            return ((left, top), (left + w, top), (left + w, top + h), (left, top + h))
        assert self.radius is not None
        cx, cy = self.center
        return tuple((cx + self.radius * math.cos(2 * math.pi * i / segments),
                      cy + self.radius * math.sin(2 * math.pi * i / segments))
                     for i in range(segments))

    def distance(self, x: float, y: float) -> float:
        """0 inside a rectangle zone, else how far outside; distance to a circle's centre."""
        if self.rect is not None:
            left, top, w, h = self.rect
            dx = max(left - x, 0.0, x - (left + w))
            dy = max(top - y, 0.0, y - (top + h))
            return math.hypot(dx, dy)
        return math.hypot(x - self.center[0], y - self.center[1])

    def contains(self, x: float, y: float) -> bool:
        if self.rect is not None:
            return self.distance(x, y) == 0.0
        assert self.radius is not None
        return self.distance(x, y) <= self.radius


class Placed(Protocol):
    """A map location with its place on the printed board, as fractions of its size."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def xy(self) -> tuple[float, float] | None: ...


class PlacedMap(Protocol):
    """A kit whose map locations carry their place on the printed board."""

    @property
    def game(self) -> str: ...

    @property
    def locations(self) -> Sequence[Placed]: ...


class Board(Protocol):
    """What every game's board gives the host: its size, the corner markers that place it,
    and its zones (map locations, regions or hexes, and the areas beside the map)."""

    @property
    def game(self) -> str: ...

    @property
    def board_mm(self) -> tuple[float, float]: ...

    @property
    def tag_mm(self) -> float:
        """The pieces' tag size (unused where pieces carry no tags)."""
        ...

    @property
    def corner_size_mm(self) -> float: ...

    @property
    def corners(self) -> Mapping[int, Point]:
        """Corner marker id -> its centre."""
        ...

    @property
    def zones(self) -> Sequence[Zone]: ...

    @property
    def locations(self) -> tuple[Zone, ...]:
        """The map's own zones (circles: locations, regions, hexes)."""
        ...

    @property
    def areas(self) -> tuple[Zone, ...]:
        """The off-board areas and boxes (rectangles)."""
        ...

    @property
    def extent(self) -> tuple[float, float, float, float]:
        """The table area the camera must see (left, top, right, bottom)."""
        ...

    def zone_of(self, x: float, y: float, margin: float = 4.0) -> str | None: ...

    def zone(self, zone_id: str) -> Zone: ...


@dataclass(frozen=True)
class Geometry:
    game: str
    board_mm: tuple[float, float]
    tag_mm: float
    corner_size_mm: float
    corners: dict[int, tuple[float, float]]
    zones: tuple[Zone, ...]
    block_height_mm: float = 0.0
    """How far above the map a block's tag stands: seen from a camera off to one side, a tag
    appears further out than its block stands (parallax), by height / camera height."""
    kept_clear: frozenset[str] = frozenset()
    """Areas the synthetic scenes of the benchmarks leave empty (`kept_clear:` in board.yaml:
    where cards are shown, where pieces only pass through)."""

    @classmethod
    def load(cls, kit: PlacedMap, path: Path | None = None) -> Geometry:
        """The table of `kit`'s game, a map whose locations carry their place on the printed
        board (`xy`): the user's calibration, else the game's default."""
        if path is None:
            from companion.userdata import board_file

            path = board_file(kit.game)
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        width, height = data["board_mm"]
        radius = float(data["zone_radius_mm"])
        zones = [Zone(loc.id, loc.name, (loc.xy[0] * width, loc.xy[1] * height), radius)
                 for loc in kit.locations if loc.xy is not None]
        for name, (x, y, w, h) in data.get("areas", {}).items():
            zones.append(Zone(name, name.replace("_", " "), (x + w / 2, y + h / 2),
                              rect=(x, y, w, h)))
        corners = {int(k): (float(v[0]), float(v[1]))
                   for k, v in data["corner_markers"]["ids"].items()}
        return cls(data["game"], (width, height), float(data["tag_mm"]),
                   float(data["corner_markers"]["size_mm"]), corners, tuple(zones),
                   float(data.get("block_height_mm", 0.0)),
                   frozenset(data.get("kept_clear", ())))

    def zone_of(self, x: float, y: float, margin: float = 4.0) -> str | None:
        """The zone at board point (x, y): inside a box or area, else the nearest location
        within its radius. AMBIGUOUS when two locations are within reach and the point is less
        than `margin` mm nearer one than the other; None outside every zone."""
        for zone in self.zones:
            if zone.rect is not None and zone.contains(x, y):
                return zone.id
        near = sorted((z.distance(x, y), z.id) for z in self.zones
                      if z.radius is not None and z.contains(x, y))
        if not near:
            return None
        if len(near) > 1 and near[1][0] - near[0][0] < margin:
            return AMBIGUOUS
        return near[0][1]

    def box_at(self, x: float, y: float) -> str | None:
        """The box or area (a rectangle zone) at board point (x, y), if any."""
        return next((z.id for z in self.zones if z.rect is not None and z.contains(x, y)), None)

    @property
    def locations(self) -> tuple[Zone, ...]:
        """The map's locations (circle zones), as opposed to boxes and areas."""
        return tuple(z for z in self.zones if z.radius is not None)

    @property
    def areas(self) -> tuple[Zone, ...]:
        """The boxes and off-board areas (rectangle zones)."""
        return tuple(z for z in self.zones if z.rect is not None)

    def zone(self, zone_id: str) -> Zone:
        found = next((z for z in self.zones if z.id == zone_id), None)
        if found is None:
            raise KeyError(f"no zone {zone_id!r} on the {self.game} table")
        return found

    @property
    def extent(self) -> tuple[float, float, float, float]:
        """The table area the camera must see: board, corner markers and side areas."""
        xs = [0.0, self.board_mm[0]] + [c[0] for c in self.corners.values()]
        ys = [0.0, self.board_mm[1]] + [c[1] for c in self.corners.values()]
        for z in self.zones:
            if z.rect:
                xs += [z.rect[0], z.rect[0] + z.rect[2]]
                ys += [z.rect[1], z.rect[1] + z.rect[3]]
        pad = self.corner_size_mm
        return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad
