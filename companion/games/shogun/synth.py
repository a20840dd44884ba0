"""A synthetic Shogun table: THE PROJECT'S EXAMPLE BOARD (not the printed map) drawn from the
kit and the calibration file, armies and farmers as cubes, the battle tower's tray, photographed.

The map is our own: the five regions as bands of muted paper tones, each province a circle with
its name below it (out of the reader's reach), land links as lines and sea links as dashes; no
publisher art. Beside the map stands the tower (its top seen from above) and, in front of it,
its tray: a light wooden rim around a pale floor, so that cubes of every colour, black
included, stand out there as on the map.

The pieces are the rulebook's (Componenti): armies are cubes in the five player colours,
farmers green cubes (8 mm here: `cube_mm`, the example set's). A position comes from a random
legal game (`random_position`): each province holds its owner's armies, some pushed against
one another as players group them; the tray holds what the tower let fall at the last throw,
close together, some touching across colours (cubes resting on one another are not drawn).
Cubes are drawn and photographed by the counted tables' renderer (`vision.piece_synth`: a
darker footprint, a lighter top face, the lamp, the shared camera).
Every frame carries its truth: cubes per province and colour, and the tray's cubes by colour.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.engine import Game, fold, random_playout
from companion.games.shogun.kit import ShogunKit
from companion.games.shogun.rules import ShogunRules, ShogunState
from companion.games.shogun.rules.state import FARMERS, frozen
from companion.games.shogun.rules.tower import sample_tray
from companion.vision.corpus import random_look
from companion.vision.counting import CountingBoard
from companion.vision.piece_synth import (
    WHITE_LIGHT,
    WOOD,
    Cube,
    Light,
    PieceScene,
    PieceSynth,
    Tone,
    place_cubes,
    square,
)
from companion.vision.synth import PX_PER_MM, Camera, Look, random_camera

__all__ = ["PALETTE", "ShogunFrame", "ShogunSynth", "colour_of", "frames", "photograph",
           "place_tray", "position_counts", "random_position", "random_throw", "scene_of"]

PALETTE: dict[str, tuple[Tone, Tone]] = {
    c: WOOD[c] for c in ("red", "yellow", "blue", "black", "purple", "green")}
"""Each colour's sides and lighter top face (BGR): the red, yellow, blue, black and purple
armies and the green farmers of Shogun's box, painted wood (`piece_synth.WOOD`)."""

_PAPER = (128, 150, 160)
"""The map's paper (BGR): low in colour and mid in brightness, as printed maps are: black cubes are
darker than it by far, no colour's cube is as grey."""
_BAND = 7
"""How far each region's tone strays from the paper's (grey levels): regions show, and the
board's tint (`counting.board_tint`) stays one."""
_DISC, _RIM, _NAME, _LAND, _SEA = ((140, 162, 172), (108, 128, 138), (100, 120, 132),
                                   (104, 124, 134), (140, 140, 120))
_TOWER, _RIM_WOOD, _FLOOR = (70, 80, 95), (165, 180, 190), (150, 160, 168)
"""The tower's top, the tray's rim (light wood) and its floor: none of them dark or colourful."""


@dataclass(frozen=True)
class ShogunFrame:
    image: np.ndarray
    counts: Mapping[str, Mapping[str, int]]
    """Province -> colour -> cubes (every province, every colour)."""
    tray: Mapping[str, int]
    """Colour -> cubes in the tray (every colour)."""
    scene: PieceScene
    """Armies and farmers in provinces (`cubes`), cubes in the tower's tray (`tray`)."""


class ShogunSynth(PieceSynth):
    """Draws the example board of one side (`side`: its provinces and links) and the tower's
    tray; cubes, the lamp and the camera are the counted tables' (`PieceSynth`)."""

    def __init__(self, board: CountingBoard, kit: ShogunKit, side: str = "sun",
                 palette: Mapping[str, tuple[Tone, Tone]] | None = None) -> None:
        super().__init__(board, kit, palette or PALETTE)
        self.side = side
        self.shogun_kit = kit

    def board(self) -> np.ndarray:
        """The empty table: regions, links, province circles and names, the tower and its
        tray, the corner markers."""
        if self._base is not None:
            return self._base.copy()
        width, height = self.canvas_size
        image = np.full((height, width, 3), (88, 120, 150), np.uint8)  # the table top
        self._regions(image)
        self._links(image)
        for zone in self.counting.regions:
            radius = round((zone.radius or 0) * PX_PER_MM)
            cv2.circle(image, self._mm(*zone.center), radius, _DISC, -1, cv2.LINE_AA)
            cv2.circle(image, self._mm(*zone.center), radius, _RIM, round(PX_PER_MM),
                       cv2.LINE_AA)
            below = (zone.radius or 0) + self.counting.reach_mm + 10  # out of the reader's reach
            cv2.putText(image, zone.name.encode("ascii", "ignore").decode(),
                        self._mm(zone.center[0] - (zone.radius or 0), zone.center[1] + below),
                        cv2.FONT_HERSHEY_SIMPLEX, 1.5, _NAME, 3, cv2.LINE_AA)
        self._tower(image)
        g = self.geometry
        for marker, (x, y) in g.corners.items():
            self._stamp(image, marker, (x, y), g.corner_size_mm, border=(255, 255, 255))
        self._base = image
        return image.copy()

    def _regions(self, image: np.ndarray) -> None:
        """Each region a band around its provinces, in its own shade of the paper."""
        provinces = self.shogun_kit.provinces(self.side)
        width, height = self.geometry.board_mm
        half = height / max(len(self.shogun_kit.regions), 1) / 2  # regions are the map's rows
        cv2.rectangle(image, self._mm(0, 0), self._mm(width, height), _PAPER, -1)
        where = {z.id: z.center for z in self.counting.regions}
        for index, region in enumerate(self.shogun_kit.regions):
            ys = [where[p][1] for p in provinces if provinces[p].region == region.id]
            if not ys:
                continue
            shift = _BAND * ((index % 3) - 1)
            tone = tuple(max(0, min(255, c + shift)) for c in _PAPER)
            top, bottom = max(0.0, min(ys) - half), min(height, max(ys) + half)
            cv2.rectangle(image, self._mm(0, top), self._mm(width, bottom), tone, -1)
            cv2.putText(image, region.name, self._mm(4, top + 10), cv2.FONT_HERSHEY_SIMPLEX,
                        1.2, _NAME, 2, cv2.LINE_AA)

    def _links(self, image: np.ndarray) -> None:
        """Land links as lines, sea links as dashes, between province centres."""
        where = {z.id: z.center for z in self.counting.regions}
        for link in self.shogun_kit.sides[self.side].links:
            (ax, ay), (bx, by) = where[link.a], where[link.b]
            steps = 1 if link.kind == "land" else max(1, round(math.dist((ax, ay), (bx, by)) / 8))
            for k in range(0, steps, 1 if steps == 1 else 2):
                a = (ax + (bx - ax) * k / steps, ay + (by - ay) * k / steps)
                b = (ax + (bx - ax) * (k + 1) / steps, ay + (by - ay) * (k + 1) / steps)
                cv2.line(image, self._mm(*a), self._mm(*b),
                         _LAND if link.kind == "land" else _SEA, round(2 * PX_PER_MM),
                         cv2.LINE_AA)

    def _tower(self, image: np.ndarray) -> None:
        """The tower's top behind the tray, the tray's rim and floor."""
        tray = self.counting.tray
        assert tray.rect is not None
        x, y, w, h = tray.rect
        cv2.rectangle(image, self._mm(x + 15, y - 100), self._mm(x + w - 15, y - 12), _TOWER, -1)
        cv2.rectangle(image, self._mm(x - 8, y - 8), self._mm(x + w + 8, y + h + 8),
                      _RIM_WOOD, -1)
        cv2.rectangle(image, self._mm(x, y), self._mm(x + w, y + h), _FLOOR, -1)


def colour_of(board: CountingBoard, kind: str) -> str:
    """The colour of the rules' `kind` of cube: a player's is its colour, `farmers` green
    (the board's `kinds` read backwards)."""
    return next((c for c, k in board.kinds.items() if k == kind), kind)


def position_counts(state: ShogunState, board: CountingBoard) -> dict[str, dict[str, int]]:
    """Province -> colour -> armies standing there in `state` (a province's armies are its
    owner's)."""
    wanted: dict[str, dict[str, int]] = {}
    for province, armies in state.armies.items():
        owner = state.owner.get(province)
        if owner is not None and armies:
            wanted[province] = {colour_of(board, owner): armies}
    return wanted


def place_tray(board: CountingBoard, tray: Mapping[str, int], rng: random.Random,
               touch: float = 0.5) -> tuple[Cube, ...]:
    """Cubes for `tray` (colour -> how many) as they fall from the tower: in the tray's
    rectangle, mostly in the part nearer the tower's mouth, each with chance `touch` beside one
    already there (touching, or nearly), whatever its colour. A cube with no room is not
    placed (the truth is what was placed)."""
    assert board.tray.rect is not None
    x, y, w, h = board.tray.rect
    s = board.cube_mm
    colours = [c for c, n in sorted(tray.items()) for _ in range(n)]
    rng.shuffle(colours)
    placed: list[Cube] = []
    shapes: list[np.ndarray] = []
    for colour in colours:
        top = (rng.uniform(-0.06, 0.06), rng.uniform(-0.06, 0.06))
        for _ in range(200):
            if placed and rng.random() < touch:
                mate = rng.choice(placed)
                a = rng.uniform(0, 2 * math.pi)
                step = s * rng.uniform(1.02, 1.3)
                where = (mate.center[0] + step * math.cos(a), mate.center[1] + step * math.sin(a))
            else:
                where = (rng.uniform(x + s, x + w - s), rng.uniform(y + s, y + h * 0.7))
            angle = rng.uniform(0, 90)
            shape = square(where, s, angle)
            inside = (shape[:, 0].min() > x + 0.5 and shape[:, 0].max() < x + w - 0.5
                      and shape[:, 1].min() > y + 0.5 and shape[:, 1].max() < y + h - 0.5)
            if inside and all(cv2.intersectConvexConvex(
                    shape.astype(np.float32), other.astype(np.float32))[0] < 0.05
                    for other in shapes):
                placed.append(Cube(colour, board.tray.id, where, angle, top))
                shapes.append(shape)
                break
    return tuple(placed)


def scene_of(board: CountingBoard, state: ShogunState, rng: random.Random,
             light: Light = WHITE_LIGHT) -> PieceScene:
    """`state`'s armies in their provinces and its tray's cubes in the tray, at random spots."""
    cubes = place_cubes(board, position_counts(state, board), rng)
    tray = {colour_of(board, kind): n for kind, n in state.tray.items() if n}
    return PieceScene({}, cubes, light=light, tray=place_tray(board, tray, rng))


def random_position(kit: ShogunKit, seed: int, rng: random.Random,
                    side: str = "sun") -> ShogunState:
    """A legal position of a random game (seeded by `seed`, 3 to 5 players): the table as
    one of its throws is read, drawn at random (the cubes thrown have left their provinces,
    the tray shows what fell: what the camera sees then), or its end when nothing was thrown."""
    rules = ShogunRules(kit, {"players": rng.randint(3, 5), "side": side})
    game = Game(rules, seed=seed)
    random_playout(game)
    throws = [i for i, ply in enumerate(game.history)
              if any(e.type == "TrayRead" for e in ply.events)]
    if not throws:
        state: ShogunState = game.state
        return state
    ply = rng.choice(throws)
    events = game.history[ply].events
    upto = next(i for i, e in enumerate(events) if e.type == "TrayRead")
    read: ShogunState = fold(rules, game.before(ply), events[:upto + 1])
    return read


def random_throw(kit: ShogunKit, state: ShogunState, rng: random.Random) -> dict[str, int]:
    """What falls into the tray (kind -> cubes) when a large battle is thrown into the tower
    as it stands in `state`: two of its players' armies (1 to 12 and 0 to 10) and up to 3
    farmers, with the tray's cubes, through the kit's simulated tower (`sample_tray`). The
    games' own throws are mostly small: this fills the tray."""
    attacker, defender = rng.sample(list(state.players), 2)
    thrown = {attacker: rng.randint(1, 12), defender: rng.randint(0, 10),
              FARMERS: rng.randint(0, 3)}
    throwing = replace(state, pending=frozen({"thrown": {k: n for k, n in thrown.items() if n}}))
    return dict(sample_tray(kit, throwing, rng).args["tray"])


def frames(synth: ShogunSynth, count: int, size: tuple[int, int], seed: int = 0,
           light: Light = WHITE_LIGHT, big_throws: float = 0.0) -> Iterator[ShogunFrame]:
    """`count` seeded frames of random legal positions (`random_position`), camera poses and
    looks under `light` (no hands: a hand over the table is the table reader's business); in
    a share `big_throws` of them the tray shows a large battle's throw (`random_throw`)."""
    rng = random.Random(seed)
    for _ in range(count):
        state = random_position(synth.shogun_kit, rng.randrange(1 << 30), rng, synth.side)
        if big_throws and rng.random() < big_throws:
            state = replace(state, tray=frozen(random_throw(synth.shogun_kit, state, rng)))
        scene = scene_of(synth.counting, state, rng, light)
        camera = random_camera(rng, size)
        yield photograph(synth, scene, camera, random_look(rng))


def photograph(synth: ShogunSynth, scene: PieceScene, camera: Camera,
               look: Look | None = None) -> ShogunFrame:
    """A frame of `scene` with its ground truth (a perfect look by default)."""
    image = synth.photograph(scene, camera, look or Look()).image
    board = synth.counting
    return ShogunFrame(image, scene.counts(board), scene.tray_counts(board), scene)
