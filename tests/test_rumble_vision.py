"""Rumble Nation vision: soldiers counted per region and colour, dice read, on synthetic frames."""

from __future__ import annotations

import math
import random
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.games.rumble_nation.synth import (
    Die,
    RumbleScene,
    RumbleSynth,
    Soldier,
    photograph,
    place_dice,
    place_soldiers,
    random_scene,
)
from companion.games.rumble_nation.vision_bench import bench_rumble_vision, score_dice
from companion.kits import load_kit
from companion.vision.counting import BoardNotFound, RumbleBoard, RumbleReader, soldier_clumps
from companion.vision.dice import read_face
from companion.vision.synth import Camera, Look

SIZE = (1920, 1440)
"""Enough for soldiers (1.5 px/mm); a die's six needs the full frame under blur."""
FULL = (4056, 3040)
"""The Pi HQ camera's still: 3.3 px/mm, what the dice are read from."""
POSE = (0.04, -0.03, -0.05, 0.02, 0.03, -0.04, -0.02, 0.05)
TILTED = Camera(SIZE, POSE, 0.05)
TILTED_FULL = Camera(FULL, POSE, 0.05)


@pytest.fixture(scope="module")
def board() -> RumbleBoard:
    return RumbleBoard.load(load_kit("rumble_nation"))


@pytest.fixture(scope="module")
def synth(board):
    return RumbleSynth(board, load_kit("rumble_nation"))


@pytest.fixture(scope="module")
def reader(board):
    return RumbleReader(board)


@pytest.fixture(scope="module")
def busy(board) -> RumbleScene:
    """Every region but two occupied, four colours, three dice."""
    rng = random.Random(7)
    regions = [z.id for z in board.regions if z.id not in ("kyo", "shuri")]
    wanted = {r: {c: rng.choice([0, 1, 2, 3, 5]) for c in ("red", "yellow", "blue", "black")}
              for r in regions}
    return RumbleScene({}, place_soldiers(board, wanted, rng), place_dice(board, [2, 5, 6], rng))


def _row(colour: str, region: str, start: tuple[float, float], angle: float, n: int,
         step: float) -> list[Soldier]:
    """`n` soldiers side by side along `angle`, `step` mm apart (the cube's side: touching)."""
    a = math.radians(angle)
    return [Soldier(colour, region, (start[0] + i * step * math.cos(a),
                                     start[1] + i * step * math.sin(a)), angle)
            for i in range(n)]


def test_clean_frame_counts_every_region_and_reads_the_dice(synth, reader, busy):
    frame = photograph(synth, busy, Camera(SIZE))
    reading = reader.read(frame.image)
    assert reading.counts == frame.counts
    assert reading.dice.faces == (2, 5, 6)
    assert sum(n for c in frame.counts.values() for n in c.values()) > 60


PERTURBATIONS = {
    "defocus": Look(defocus=1.2), "motion": Look(motion=5), "noise": Look(noise=6, seed=3),
    "uneven light": Look(light=0.4), "glare": Look(glare=0.4, seed=5),
    "everything": Look(defocus=1.0, motion=3, noise=5, light=0.3, glare=0.3, seed=9),
}


@pytest.mark.parametrize("name", PERTURBATIONS)
def test_counts_and_dice_survive_each_perturbation(synth, reader, busy, name):
    frame = photograph(synth, busy, TILTED_FULL, PERTURBATIONS[name])
    reading = reader.read(frame.image)
    assert reading.counts == frame.counts, name
    assert reading.dice.faces == frame.faces, name


def test_touching_soldiers_are_counted_by_area_not_by_blob(board, synth, reader):
    kyo, odawara = board.geometry.zone("kyo"), board.geometry.zone("odawara")
    s = board.cube_mm
    soldiers = [*_row("red", "kyo", (kyo.center[0] - 16, kyo.center[1] - 8), 20, 5, s),
                *_row("black", "odawara", (odawara.center[0] - 10, odawara.center[1]), 0, 3, s),
                *_row("black", "odawara", (odawara.center[0] - 10, odawara.center[1] + s), 0, 2,
                      s),
                Soldier("yellow", "kyo", (kyo.center[0], kyo.center[1] + 14), 40)]
    scene = RumbleScene({}, tuple(soldiers), place_dice(board, [1, 1, 1], random.Random(1)))
    frame = photograph(synth, scene, TILTED, Look(defocus=0.8, noise=3))
    reading = reader.read(frame.image)
    assert reading.counts["kyo"] == {"red": 5, "yellow": 1, "blue": 0, "black": 0}
    assert reading.counts["odawara"]["black"] == 5
    # the five reds are one blob: a blob count would have said 1
    patch = reader.region_view(frame.image, reading.calibration, kyo)
    reds = soldier_clumps(board, patch, kyo)["red"]
    assert len(reds) == 1
    assert reds[0] == pytest.approx(5 * s * s, rel=0.1)


def test_empty_regions_and_an_empty_board_read_zero(board, synth, reader, busy):
    frame = photograph(synth, busy, Camera(SIZE), Look(noise=4, seed=2))
    reading = reader.read(frame.image)
    assert reading.counts["kyo"] == {"red": 0, "yellow": 0, "blue": 0, "black": 0}
    assert reading.counts["shuri"] == reading.counts["kyo"]
    empty = RumbleScene({}, (), place_dice(board, [3, 4, 6], random.Random(2)))
    reading = reader.read(photograph(synth, empty, TILTED, Look(glare=0.3, light=0.3)).image)
    assert all(n == 0 for colours in reading.counts.values() for n in colours.values())
    assert reading.dice.faces == (3, 4, 6)


@pytest.mark.parametrize("angle", [0.0, 13.0, 30.0, 45.0, 74.0])
def test_every_face_is_read_at_several_turns(board, synth, reader, angle):
    assert board.tray.rect is not None
    x, y, w, h = board.tray.rect
    spots = [(x + 30, y + 35), (x + w / 2, y + h / 2), (x + w - 30, y + h - 35)]
    for faces in ((1, 2, 3), (4, 5, 6)):
        dice = tuple(Die(f, spot, angle + 7 * i) for i, (f, spot) in enumerate(zip(
            faces, spots, strict=True)))
        frame = photograph(synth, RumbleScene({}, (), dice), TILTED_FULL, Look(defocus=1.0))
        assert reader.read(frame.image).dice.faces == faces, (angle, faces)


def test_a_covered_die_gives_none_never_a_guess(board, synth, reader):
    dice = place_dice(board, [4, 6, 2], random.Random(3), covered=1)
    frame = photograph(synth, RumbleScene({}, (), dice), Camera(SIZE), Look(noise=3))
    reading = reader.read(frame.image)
    assert frame.faces == (2, 4, None)
    assert reading.dice.faces == (2, 4, None)
    assert not reading.dice.complete
    assert reading.dice.objects == 3  # the covered die was seen, and not read


def test_a_missing_die_gives_none(board, synth, reader):
    dice = place_dice(board, [5, 3], random.Random(4))
    reading = reader.read(photograph(synth, RumbleScene({}, (), dice), Camera(SIZE)).image)
    assert reading.dice.faces == (3, 5, None)


def test_read_face_refuses_blank_and_merged_pips():
    die = np.full((64, 64), 235, np.uint8)
    assert read_face(die, 0.16) is None  # no pips at all
    die[20:44, 14:24] = 20  # a long smear where two pips ran together
    assert read_face(die, 0.16) is None
    one = np.full((64, 64), 235, np.uint8)
    yy, xx = np.indices(one.shape)
    one[(yy - 32) ** 2 + (xx - 32) ** 2 <= 25] = 20
    assert read_face(one, 0.16) == 1
    one[(yy - 15) ** 2 + (xx - 32) ** 2 <= 25] = 20  # a pip where no die has one
    assert read_face(one, 0.16) is None


def _six(blur: float) -> np.ndarray:
    """A six with fat pips (gaps of 1.3 pixels between a column's), optionally blurred."""
    die = np.full((64, 64), 235, np.uint8)
    for i, j in ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)):
        cv2.circle(die, (round(32 + i * 17.3), round(32 + j * 17.3)), 8, 20, -1)
    return cv2.GaussianBlur(die, (0, 0), blur) if blur else die


def test_pips_run_together_by_blur_are_read_at_their_places():
    blurred = _six(2.5)
    pips = (blurred < 128).astype(np.uint8)
    assert cv2.connectedComponents(pips)[0] - 1 == 2  # two bars, not six blobs
    assert read_face(blurred, 0.16) == 6
    half = blurred.copy()
    half[:, 40:] = 235  # one bar alone: three pips in a line are no face
    assert read_face(half, 0.16) is None


def test_no_board_in_view_is_a_clear_error(reader):
    with pytest.raises(BoardNotFound, match="corner markers visible"):
        reader.read(np.full((1440, 1920, 3), 128, np.uint8))
    with pytest.raises(ValueError, match="BGR colour frame"):
        reader.read(np.zeros((1440, 1920), np.uint8))


def test_a_random_corpus_frame_carries_its_truth(board, synth, reader):
    rng = random.Random(11)
    scene = random_scene(board, rng)
    frame = photograph(synth, scene, TILTED, Look(noise=4, seed=1))
    assert frame.counts == scene.counts(board)
    assert sum(Counter(s.colour for s in scene.soldiers).values()) == len(scene.soldiers)
    assert reader.read(frame.image).counts == frame.counts


def test_dice_are_scored_as_multisets():
    errors: Counter[tuple[int | None, int | None]] = Counter()
    assert score_dice((2, 4, 6), (2, 4, 6), errors) == 3
    assert score_dice((2, 4, None), (2, 4, None), errors) == 3
    assert score_dice((2, 4, 6), (2, 6, None), errors) == 2
    assert errors == Counter({(4, None): 1})


def test_the_bench_prints_the_three_figures():
    figures = bench_rumble_vision(2, seed=1, size=SIZE)
    assert {"count_accuracy", "dice_accuracy", "fps"} <= set(figures)
    assert figures["frames"] == 2 and figures["fps"] > 0
    assert 0.9 <= figures["count_accuracy"] <= 1.0


def test_vision_knows_no_rules():
    vision = Path(__file__).parents[1] / "companion" / "vision"
    for name in ("counting.py", "dice.py"):
        assert "companion.engine" not in (vision / name).read_text(encoding="utf-8"), name
