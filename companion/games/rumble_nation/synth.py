"""A synthetic Rumble Nation table: our own drawing of the map and every piece, photographed.

The map is drawn from the kit's region centres (circles, names, land and sea links; no
publisher art), in the muted greens of a printed map so that white pieces stand out from it
as they do on the real board; the dice tray is a dark green felt. The pieces are those of the
rulebook (chapter 2, and chapter 8 for the daimyo), drawn by the counted tables' renderer
(`vision.piece_synth`: a darker footprint with a lighter top face, slightly turned and shifted,
under the scene's lamp, through the shared camera), under Rumble's names:

- soldiers (`Soldier`): 8 mm cubes in the players' colours (the cubes of the standard
  edition), some pushed against another of their colour, as players group them;
- daimyo (`Daimyo`, advanced rules): one larger round piece per player, in the player's colour;
- reinforcements (`Reinforcement`, war phase): white cubes, put beside the soldiers of the
  war's winner.

Three white dice show random faces at random turns in the tray; a finger may cover one.
Every frame carries its ground truth: soldiers, daimyo and reinforcements per region, and the
dice faces (None for a covered die).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.vision.corpus import random_look
from companion.vision.counting import CountingBoard
from companion.vision.piece_synth import (
    WHITE_LIGHT,
    WOOD,
    Cube,
    Disc,
    Light,
    Neutral,
    PieceScene,
    PieceSynth,
    Tone,
    place_dice,
    place_pieces,
)
from companion.vision.synth import PX_PER_MM, Camera, Look, random_camera

__all__ = ["PALETTE", "Daimyo", "Reinforcement", "RumbleFrame", "RumbleScene",
           "RumbleSynth", "Soldier", "frames", "photograph", "place_dice", "place_pieces",
           "random_scene"]

PALETTE: dict[str, tuple[Tone, Tone]] = {c: WOOD[c] for c in ("red", "yellow", "blue", "black")}
"""The players' colours: red, yellow, blue and black wood (`piece_synth.WOOD`)."""

Soldier = Cube
"""A player's soldier: a cube in the player's colour."""
Daimyo = Disc
"""A player's daimyo: the board's large piece (`board.large.diameter_mm`), round, in the
player's colour."""
Reinforcement = Neutral
"""A white cube of the war phase: it belongs to no colour until the referee says whose."""
RumbleScene = PieceScene
"""Soldiers (`cubes`), dice, daimyo (`large`) and reinforcements (`neutral`) under a lamp."""

_MAP, _DISC, _RING, _LAND, _SEA, _NAME = ((104, 138, 116), (122, 160, 138), (92, 122, 104),
                                          (96, 128, 108), (126, 134, 112), (88, 116, 100))
"""The printed map's tones (BGR): land, the regions' circles and their rims, land and sea links,
names. Low in colour and mid in brightness, like most printed maps: black and white pieces both
stand out, and no line or name is as dark as a black piece or as colourful as a soldier."""


@dataclass(frozen=True)
class RumbleFrame:
    image: np.ndarray
    counts: Mapping[str, Mapping[str, int]]
    faces: tuple[int | None, ...]
    scene: PieceScene
    daimyo: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    reinforcements: Mapping[str, int] = field(default_factory=dict)


class RumbleSynth(PieceSynth):
    """Draws the Rumble Nation map and dice tray; the pieces, the lamp and the camera are the
    counted tables' (`PieceSynth`). `palette` replaces the players' colours (a set painted
    otherwise: what colour calibration is for)."""

    def __init__(self, board: CountingBoard, kit: Any,
                 palette: Mapping[str, tuple[Tone, Tone]] | None = None) -> None:
        super().__init__(board, kit, palette or PALETTE)

    def board(self) -> np.ndarray:
        """The empty table: map, links, region circles, names, the dice tray, corner markers."""
        if self._base is not None:
            return self._base.copy()
        width, height = self.canvas_size
        image = np.full((height, width, 3), (88, 120, 150), np.uint8)  # the table top
        g, r = self.geometry, self.counting
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
        assert self.counting.tray is not None and self.counting.tray.rect is not None
        x, y, w, h = self.counting.tray.rect
        cv2.rectangle(image, self._mm(x, y), self._mm(x + w, y + h), (40, 70, 110), -1)
        cv2.rectangle(image, self._mm(x + 6, y + 6), self._mm(x + w - 6, y + h - 6),
                      (50, 115, 25), -1)


def random_scene(board: CountingBoard, rng: random.Random, empty: float = 0.25,
                 cover: float = 0.05, daimyo: float = 0.0, reinforcements: float = 0.0,
                 light: Light = WHITE_LIGHT) -> PieceScene:
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
    return PieceScene({}, soldiers, dice, placed, white, light)


def frames(synth: RumbleSynth, count: int, size: tuple[int, int], seed: int = 0,
           light: Light = WHITE_LIGHT, daimyo: float = 0.0,
           reinforcements: float = 0.0) -> Iterator[RumbleFrame]:
    """`count` seeded frames of random tables, camera poses and looks under `light` (no
    hands: a hand over the board is the tracker's business, not the counter's)."""
    rng = random.Random(seed)
    for _ in range(count):
        scene = random_scene(synth.counting, rng, daimyo=daimyo, reinforcements=reinforcements,
                             light=light)
        camera = random_camera(rng, size)
        yield photograph(synth, scene, camera, random_look(rng))


def photograph(synth: RumbleSynth, scene: PieceScene, camera: Camera,
               look: Look | None = None) -> RumbleFrame:
    """A frame of `scene` with its ground truth (a perfect look by default)."""
    image = synth.photograph(scene, camera, look or Look()).image
    board = synth.counting
    return RumbleFrame(image, scene.counts(board), scene.faces(board.dice), scene,
                       scene.large_counts(board), scene.neutral_counts(board))
