"""Synthetic tables of counted pieces: coloured cubes, large round pieces and white neutral cubes
drawn as the camera sees them from above, dice in a tray, and the lamp over the table.

Pieces that carry no tags (`counting.py` counts them by colour) are drawn each as a darker
footprint with a lighter top face, slightly turned and shifted (the view's slant):

- cubes (`Cube`) in the players' colours (`WOOD`: painted wood under a lamp), some pushed
  against another of their colour as players group them (`place_pieces`);
- large pieces (`Disc`): one round piece larger than a cube, in a player's colour (the
  calibration's `large`);
- neutral pieces (`Neutral`): white cubes in nobody's colour (the calibration's `neutral`);
- white dice with black pips at random turns in the tray (`place_dice`); a finger may cover one;
- cubes lying in a counted tray, and cubes lying on the table in no zone (`PieceScene.tray`,
  `.aside`).

The lamp over the table is part of the scene (`Light`: a warm tungsten cast, a dim room): it
multiplies everything the camera sees, glare included, before the sensor's noise. The rest of
the photograph is the shared renderer's (`synth.Synth.photograph`: perspective, lens
distortion, blur, noise, uneven light, glare). What a game's map looks like is the game's: a
`PieceSynth` subclass draws it (`board()`), and what a game calls each piece is the game's too.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from companion.vision.counting import CountingBoard
from companion.vision.dice import PIP_OFFSET
from companion.vision.synth import PX_PER_MM, Camera, Frame, Look, Scene, Synth

__all__ = ["DIM_LIGHT", "WARM_LIGHT", "WHITE", "WHITE_LIGHT", "WOOD", "Cube", "Die", "Disc",
           "Light", "Neutral", "PieceScene", "PieceSynth", "Tone", "disc", "place_cubes",
           "place_dice", "place_pieces", "square"]

Tone = tuple[int, int, int]

WOOD: dict[str, tuple[Tone, Tone]] = {
    "red": ((30, 30, 165), (70, 70, 220)),
    "yellow": ((20, 160, 195), (70, 215, 245)),
    "blue": ((140, 60, 15), (200, 115, 50)),
    "black": ((22, 22, 22), (58, 58, 58)),
    "purple": ((120, 30, 95), (175, 75, 145)),
    "green": ((40, 120, 25), (80, 185, 60)),
}
"""Each colour's sides and lighter top face (BGR), as painted wood looks under a lamp."""
WHITE: tuple[Tone, Tone] = ((204, 208, 208), (244, 246, 246))
"""The neutral pieces' sides and top: white wood."""

_SKIN = (120, 145, 210)
_PLAIN = Look()
_PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
         4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
         6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


@dataclass(frozen=True)
class Light:
    """The lamp over the table: how it scales blue, green and red (1, 1, 1: white light of the
    level the calibration assumes)."""

    gain: tuple[float, float, float] = (1.0, 1.0, 1.0)


WHITE_LIGHT = Light()
"""The light the calibration assumes."""
WARM_LIGHT = Light((0.42, 0.72, 1.0))
"""A tungsten bulb (about 2800 K) seen by a camera balanced for daylight."""
DIM_LIGHT = Light((0.35, 0.35, 0.35))
"""A dim room: a third of the light the calibration assumes."""


@dataclass(frozen=True)
class Cube:
    """A cube in a colour, standing in `region` (a region's id, the tray's, or any name for a
    cube in no zone)."""

    colour: str
    region: str
    center: tuple[float, float]
    angle: float
    """Degrees."""
    top: tuple[float, float] = (0.0, 0.0)
    """Where the top face sits inside the footprint (fractions of the side: the view's slant)."""


@dataclass(frozen=True)
class Disc:
    """A large round piece in a colour (`board.large.diameter_mm` across)."""

    colour: str
    region: str
    center: tuple[float, float]
    top: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class Neutral:
    """A white cube in nobody's colour (the board's neutral piece)."""

    region: str
    center: tuple[float, float]
    angle: float
    top: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class Die:
    face: int
    center: tuple[float, float]
    angle: float
    covered: bool = False


@dataclass(frozen=True, eq=False)
class PieceScene(Scene):
    """Pieces and dice on the table under a lamp (no tags: the base class's `tags` stays empty):
    cubes in regions, dice in the tray, large and neutral pieces in regions, cubes in a counted
    tray (`tray`) and cubes on the table in no zone (`aside`: a supply, a cube beside the
    tray). Scenes compare by identity, so the renderer redraws the table for each new scene."""

    cubes: tuple[Cube, ...] = ()
    dice: tuple[Die, ...] = ()
    large: tuple[Disc, ...] = ()
    neutral: tuple[Neutral, ...] = ()
    light: Light = Light()
    tray: tuple[Cube, ...] = ()
    aside: tuple[Cube, ...] = ()

    def counts(self, board: CountingBoard) -> dict[str, dict[str, int]]:
        """Cubes in the reader's shape (`CountReading.counts`): every region, every colour
        (large pieces not included)."""
        result = {z.id: {c.name: 0 for c in board.colours} for z in board.regions}
        for cube in self.cubes:
            result[cube.region][cube.colour] += 1
        return result

    def large_counts(self, board: CountingBoard) -> dict[str, dict[str, int]]:
        """Large pieces in the reader's shape (`CountReading.large`): every region, every
        colour."""
        result = {z.id: {c.name: 0 for c in board.colours} for z in board.regions}
        for piece in self.large:
            result[piece.region][piece.colour] += 1
        return result

    def neutral_counts(self, board: CountingBoard) -> dict[str, int]:
        """Neutral pieces in the reader's shape (`CountReading.neutral`): every region."""
        result = {z.id: 0 for z in board.regions}
        for piece in self.neutral:
            result[piece.region] += 1
        return result

    def tray_counts(self, board: CountingBoard) -> dict[str, int]:
        """The tray's cubes in the reader's shape (`CountReading.tray`): every colour."""
        result = {c.name: 0 for c in board.colours}
        for cube in self.tray:
            result[cube.colour] += 1
        return result

    def faces(self, count: int = 3) -> tuple[int | None, ...]:
        """The dice in the reader's shape: visible faces smallest first, then None."""
        seen = sorted(d.face for d in self.dice if not d.covered)
        return (*seen, *[None] * (count - len(seen)))


class PieceSynth(Synth):
    """Draws a `PieceScene`'s pieces and dice on a game's table and photographs them under the
    scene's lamp (`photograph`). A game's subclass draws its map (`board()`); `palette`
    replaces the colours' tones (a set painted otherwise: what colour calibration is for)."""

    def __init__(self, board: CountingBoard, kit: Any,
                 palette: Mapping[str, tuple[Tone, Tone]] | None = None) -> None:
        super().__init__(board.geometry, kit)
        self.counting = board
        """The counted table: its regions, tray and piece sizes."""
        self.palette = dict(palette or WOOD)

    def _mm(self, x: float, y: float) -> tuple[int, int]:
        return self._to_px(x, y)

    def table(self, scene: Scene, art: int = 0,
              cards: tuple[tuple[float, float, float], ...] = ()) -> np.ndarray:
        """The table with the scene's pieces and dice (in white light: see `photograph`). The
        room conditions drawn on tagged tables (red ink `art`, `cards` lying on the map) are
        not drawn here: pieces counted by colour have their own benchmarks."""
        image = self.board()
        if not isinstance(scene, PieceScene):
            return image
        for piece in scene.large:
            self._disc(image, piece)
        for cube in scene.cubes:
            self._cube(image, self.palette[cube.colour], cube.center, cube.angle, cube.top)
        for neutral in scene.neutral:
            self._cube(image, WHITE, neutral.center, neutral.angle, neutral.top)
        for die in scene.dice:
            self._die(image, die)
        for cube in (*scene.tray, *scene.aside):
            self._cube(image, self.palette[cube.colour], cube.center, cube.angle, cube.top)
        return image

    def photograph(self, scene: Scene, camera: Camera, look: Look = _PLAIN) -> Frame:
        """The shared renderer's photograph, under the scene's lamp: the lamp's colour scales
        everything the camera sees, the glare on the board and a hand included (a lamp's
        reflection is the lamp's colour), before the sensor adds its noise."""
        light = scene.light if isinstance(scene, PieceScene) else Light()
        if light == Light():
            return super().photograph(scene, camera, look)
        frame = super().photograph(scene, camera, replace(look, noise=0.0))
        lit: np.ndarray = cv2.transform(frame.image, np.diag(np.array(light.gain)))
        if look.noise:
            noise = np.empty(lit.shape, np.float32)
            cv2.setRNGSeed(look.seed)
            cv2.randn(noise, np.zeros(3), np.full(3, look.noise))
            lit = np.clip(lit.astype(np.float32) + noise, 0, 255).astype(np.uint8)
        return Frame(lit, frame.truth, frame.hand)

    def _poly(self, image: np.ndarray, points: np.ndarray, colour: Tone) -> None:
        """A filled polygon, anti-aliased; drawn 0.7 pixel inside its outline since
        OpenCV's anti-aliased edge adds about that all round (8 per cent of a cube's area)."""
        left, top, _, _ = self.geometry.extent
        middle = points.mean(axis=0)
        reach = np.hypot(*(points - middle).T)[:, None]
        points = middle + (points - middle) * (1 - 0.7 / PX_PER_MM * np.sqrt(2) / reach)
        px = ((points - np.array([left, top])) * PX_PER_MM * 16).round().astype(np.int32)
        cv2.fillPoly(image, [px], colour, cv2.LINE_AA, shift=4)

    def _cube(self, image: np.ndarray, tones: tuple[Tone, Tone], center: tuple[float, float],
              angle: float, top: tuple[float, float]) -> None:
        side, face = tones
        s = self.counting.cube_mm
        self._poly(image, square(center, s, angle), side)
        ux, uy = _axes(angle)
        dx, dy = top
        middle = (center[0] + (ux[0] * dx + uy[0] * dy) * s,
                  center[1] + (ux[1] * dx + uy[1] * dy) * s)
        self._poly(image, square(middle, 0.76 * s, angle), face)

    def _disc(self, image: np.ndarray, piece: Disc) -> None:
        side, face = self.palette[piece.colour]
        d = self.counting.large_mm
        self._poly(image, disc(piece.center, d), side)
        middle = (piece.center[0] + piece.top[0] * d, piece.center[1] + piece.top[1] * d)
        self._poly(image, disc(middle, 0.76 * d), face)

    def _die(self, image: np.ndarray, die: Die) -> None:
        s = self.counting.die_mm
        self._poly(image, square(die.center, s, die.angle), (196, 200, 200))  # bevelled edge
        self._poly(image, square(die.center, 0.9 * s, die.angle), (240, 242, 242))
        ux, uy = _axes(die.angle)
        for i, j in _PIPS[die.face]:
            x = die.center[0] + (ux[0] * i + uy[0] * j) * PIP_OFFSET * s
            y = die.center[1] + (ux[1] * i + uy[1] * j) * PIP_OFFSET * s
            cv2.circle(image, self._mm(x, y), round(self.counting.pip_mm / 2 * PX_PER_MM),
                       (25, 25, 25), -1, cv2.LINE_AA)
        if die.covered:  # a fingertip over part of the die
            x, y = self._mm(die.center[0] + 0.35 * s, die.center[1] - 0.1 * s)
            axes = (round(0.55 * s * PX_PER_MM), round(0.4 * s * PX_PER_MM))
            cv2.ellipse(image, (x, y), axes, die.angle + 30, 0, 360, _SKIN, -1, cv2.LINE_AA)


def _axes(angle: float) -> tuple[tuple[float, float], tuple[float, float]]:
    a = math.radians(angle)
    return (math.cos(a), math.sin(a)), (-math.sin(a), math.cos(a))


def square(center: tuple[float, float], side: float, angle: float) -> np.ndarray:
    """The corners of a square turned by `angle` degrees, in board millimetres."""
    ux, uy = _axes(angle)
    h = side / 2
    return np.array([(center[0] + (ux[0] * i + uy[0] * j) * h,
                      center[1] + (ux[1] * i + uy[1] * j) * h)
                     for i, j in ((-1, -1), (1, -1), (1, 1), (-1, 1))], np.float64)


def disc(center: tuple[float, float], diameter: float, sides: int = 48) -> np.ndarray:
    """A disc as a polygon of `sides` corners, in board millimetres."""
    a = np.linspace(0, 2 * np.pi, sides, endpoint=False)
    return np.column_stack([center[0] + diameter / 2 * np.cos(a),
                            center[1] + diameter / 2 * np.sin(a)])


def _fits(candidate: np.ndarray, placed: list[np.ndarray], center: tuple[float, float],
          radius: float) -> bool:
    """Inside the circle and overlapping no placed shape (touching is allowed)."""
    if np.hypot(*(candidate - np.array(center)).T).max() > radius:
        return False
    a = candidate.astype(np.float32)
    return all(cv2.intersectConvexConvex(a, b.astype(np.float32))[0] < 0.05 for b in placed)


def place_cubes(board: CountingBoard, wanted: Mapping[str, Mapping[str, int]],
                rng: random.Random, touch: float = 0.4) -> tuple[Cube, ...]:
    """Cubes for `wanted` (region -> colour -> how many), each region's at random spots in
    its circle; a share `touch` pushed against the previous cube of its colour there. A cube
    with no room left is not placed (the truth is what was placed)."""
    return place_pieces(board, wanted, rng, touch=touch)[0]


def place_pieces(board: CountingBoard, wanted: Mapping[str, Mapping[str, int]],
                 rng: random.Random, large: Mapping[str, str] | None = None,
                 neutral: Mapping[str, int] | None = None, touch: float = 0.4,
                 ) -> tuple[tuple[Cube, ...], tuple[Disc, ...], tuple[Neutral, ...]]:
    """Cubes as `place_cubes`, and in each region first the large pieces there (`large`:
    colour -> region) at a random spot, last the neutral pieces (`neutral`: region -> how
    many), each pushed against a cube with chance `touch` (as players put white pieces beside
    the ones they go with). Pieces with no room left are not placed."""
    s = board.cube_mm
    cubes: list[Cube] = []
    discs: list[Disc] = []
    white: list[Neutral] = []
    for zone in board.regions:
        shapes: list[np.ndarray] = []
        radius = (zone.radius or 0) - 1
        for colour, region in (large or {}).items():
            if region == zone.id:
                piece = _place_disc(board, zone.center, radius, colour, region, shapes, rng)
                if piece is not None:
                    discs.append(piece)
                    shapes.append(disc(piece.center, board.large_mm, 16))
        for colour, count in wanted.get(zone.id, {}).items():
            for _ in range(count):
                cube = _place_one(zone.center, radius, colour, zone.id,
                                  [p for p in cubes if p.region == zone.id], shapes, s, rng,
                                  touch)
                if cube is not None:
                    cubes.append(cube)
                    shapes.append(square(cube.center, s, cube.angle))
        here = [p for p in cubes if p.region == zone.id]
        for _ in range((neutral or {}).get(zone.id, 0)):
            found = _place_one(zone.center, radius, "white", zone.id, here, shapes, s, rng,
                               touch, mates=here)
            if found is not None:
                white.append(Neutral(zone.id, found.center, found.angle, found.top))
                shapes.append(square(found.center, s, found.angle))
    return tuple(cubes), tuple(discs), tuple(white)


def _place_disc(board: CountingBoard, center: tuple[float, float], radius: float,
                colour: str, region: str, shapes: list[np.ndarray],
                rng: random.Random) -> Disc | None:
    top = (rng.uniform(-0.04, 0.04), rng.uniform(-0.04, 0.04))
    for _ in range(200):
        r, a = radius * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
        where = (center[0] + r * math.cos(a), center[1] + r * math.sin(a))
        if _fits(disc(where, board.large_mm, 16), shapes, center, radius):
            return Disc(colour, region, where, top)
    return None


def _place_one(center: tuple[float, float], radius: float, colour: str, region: str,
               here: list[Cube], shapes: list[np.ndarray], s: float, rng: random.Random,
               touch: float, mates: list[Cube] | None = None) -> Cube | None:
    """One cube at a random spot, or with chance `touch` against one of `mates` (by default
    the cubes of its colour already `here`)."""
    if mates is None:
        mates = [p for p in here if p.colour == colour]
    top = (rng.uniform(-0.06, 0.06), rng.uniform(-0.06, 0.06))
    for _ in range(200):
        if mates and rng.random() < touch:  # against a mate, side to side, barely apart
            mate = rng.choice(mates)
            ux, uy = _axes(mate.angle)
            i, j = rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1)])
            step = s + rng.uniform(0.0, 0.4)
            slide = rng.uniform(-0.3, 0.3) * s
            where = (mate.center[0] + (ux[0] * i + uy[0] * j) * step + (uy[0] * i + ux[0] * j)
                     * slide, mate.center[1] + (ux[1] * i + uy[1] * j) * step
                     + (uy[1] * i + ux[1] * j) * slide)
            angle = mate.angle
        else:
            r, a = radius * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
            where = (center[0] + r * math.cos(a), center[1] + r * math.sin(a))
            angle = rng.uniform(0, 90)
        if _fits(square(where, s, angle), shapes, center, radius):
            return Cube(colour, region, where, angle, top)
    return None


def place_dice(board: CountingBoard, faces: list[int], rng: random.Random,
               covered: int | None = None) -> tuple[Die, ...]:
    """Dice showing `faces` at random spots and turns in the tray, never touching each other
    or the rim; die number `covered` has a finger over it."""
    assert board.tray is not None and board.tray.rect is not None
    x, y, w, h = board.tray.rect
    reach = board.die_mm * 0.75 + 8  # half a diagonal, the rim and a little room
    dice: list[Die] = []
    for index, face in enumerate(faces):
        for _ in range(500):
            where = (rng.uniform(x + reach, x + w - reach), rng.uniform(y + reach, y + h - reach))
            if all(math.dist(where, d.center) > board.die_mm * 1.6 for d in dice):
                break
        dice.append(Die(face, where, rng.uniform(0, 90), covered == index))
    return tuple(dice)
