"""A synthetic Rumble Nation table: our own drawing of the map, soldiers and dice, photographed.

The map is drawn from the kit's region centres (circles, names, land and sea links; no
publisher art). Soldiers are small cubes seen from above: a darker footprint with a lighter
top face, each slightly turned and shifted, some pushed against another. Three white dice show
random faces at random turns in the tray; a finger may cover one. The photograph is the
Sekigahara renderer's (`synth.Synth.photograph`: perspective, lens distortion, blur, noise,
uneven light, glare); this module only draws the table. Every frame carries its ground truth:
soldiers per region and colour, and the dice faces (None for a covered die).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.vision.corpus import random_look
from companion.vision.counting import RumbleBoard
from companion.vision.dice import PIP_OFFSET
from companion.vision.synth import PX_PER_MM, Camera, Look, Scene, Synth, random_camera

__all__ = ["PALETTE", "Die", "RumbleFrame", "RumbleScene", "RumbleSynth", "Soldier",
           "frames", "place_dice", "place_soldiers", "random_scene"]

PALETTE: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "red": ((30, 30, 165), (70, 70, 220)),
    "yellow": ((20, 160, 195), (70, 215, 245)),
    "blue": ((140, 60, 15), (200, 115, 50)),
    "black": ((22, 22, 22), (58, 58, 58)),
}
"""Each colour's sides and lighter top face (BGR), as painted wood looks under a lamp."""

_SKIN = (120, 145, 210)
_PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
         4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
         6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


@dataclass(frozen=True)
class Soldier:
    colour: str
    region: str
    center: tuple[float, float]
    angle: float
    """Degrees."""
    top: tuple[float, float] = (0.0, 0.0)
    """Where the top face sits inside the footprint (fractions of the side: the view's slant)."""


@dataclass(frozen=True)
class Die:
    face: int
    center: tuple[float, float]
    angle: float
    covered: bool = False


@dataclass(frozen=True, eq=False)
class RumbleScene(Scene):
    """Soldiers and dice on the table (no tags: the base class's `tags` stays empty)."""

    soldiers: tuple[Soldier, ...] = ()
    dice: tuple[Die, ...] = ()

    def counts(self, board: RumbleBoard) -> dict[str, dict[str, int]]:
        """The truth in the reader's shape: every region, every colour."""
        result = {z.id: {c.name: 0 for c in board.colours} for z in board.regions}
        for soldier in self.soldiers:
            result[soldier.region][soldier.colour] += 1
        return result

    def faces(self, count: int = 3) -> tuple[int | None, ...]:
        """The truth in the reader's shape: visible faces smallest first, then None."""
        seen = sorted(d.face for d in self.dice if not d.covered)
        return (*seen, *[None] * (count - len(seen)))


@dataclass(frozen=True)
class RumbleFrame:
    image: np.ndarray
    counts: Mapping[str, Mapping[str, int]]
    faces: tuple[int | None, ...]
    scene: RumbleScene


class RumbleSynth(Synth):
    """Draws the Rumble Nation table; `photograph` (inherited) does the camera."""

    def __init__(self, board: RumbleBoard, kit: Any) -> None:
        super().__init__(board.geometry, kit)
        self.rumble = board

    def _mm(self, x: float, y: float) -> tuple[int, int]:
        return self._to_px(x, y)

    def board(self) -> np.ndarray:
        """The empty table: map, links, region circles, names, the dice tray, corner markers."""
        if self._base is not None:
            return self._base.copy()
        width, height = self.canvas_size
        image = np.full((height, width, 3), (88, 120, 150), np.uint8)  # the table top
        g, r = self.geometry, self.rumble
        cv2.rectangle(image, self._mm(0, 0), self._mm(*g.board_mm), (214, 222, 224), -1)
        where = {z.id: z.center for z in r.regions}
        for road in getattr(self.kit, "roads", ()):
            colour = (214, 204, 192) if getattr(road, "kind", "") == "sea" else (196, 202, 206)
            cv2.line(image, self._mm(*where[road.a]), self._mm(*where[road.b]), colour,
                     round(3 * PX_PER_MM), cv2.LINE_AA)
        for zone in r.regions:
            radius = round((zone.radius or 0) * PX_PER_MM)
            cv2.circle(image, self._mm(*zone.center), radius + round(2 * PX_PER_MM),
                       (200, 206, 210), round(PX_PER_MM), cv2.LINE_AA)
            cv2.circle(image, self._mm(*zone.center), radius, (236, 240, 242), -1, cv2.LINE_AA)
            x, y = zone.center[0] - (zone.radius or 0), zone.center[1] + (zone.radius or 0) + 9
            cv2.putText(image, zone.name.encode("ascii", "ignore").decode(), self._mm(x, y),
                        cv2.FONT_HERSHEY_SIMPLEX, 1.6, (150, 158, 165), 3, cv2.LINE_AA)
        self._tray(image)
        for marker, (x, y) in g.corners.items():
            self._stamp(image, marker, (x, y), g.corner_size_mm, border=(255, 255, 255))
        self._base = image
        return image.copy()

    def _tray(self, image: np.ndarray) -> None:
        """A wooden rim and a green felt."""
        assert self.rumble.tray.rect is not None
        x, y, w, h = self.rumble.tray.rect
        cv2.rectangle(image, self._mm(x, y), self._mm(x + w, y + h), (40, 70, 110), -1)
        cv2.rectangle(image, self._mm(x + 6, y + 6), self._mm(x + w - 6, y + h - 6),
                      (50, 115, 25), -1)

    def table(self, scene: Scene) -> np.ndarray:
        image = self.board()
        if isinstance(scene, RumbleScene):
            for soldier in scene.soldiers:
                self._soldier(image, soldier)
            for die in scene.dice:
                self._die(image, die)
        return image

    def _poly(self, image: np.ndarray, points: np.ndarray, colour: tuple[int, int, int]) -> None:
        """A filled polygon, anti-aliased; drawn 0.7 pixel inside its outline since
        OpenCV's anti-aliased edge adds about that all round (8 per cent of a cube's area)."""
        left, top, _, _ = self.geometry.extent
        middle = points.mean(axis=0)
        reach = np.hypot(*(points - middle).T)[:, None]
        points = middle + (points - middle) * (1 - 0.7 / PX_PER_MM * np.sqrt(2) / reach)
        px = ((points - np.array([left, top])) * PX_PER_MM * 16).round().astype(np.int32)
        cv2.fillPoly(image, [px], colour, cv2.LINE_AA, shift=4)

    def _soldier(self, image: np.ndarray, soldier: Soldier) -> None:
        side, top = PALETTE[soldier.colour]
        s = self.rumble.cube_mm
        self._poly(image, square(soldier.center, s, soldier.angle), side)
        ux, uy = _axes(soldier.angle)
        dx, dy = soldier.top
        centre = (soldier.center[0] + (ux[0] * dx + uy[0] * dy) * s,
                  soldier.center[1] + (ux[1] * dx + uy[1] * dy) * s)
        self._poly(image, square(centre, 0.76 * s, soldier.angle), top)

    def _die(self, image: np.ndarray, die: Die) -> None:
        s = self.rumble.die_mm
        self._poly(image, square(die.center, s, die.angle), (196, 200, 200))  # bevelled edge
        self._poly(image, square(die.center, 0.9 * s, die.angle), (240, 242, 242))
        ux, uy = _axes(die.angle)
        for i, j in _PIPS[die.face]:
            x = die.center[0] + (ux[0] * i + uy[0] * j) * PIP_OFFSET * s
            y = die.center[1] + (ux[1] * i + uy[1] * j) * PIP_OFFSET * s
            cv2.circle(image, self._mm(x, y), round(self.rumble.pip_mm / 2 * PX_PER_MM),
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


def _fits(candidate: np.ndarray, placed: list[np.ndarray], center: tuple[float, float],
          radius: float) -> bool:
    """Inside the circle and overlapping no placed square (touching is allowed)."""
    if np.hypot(*(candidate - np.array(center)).T).max() > radius:
        return False
    a = candidate.astype(np.float32)
    return all(cv2.intersectConvexConvex(a, b.astype(np.float32))[0] < 0.05 for b in placed)


def place_soldiers(board: RumbleBoard, wanted: Mapping[str, Mapping[str, int]],
                   rng: random.Random, touch: float = 0.4) -> tuple[Soldier, ...]:
    """Soldiers for `wanted` (region -> colour -> how many), each region's at random spots in
    its circle; a share `touch` pushed against the previous soldier of its colour there. A
    soldier with no room left is not placed (the truth is what was placed)."""
    s = board.cube_mm
    placed: list[Soldier] = []
    for zone in board.regions:
        shapes: list[np.ndarray] = []
        for colour, count in wanted.get(zone.id, {}).items():
            for _ in range(count):
                soldier = _place_one(zone.center, (zone.radius or 0) - 1, colour, zone.id,
                                     [p for p in placed if p.region == zone.id], shapes, s,
                                     rng, touch)
                if soldier is not None:
                    placed.append(soldier)
                    shapes.append(square(soldier.center, s, soldier.angle))
    return tuple(placed)


def _place_one(center: tuple[float, float], radius: float, colour: str, region: str,
               here: list[Soldier], shapes: list[np.ndarray], s: float, rng: random.Random,
               touch: float) -> Soldier | None:
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
            return Soldier(colour, region, where, angle, top)
    return None


def place_dice(board: RumbleBoard, faces: list[int], rng: random.Random,
               covered: int | None = None) -> tuple[Die, ...]:
    """Dice showing `faces` at random spots and turns in the tray, never touching each other
    or the rim; die number `covered` has a finger over it."""
    assert board.tray.rect is not None
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


def random_scene(board: RumbleBoard, rng: random.Random, empty: float = 0.25,
                 cover: float = 0.05) -> RumbleScene:
    """Two to four players; each region empty with chance `empty`, else up to six soldiers
    of each colour; three dice, one of them covered with chance `cover`."""
    players = rng.sample([c.name for c in board.colours], rng.randint(2, len(board.colours)))
    wanted = {}
    for zone in board.regions:
        if rng.random() >= empty:
            wanted[zone.id] = {c: rng.choice([0, 0, 1, 1, 2, 2, 3, 4, 5, 6]) for c in players}
    covered = rng.randrange(board.dice) if rng.random() < cover else None
    dice = place_dice(board, [rng.randint(1, 6) for _ in range(board.dice)], rng, covered)
    return RumbleScene({}, place_soldiers(board, wanted, rng), dice)


def frames(synth: RumbleSynth, count: int, size: tuple[int, int],
           seed: int = 0) -> Iterator[RumbleFrame]:
    """`count` seeded frames of random tables, camera poses and looks (no hands: a hand over
    the board is the tracker's business, not the counter's)."""
    rng = random.Random(seed)
    for _ in range(count):
        scene = random_scene(synth.rumble, rng)
        camera = random_camera(rng, size)
        yield photograph(synth, scene, camera, random_look(rng))


def photograph(synth: RumbleSynth, scene: RumbleScene, camera: Camera,
               look: Look | None = None) -> RumbleFrame:
    """A frame of `scene` with its ground truth (a perfect look by default)."""
    image = synth.photograph(scene, camera, look or Look()).image
    return RumbleFrame(image, scene.counts(synth.rumble), scene.faces(synth.rumble.dice), scene)
