"""A synthetic Rumble Nation table: our own drawing of the map and every piece, photographed.

The map is drawn from the kit's region centres (circles, names, land and sea links; no
publisher art), in the muted greens of a printed map so that white pieces stand out from it
as they do on the real board. The pieces are those of the rulebook (chapter 2, and chapter 8
for the daimyo), drawn as the camera sees them from above, each a darker footprint with a
lighter top face, slightly turned and shifted:

- soldiers: 8 mm cubes in the players' colours (the cubes of the standard edition), some
  pushed against another of their colour, as players group them;
- daimyo (advanced rules): one larger round piece per player, in the player's colour;
- reinforcements (war phase): white cubes, put beside the soldiers of the war's winner.

Three white dice show random faces at random turns in the tray; a finger may cover one. The
lamp over the table is part of the scene (`Light`: a warm tungsten cast, a dim room): it
multiplies everything the camera sees, glare included, before the sensor's noise. The rest of
the photograph is the shared renderer's (`synth.Synth.photograph`: perspective, lens
distortion, blur, noise, uneven light, glare).
Every frame carries its ground truth: soldiers, daimyo and reinforcements per region, and the
dice faces (None for a covered die).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from companion.vision.corpus import random_look
from companion.vision.counting import CountingBoard
from companion.vision.dice import PIP_OFFSET
from companion.vision.synth import PX_PER_MM, Camera, Frame, Look, Scene, Synth, random_camera

__all__ = ["DIM_LIGHT", "PALETTE", "WARM_LIGHT", "WHITE", "WHITE_LIGHT", "Daimyo", "Die", "Light",
           "Reinforcement", "RumbleFrame", "RumbleScene", "RumbleSynth", "Soldier", "frames",
           "photograph", "place_dice", "place_pieces", "place_soldiers", "random_scene"]

Tone = tuple[int, int, int]

PALETTE: dict[str, tuple[Tone, Tone]] = {
    "red": ((30, 30, 165), (70, 70, 220)),
    "yellow": ((20, 160, 195), (70, 215, 245)),
    "blue": ((140, 60, 15), (200, 115, 50)),
    "black": ((22, 22, 22), (58, 58, 58)),
}
"""Each colour's sides and lighter top face (BGR), as painted wood looks under a lamp."""
WHITE: tuple[Tone, Tone] = ((204, 208, 208), (244, 246, 246))
"""The reinforcements' sides and top: white wood."""

_MAP, _DISC, _RING, _LAND, _SEA, _NAME = ((104, 138, 116), (122, 160, 138), (92, 122, 104),
                                          (96, 128, 108), (126, 134, 112), (88, 116, 100))
"""The printed map's tones (BGR): land, the regions' circles and their rims, land and sea links,
names. Low in colour and mid in brightness, like most printed maps: black and white pieces both
stand out, and no line or name is as dark as a black piece or as colourful as a soldier."""
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
class Soldier:
    colour: str
    region: str
    center: tuple[float, float]
    angle: float
    """Degrees."""
    top: tuple[float, float] = (0.0, 0.0)
    """Where the top face sits inside the footprint (fractions of the side: the view's slant)."""


@dataclass(frozen=True)
class Daimyo:
    """A player's daimyo: a round piece larger than a soldier (`board.large.diameter_mm`)."""

    colour: str
    region: str
    center: tuple[float, float]
    top: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class Reinforcement:
    """A white cube of the war phase; it belongs to no colour until the referee says whose."""

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
class RumbleScene(Scene):
    """Pieces and dice on the table under a lamp (no tags: the base class's `tags` stays empty).
    Scenes compare by identity, so the renderer redraws the table for each new scene."""

    soldiers: tuple[Soldier, ...] = ()
    dice: tuple[Die, ...] = ()
    daimyo: tuple[Daimyo, ...] = ()
    reinforcements: tuple[Reinforcement, ...] = ()
    light: Light = Light()

    def counts(self, board: CountingBoard) -> dict[str, dict[str, int]]:
        """Soldiers in the reader's shape: every region, every colour (daimyo not included)."""
        result = {z.id: {c.name: 0 for c in board.colours} for z in board.regions}
        for soldier in self.soldiers:
            result[soldier.region][soldier.colour] += 1
        return result

    def daimyo_counts(self, board: CountingBoard) -> dict[str, dict[str, int]]:
        """Daimyo in the reader's shape (`CountReading.large`): every region, every colour."""
        result = {z.id: {c.name: 0 for c in board.colours} for z in board.regions}
        for daimyo in self.daimyo:
            result[daimyo.region][daimyo.colour] += 1
        return result

    def reinforcement_counts(self, board: CountingBoard) -> dict[str, int]:
        """Reinforcements in the reader's shape (`CountReading.neutral`): every region."""
        result = {z.id: 0 for z in board.regions}
        for piece in self.reinforcements:
            result[piece.region] += 1
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
    daimyo: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    reinforcements: Mapping[str, int] = field(default_factory=dict)


class RumbleSynth(Synth):
    """Draws the Rumble Nation table; `photograph` (inherited) does the camera. `palette`
    replaces the players' colours (a set painted otherwise: what colour calibration is for)."""

    def __init__(self, board: CountingBoard, kit: Any,
                 palette: Mapping[str, tuple[Tone, Tone]] | None = None) -> None:
        super().__init__(board.geometry, kit)
        self.rumble = board
        self.palette = dict(palette or PALETTE)

    def _mm(self, x: float, y: float) -> tuple[int, int]:
        return self._to_px(x, y)

    def board(self) -> np.ndarray:
        """The empty table: map, links, region circles, names, the dice tray, corner markers."""
        if self._base is not None:
            return self._base.copy()
        width, height = self.canvas_size
        image = np.full((height, width, 3), (88, 120, 150), np.uint8)  # the table top
        g, r = self.geometry, self.rumble
        cv2.rectangle(image, self._mm(0, 0), self._mm(*g.board_mm), _MAP, -1)
        where = {z.id: z.center for z in r.regions}
        for road in getattr(self.kit, "roads", ()):
            colour = _SEA if getattr(road, "kind", "") == "sea" else _LAND
            cv2.line(image, self._mm(*where[road.a]), self._mm(*where[road.b]), colour,
                     round(3 * PX_PER_MM), cv2.LINE_AA)
        for zone in r.regions:
            radius = round((zone.radius or 0) * PX_PER_MM)
            cv2.circle(image, self._mm(*zone.center), radius + round(2 * PX_PER_MM), _RING,
                       round(PX_PER_MM), cv2.LINE_AA)
            cv2.circle(image, self._mm(*zone.center), radius, _DISC, -1, cv2.LINE_AA)
            x, y = zone.center[0] - (zone.radius or 0), zone.center[1] + (zone.radius or 0) + 9
            cv2.putText(image, zone.name.encode("ascii", "ignore").decode(), self._mm(x, y),
                        cv2.FONT_HERSHEY_SIMPLEX, 1.6, _NAME, 3, cv2.LINE_AA)
        self._tray(image)
        for marker, (x, y) in g.corners.items():
            self._stamp(image, marker, (x, y), g.corner_size_mm, border=(255, 255, 255))
        self._base = image
        return image.copy()

    def _tray(self, image: np.ndarray) -> None:
        """A wooden rim and a green felt."""
        assert self.rumble.tray is not None and self.rumble.tray.rect is not None
        x, y, w, h = self.rumble.tray.rect
        cv2.rectangle(image, self._mm(x, y), self._mm(x + w, y + h), (40, 70, 110), -1)
        cv2.rectangle(image, self._mm(x + 6, y + 6), self._mm(x + w - 6, y + h - 6),
                      (50, 115, 25), -1)

    def table(self, scene: Scene, art: int = 0,
              cards: tuple[tuple[float, float, float], ...] = ()) -> np.ndarray:
        """The table with the scene's pieces and dice (in white light: see `photograph`). The
        room conditions drawn on Sekigahara's map (red ink `art`, `cards` lying on it) are not
        drawn on this board yet: Rumble's reader counts colours and has its own benchmark."""
        image = self.board()
        if not isinstance(scene, RumbleScene):
            return image
        for daimyo in scene.daimyo:
            self._daimyo(image, daimyo)
        for soldier in scene.soldiers:
            self._cube(image, self.palette[soldier.colour], soldier.center, soldier.angle,
                       soldier.top)
        for piece in scene.reinforcements:
            self._cube(image, WHITE, piece.center, piece.angle, piece.top)
        for die in scene.dice:
            self._die(image, die)
        return image

    def photograph(self, scene: Scene, camera: Camera, look: Look = _PLAIN) -> Frame:
        """The shared renderer's photograph, under the scene's lamp: the lamp's colour scales
        everything the camera sees, the glare on the board and a hand included (a lamp's
        reflection is the lamp's colour), before the sensor adds its noise."""
        light = scene.light if isinstance(scene, RumbleScene) else Light()
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
        s = self.rumble.cube_mm
        self._poly(image, square(center, s, angle), side)
        ux, uy = _axes(angle)
        dx, dy = top
        middle = (center[0] + (ux[0] * dx + uy[0] * dy) * s,
                  center[1] + (ux[1] * dx + uy[1] * dy) * s)
        self._poly(image, square(middle, 0.76 * s, angle), face)

    def _daimyo(self, image: np.ndarray, daimyo: Daimyo) -> None:
        side, face = self.palette[daimyo.colour]
        d = self.rumble.large_mm
        self._poly(image, disc(daimyo.center, d), side)
        middle = (daimyo.center[0] + daimyo.top[0] * d, daimyo.center[1] + daimyo.top[1] * d)
        self._poly(image, disc(middle, 0.76 * d), face)

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


def place_soldiers(board: CountingBoard, wanted: Mapping[str, Mapping[str, int]],
                   rng: random.Random, touch: float = 0.4) -> tuple[Soldier, ...]:
    """Soldiers for `wanted` (region -> colour -> how many), each region's at random spots in
    its circle; a share `touch` pushed against the previous soldier of its colour there. A
    soldier with no room left is not placed (the truth is what was placed)."""
    return place_pieces(board, wanted, rng, touch=touch)[0]


def place_pieces(board: CountingBoard, wanted: Mapping[str, Mapping[str, int]],
                 rng: random.Random, daimyo: Mapping[str, str] | None = None,
                 reinforcements: Mapping[str, int] | None = None, touch: float = 0.4,
                 ) -> tuple[tuple[Soldier, ...], tuple[Daimyo, ...], tuple[Reinforcement, ...]]:
    """Soldiers as `place_soldiers`, and in each region first the daimyo there (`daimyo`:
    colour -> region) at a random spot, last the reinforcements (`reinforcements`: region ->
    how many), each pushed against a soldier with chance `touch` (the rules ask for them
    beside the winner's soldiers). Pieces with no room left are not placed."""
    s = board.cube_mm
    soldiers: list[Soldier] = []
    leaders: list[Daimyo] = []
    extra: list[Reinforcement] = []
    for zone in board.regions:
        shapes: list[np.ndarray] = []
        radius = (zone.radius or 0) - 1
        for colour, region in (daimyo or {}).items():
            if region == zone.id:
                leader = _place_daimyo(board, zone.center, radius, colour, region, shapes, rng)
                if leader is not None:
                    leaders.append(leader)
                    shapes.append(disc(leader.center, board.large_mm, 16))
        for colour, count in wanted.get(zone.id, {}).items():
            for _ in range(count):
                soldier = _place_one(zone.center, radius, colour, zone.id,
                                     [p for p in soldiers if p.region == zone.id], shapes, s,
                                     rng, touch)
                if soldier is not None:
                    soldiers.append(soldier)
                    shapes.append(square(soldier.center, s, soldier.angle))
        here = [p for p in soldiers if p.region == zone.id]
        for _ in range((reinforcements or {}).get(zone.id, 0)):
            found = _place_one(zone.center, radius, "white", zone.id, here, shapes, s, rng,
                               touch, mates=here)
            if found is not None:
                extra.append(Reinforcement(zone.id, found.center, found.angle, found.top))
                shapes.append(square(found.center, s, found.angle))
    return tuple(soldiers), tuple(leaders), tuple(extra)


def _place_daimyo(board: CountingBoard, center: tuple[float, float], radius: float,
                  colour: str, region: str, shapes: list[np.ndarray],
                  rng: random.Random) -> Daimyo | None:
    top = (rng.uniform(-0.04, 0.04), rng.uniform(-0.04, 0.04))
    for _ in range(200):
        r, a = radius * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
        where = (center[0] + r * math.cos(a), center[1] + r * math.sin(a))
        if _fits(disc(where, board.large_mm, 16), shapes, center, radius):
            return Daimyo(colour, region, where, top)
    return None


def _place_one(center: tuple[float, float], radius: float, colour: str, region: str,
               here: list[Soldier], shapes: list[np.ndarray], s: float, rng: random.Random,
               touch: float, mates: list[Soldier] | None = None) -> Soldier | None:
    """One cube at a random spot, or with chance `touch` against one of `mates` (by default
    the soldiers of its colour already `here`)."""
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
            return Soldier(colour, region, where, angle, top)
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


def random_scene(board: CountingBoard, rng: random.Random, empty: float = 0.25,
                 cover: float = 0.05, daimyo: float = 0.0, reinforcements: float = 0.0,
                 light: Light = Light()) -> RumbleScene:
    """Two to four players; each region empty with chance `empty`, else up to six soldiers
    of each colour; three dice, one of them covered with chance `cover`. With chance `daimyo`
    the game uses the advanced rules: each player's daimyo stands in a random region. With
    chance `reinforcements` the game is at war: each occupied region holds up to four
    reinforcements. (With both chances 0 no random number is drawn for them: the corpus of
    earlier versions is unchanged.)"""
    players = rng.sample([c.name for c in board.colours], rng.randint(2, len(board.colours)))
    wanted = {}
    for zone in board.regions:
        if rng.random() >= empty:
            wanted[zone.id] = {c: rng.choice([0, 0, 1, 1, 2, 2, 3, 4, 5, 6]) for c in players}
    regions = [z.id for z in board.regions]
    leaders = ({c: rng.choice(regions) for c in players}
               if daimyo and rng.random() < daimyo else {})
    extra = ({r: rng.choice([0, 0, 1, 2, 2, 3, 4]) for r in wanted}
             if reinforcements and rng.random() < reinforcements else {})
    covered = rng.randrange(board.dice) if rng.random() < cover else None
    dice = place_dice(board, [rng.randint(1, 6) for _ in range(board.dice)], rng, covered)
    soldiers, placed, white = place_pieces(board, wanted, rng, leaders, extra)
    return RumbleScene({}, soldiers, dice, placed, white, light)


def frames(synth: RumbleSynth, count: int, size: tuple[int, int], seed: int = 0,
           light: Light = Light(), daimyo: float = 0.0,
           reinforcements: float = 0.0) -> Iterator[RumbleFrame]:
    """`count` seeded frames of random tables, camera poses and looks under `light` (no
    hands: a hand over the board is the tracker's business, not the counter's)."""
    rng = random.Random(seed)
    for _ in range(count):
        scene = random_scene(synth.rumble, rng, daimyo=daimyo, reinforcements=reinforcements,
                             light=light)
        camera = random_camera(rng, size)
        yield photograph(synth, scene, camera, random_look(rng))


def photograph(synth: RumbleSynth, scene: RumbleScene, camera: Camera,
               look: Look | None = None) -> RumbleFrame:
    """A frame of `scene` with its ground truth (a perfect look by default)."""
    image = synth.photograph(scene, camera, look or Look()).image
    board = synth.rumble
    return RumbleFrame(image, scene.counts(board), scene.faces(board.dice), scene,
                       scene.daimyo_counts(board), scene.reinforcement_counts(board))
