"""A simulated Barletta table: our own drawing of the field mat and the knights' counters,
photographed by the shared synthetic camera (`vision.synth`: pose, lens, blur, noise, light,
glare, hands).

The mat: the field's hexes drawn from their numbers (`reader.hex_centre`), each with its
number, the melee lines tinted in their side's colour, the printed camps and shields, and
beside the field each side's reserve, camp and Surrendered table, and the dice tray (green
felt in a wooden rim). No publisher art: the colours and the layout are the project's.

A counter: a square of its side's colour (Italians red, French blue) with the knight's name
and its face's tag; the front (mounted) is solid, the back (on foot) pale with a coloured
frame, so a person tells them apart at a glance as the camera does by the tag. Counters stand
at their hex's centre, a little off and turned as a hand leaves them; in an area they are laid
in a tidy grid. Any position the rules reach can be drawn: `zones_for(state)` gives the tags
the record says are up and where, `BarlettaSynth.picture` photographs them with the dice.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.games.barletta.kit import BarlettaKit
from companion.games.barletta.reader import Tray, hex_centre, load_tray
from companion.games.barletta.rules.state import BState
from companion.games.barletta.table_state import (
    DICE_TRAY,
    FieldSnapshot,
    expected_zones,
    knight_of,
    simulated_registry,
)
from companion.table.registry import TableRegistry
from companion.vision.dice import PIP_OFFSET
from companion.vision.geometry import Geometry
from companion.vision.synth import PX_PER_MM, Camera, Look, Scene, Synth

__all__ = ["SIDE_COLOURS", "BarlettaSynth", "Die", "FieldScene", "Piece", "kit_registry",
           "zones_for"]

Tone = tuple[int, int, int]

SIDE_COLOURS: dict[str, Tone] = {"italians": (45, 45, 170), "french": (150, 75, 25)}
"""Each side's counters (BGR): the project's choice, not the publisher's."""
_PAPER, _HEX, _LINE, _TEXT = (200, 226, 234), (214, 236, 242), (96, 116, 126), (60, 70, 80)
_FELT, _RIM = (50, 115, 25), (40, 70, 110)
_PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
         4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
         6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}
_LABELS = {"reserve": "Riserva", "camp": "Campo", "surrendered": "Surrended"}
_SIDE_NAMES = {"italians": "Italiani", "french": "Francesi"}


def _tone(colour: np.ndarray) -> Tone:
    """A BGR colour rounded to whole levels."""
    b, g, r = (int(v) for v in np.round(colour))
    return b, g, r


def kit_registry(kit: BarlettaKit) -> TableRegistry:
    """The simulated set's tags: each knight's front then back, in the kit's order."""
    return simulated_registry(list(kit.by_id))


def zones_for(state: BState, kit: BarlettaKit,
              registry: TableRegistry | None = None) -> dict[int, str]:
    """The tags the record says are face up, and where (a hex or an area)."""
    return expected_zones(state, registry or kit_registry(kit), kit.side_of)


@dataclass(frozen=True)
class Piece:
    """One counter on the table: the tag of its face up, where it stands."""

    tag: int
    knight: str
    side: str
    mounted: bool
    zone: str
    centre: tuple[float, float]
    angle: float = 0.0
    """Degrees: how far a hand left it turned."""


@dataclass(frozen=True)
class Die:
    face: int
    centre: tuple[float, float]
    angle: float


@dataclass(frozen=True, eq=False)
class FieldScene(Scene):
    """Counters and dice on the mat (compared by identity: the camera redraws a new scene)."""

    pieces: tuple[Piece, ...] = ()
    dice: tuple[Die, ...] = ()

    @property
    def snapshot(self) -> FieldSnapshot:
        """The truth in the referee's shape: every tag face up by zone, the faces in the tray."""
        return FieldSnapshot({p.tag: p.zone for p in self.pieces},
                             tuple(sorted(d.face for d in self.dice)))


class BarlettaSynth(Synth):
    """Draws the Barletta table; `photograph` (inherited) is the camera."""

    def __init__(self, geometry: Geometry, kit: BarlettaKit,
                 registry: TableRegistry | None = None, tray: Tray | None = None) -> None:
        super().__init__(geometry, kit)
        self.barletta = kit
        self.registry = registry or kit_registry(kit)
        self.tray = tray or load_tray()
        self._faces: dict[int, np.ndarray] = {}
        self._hex = _hex_layout(geometry, kit)

    # --- where things go -------------------------------------------------------------------

    def scene(self, zones: Mapping[int, str], dice: tuple[int, ...] = (),
              seed: int = 0) -> FieldScene:
        """Counters for `zones` (tag -> hex or area), each a little off its hex's centre and
        turned (drawn from `seed`), in a grid in an area; `dice` thrown in the tray."""
        rng = random.Random(seed)
        pieces = []
        by_area: dict[str, list[int]] = {}
        for tag, zone in sorted(zones.items()):
            if self.geometry.zone(zone).rect is not None:
                by_area.setdefault(zone, []).append(tag)
                continue
            x, y = self.geometry.zone(zone).center
            pieces.append(self._piece(tag, zone, (x + rng.uniform(-2.5, 2.5),
                                                  y + rng.uniform(-2.5, 2.5)),
                                      rng.uniform(-8, 8)))
        for zone, tags in by_area.items():
            for tag, where in zip(tags, self._grid(zone, len(tags)), strict=True):
                pieces.append(self._piece(tag, zone, where, rng.uniform(-3, 3)))
        placed = {p.tag: (p.zone, p.centre) for p in pieces}
        return FieldScene(placed, tuple(pieces), self._throw(dice, rng))

    def change(self, scene: FieldScene, zones: Mapping[int, str], dice: tuple[int, ...],
               throw: bool, seed: int = 0) -> FieldScene:
        """`scene` once a hand has made the table show `zones` and `dice`, as a player
        leaves it: counters not touched lie where they lay; a counter turned over keeps its
        spot and turn; one moved lands a little off its new hex's centre (turned, drawn from
        `seed`) or on the first free place of its area's grid (at the area's centre when the
        grid is full); the dice are thrown anew at new spots with `throw`, else left lying."""
        rng = random.Random(seed)
        was = {p.tag: p for p in scene.pieces}
        lying = {(p.knight, p.zone): p for p in scene.pieces}
        pieces = [was[t] for t, zone in sorted(zones.items()) if t in was and was[t].zone == zone]
        for tag, zone in sorted(zones.items()):
            if tag in was and was[tag].zone == zone:
                continue
            piece = self._piece(tag, zone, (0.0, 0.0), 0.0)
            other = lying.get((piece.knight, zone))
            if other is not None and other.tag not in zones:  # turned over where it lies
                where, angle = other.centre, other.angle
            elif self.geometry.zone(zone).rect is not None:
                where, angle = self._free_place(zone, pieces), rng.uniform(-3, 3)
            else:
                x, y = self.geometry.zone(zone).center
                where = (x + rng.uniform(-2.5, 2.5), y + rng.uniform(-2.5, 2.5))
                angle = rng.uniform(-8, 8)
            pieces.append(replace(piece, centre=where, angle=angle))
        thrown = self._throw(dice, rng) if throw else scene.dice
        return FieldScene({p.tag: (p.zone, p.centre) for p in pieces}, tuple(pieces), thrown)

    def _free_place(self, zone: str, pieces: list[Piece]) -> tuple[float, float]:
        """The first place of an area's grid no counter lies on; its centre when none is
        free (counters piled: the camera may then miss some)."""
        taken = [p.centre for p in pieces if p.zone == zone]
        for place in self._places(zone):
            if all(math.dist(place, t) > self.tray.counter_mm / 2 for t in taken):
                return place
        return self.geometry.zone(zone).center

    def _piece(self, tag: int, zone: str, where: tuple[float, float], angle: float) -> Piece:
        piece = self.registry.block(tag)
        if piece is None:
            raise KeyError(f"tag {tag} is on no counter of this set")
        knight, mounted = knight_of(piece)
        return Piece(tag, knight, self.barletta.side_of[knight], mounted, zone, where, angle)

    def _grid(self, zone: str, count: int) -> list[tuple[float, float]]:
        """`count` places in a tidy grid inside an area, row by row from its top-left."""
        places = self._places(zone)
        if count > len(places):
            raise ValueError(f"{count} counters do not fit in {zone} ({len(places)} places)")
        return places[:count]

    def _places(self, zone: str) -> list[tuple[float, float]]:
        """Every place of an area's tidy grid, row by row from its top-left."""
        rect = self.geometry.zone(zone).rect
        assert rect is not None
        x, y, w, h = rect
        step = self.tray.counter_mm + 3
        across, down = int((w - 3) // step), int((h - 3) // step)
        left = x + (w - across * step) / 2 + step / 2
        top = y + (h - down * step) / 2 + step / 2
        return [(left + (i % across) * step, top + (i // across) * step)
                for i in range(across * down)]

    def _throw(self, faces: tuple[int, ...], rng: random.Random) -> tuple[Die, ...]:
        """Dice at random spots and turns on the felt, never touching each other or the rim."""
        rect = self.geometry.zone(DICE_TRAY).rect
        assert rect is not None
        x, y, w, h = rect
        reach = self.tray.die_mm * 0.75 + self.tray.rim_mm + 2
        dice: list[Die] = []
        for face in faces:
            for _ in range(500):
                where = (rng.uniform(x + reach, x + w - reach),
                         rng.uniform(y + reach, y + h - reach))
                if all(math.dist(where, d.centre) > self.tray.die_mm * 1.7 for d in dice):
                    break
            dice.append(Die(face, where, rng.uniform(0, 90)))
        return tuple(dice)

    def picture(self, zones: Mapping[int, str], dice: tuple[int, ...] = (),
                camera: Camera | None = None, look: Look | None = None,
                hand: str | None = None, seed: int = 0) -> tuple[np.ndarray, FieldSnapshot]:
        """A photograph of the table showing `zones` and `dice` and its truth; `hand`: a
        zone a hand is held over (the look's own hand otherwise)."""
        camera = camera or Camera((4056, 3040))
        look = look or Look()
        if hand is not None:
            look = Look(**{**look.__dict__, "hand": self.hand_over(hand, camera)})
        scene = self.scene(zones, dice, seed)
        return self.photograph(scene, camera, look).image, scene.snapshot

    def hand_over(self, zone: str, camera: Camera, size: float = 0.1) -> tuple[float, float,
                                                                                   float]:
        """A `Look.hand` over `zone`'s centre: fractions of the frame, and the hand's size."""
        fx, fy = self.frame_point(camera, *self.geometry.zone(zone).center)
        return fx, fy, size

    # --- drawing ---------------------------------------------------------------------------

    def board(self) -> np.ndarray:
        """The empty mat: field, numbers, melee lines, camps and shields, areas, tray,
        corner markers."""
        if self._base is not None:
            return self._base.copy()
        width, height = self.canvas_size
        image = np.full((height, width, 3), (88, 120, 150), np.uint8)  # the table top
        cv2.rectangle(image, self._to_px(0, 0), self._to_px(*self.geometry.board_mm), _PAPER,
                      -1)
        for hex_, (centre, tint) in self._hex.items():
            self._hexagon(image, centre, tint)
            self._text(image, hex_, (centre[0] - 5.5, centre[1] - 8.0), 0.55)
        for zone in self.geometry.zones:
            if zone.rect is not None and zone.id != DICE_TRAY:
                self._area(image, zone.id, zone.rect)
        self._felt(image)
        for marker, (x, y) in self.geometry.corners.items():
            self._stamp(image, marker, (x, y), self.geometry.corner_size_mm,
                        border=(255, 255, 255))
        self._base = image
        return image.copy()

    def _hexagon(self, image: np.ndarray, centre: tuple[float, float], tint: Tone) -> None:
        radius = self._hex_mm / math.sqrt(3)
        corners = [self._to_px(centre[0] + radius * math.cos(math.radians(60 * k)),
                               centre[1] + radius * math.sin(math.radians(60 * k)))
                   for k in range(6)]
        cv2.fillConvexPoly(image, np.array(corners, np.int32), tint, cv2.LINE_AA)
        cv2.polylines(image, [np.array(corners, np.int32)], True, _LINE, 2, cv2.LINE_AA)

    @property
    def _hex_mm(self) -> float:
        """A hex across its flats, from two neighbours' centres."""
        a, b = self.barletta.roads[0].a, self.barletta.roads[0].b
        return math.dist(self._hex[a][0], self._hex[b][0])

    def _text(self, image: np.ndarray, text: str, where: tuple[float, float],
              scale: float, colour: Tone = _TEXT, thick: int = 1) -> None:
        cv2.putText(image, text, self._to_px(*where), cv2.FONT_HERSHEY_SIMPLEX, scale, colour,
                    thick, cv2.LINE_AA)

    def _area(self, image: np.ndarray, zone: str, rect: tuple[float, float, float, float]) -> None:
        x, y, w, h = rect
        kind, _, side = zone.partition("_")
        cv2.rectangle(image, self._to_px(x, y), self._to_px(x + w, y + h), (226, 236, 240), -1)
        cv2.rectangle(image, self._to_px(x, y), self._to_px(x + w, y + h),
                      SIDE_COLOURS.get(side, _LINE), 3)
        label = f"{_LABELS.get(kind, kind)} {_SIDE_NAMES.get(side, side)}"
        self._text(image, label, (x + 2, y - 2), 0.9, thick=2)

    def _felt(self, image: np.ndarray) -> None:
        rect = self.geometry.zone(DICE_TRAY).rect
        assert rect is not None
        x, y, w, h = rect
        rim = self.tray.rim_mm
        cv2.rectangle(image, self._to_px(x, y), self._to_px(x + w, y + h), _RIM, -1)
        cv2.rectangle(image, self._to_px(x + rim, y + rim),
                      self._to_px(x + w - rim, y + h - rim), _FELT, -1)

    def table(self, scene: Scene, art: int = 0,
              cards: tuple[tuple[float, float, float], ...] = ()) -> np.ndarray:
        """The mat with the scene's counters and dice (`art` and `cards`, Sekigahara's map
        conditions, are not drawn on this mat)."""
        image = self.board()
        if not isinstance(scene, FieldScene):
            return image
        for piece in scene.pieces:
            self._paste(image, self._face(piece), piece.centre, piece.angle)
        for die in scene.dice:
            self._die(image, die)
        return image

    def _face(self, piece: Piece) -> np.ndarray:
        """A counter's face up, drawn once: side colour, name, the face's tag in its white
        quiet zone; the back pale in a coloured frame."""
        if piece.tag in self._faces:
            return self._faces[piece.tag]
        side = round(self.tray.counter_mm * PX_PER_MM)
        colour = np.array(SIDE_COLOURS[piece.side], np.float64)
        face = np.full((side, side, 3), colour, np.uint8)
        if not piece.mounted:
            face[:] = np.round(colour * 0.35 + 255 * 0.65).astype(np.uint8)
            cv2.rectangle(face, (0, 0), (side - 1, side - 1), SIDE_COLOURS[piece.side], 5)
        tag = round(self.geometry.tag_mm * PX_PER_MM)
        quiet = tag // 6  # 2 mm, a cell and a third: blur does not join the border to the frame
        marker = cv2.aruco.generateImageMarker(
            cv2.aruco.getPredefinedDictionary(self.dictionary), piece.tag, tag)
        start = (side - tag) // 2
        face[start - quiet:start + tag + quiet, start - quiet:start + tag + quiet] = 255
        face[start:start + tag, start:start + tag] = marker[:, :, None]
        ink = (255, 255, 255) if piece.mounted else (40, 40, 40)
        name = self.barletta.by_id[piece.knight].name
        cv2.putText(face, name[:11], (4, start - quiet - 2), cv2.FONT_HERSHEY_SIMPLEX, 0.25, ink,
                    1, cv2.LINE_AA)
        self._faces[piece.tag] = face
        return face

    def _paste(self, image: np.ndarray, patch: np.ndarray, centre: tuple[float, float],
               angle: float) -> None:
        """`patch` turned by `angle` with its centre at board point `centre`."""
        left, top, _, _ = self.geometry.extent
        cx, cy = (centre[0] - left) * PX_PER_MM, (centre[1] - top) * PX_PER_MM
        size = patch.shape[0]
        reach = math.ceil(size * 0.75) + 2
        x0, y0 = int(cx) - reach, int(cy) - reach
        turn = cv2.getRotationMatrix2D((size / 2, size / 2), angle, 1.0)
        turn[:, 2] += (cx - x0 - size / 2, cy - y0 - size / 2)
        box = (2 * reach, 2 * reach)
        drawn = cv2.warpAffine(patch, turn, box, flags=cv2.INTER_LINEAR)
        mask = cv2.warpAffine(np.full(patch.shape[:2], 255, np.uint8), turn, box,
                              flags=cv2.INTER_LINEAR)
        region = image[y0:y0 + box[1], x0:x0 + box[0]]
        alpha = (mask.astype(np.float32) / 255)[:, :, None]
        region[:] = (drawn * alpha + region * (1 - alpha)).astype(np.uint8)

    def _die(self, image: np.ndarray, die: Die) -> None:
        """A white die with black pips, seen from above."""
        s = self.tray.die_mm
        side = round(s * PX_PER_MM)
        patch = np.full((side, side, 3), 196, np.uint8)  # the bevelled edge
        inset = round(side * 0.05)
        patch[inset:side - inset, inset:side - inset] = 241
        for i, j in _PIPS[die.face]:
            at = (round(side / 2 + i * PIP_OFFSET * side), round(side / 2 + j * PIP_OFFSET * side))
            cv2.circle(patch, at, round(self.tray.pip_mm / 2 * PX_PER_MM), (25, 25, 25), -1,
                       cv2.LINE_AA)
        self._paste(image, patch, die.centre, die.angle)


def _hex_layout(geometry: Geometry, kit: BarlettaKit) -> dict[str, tuple[tuple[float, float],
                                                                          Tone]]:
    """Every hex drawn on the mat, its centre and tint: the field's (melee lines tinted), and
    each side's camp and shield (off the field, tinted darker). Field centres are the
    geometry's; the others are placed from two field hexes (the same arithmetic)."""
    centres = {z.id: z.center for z in geometry.locations if z.id in kit.field}
    a, b = sorted(centres)[:2]
    drawn: dict[str, tuple[tuple[float, float], Tone]] = {
        h: (c, _HEX) for h, c in centres.items()}
    size = math.dist(centres[a], centres[b])
    for side, where in kit.sides.items():
        colour = np.array(SIDE_COLOURS[side], np.float64)
        light, dark = _tone(colour * 0.15 + 255 * 0.85), _tone(colour * 0.45 + 255 * 0.55)
        for hex_ in where.melee_line:
            drawn[hex_] = (centres[hex_], light)
        for hex_ in (*where.camp, where.shield):
            drawn[hex_] = (hex_centre(hex_, size, a, centres[a]), dark)
    return drawn
