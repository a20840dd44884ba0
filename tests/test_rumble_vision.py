"""Rumble Nation's table read on synthetic frames: soldiers counted per region and colour, daimyo
and reinforcements told apart from them, colour under a warm lamp and in a dim room, doubtful
regions flagged, the colour calibration's round trip, the dice."""

from __future__ import annotations

import math
import random
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.games import Benchmark
from companion.games.rumble_nation.synth import (
    PALETTE,
    Daimyo,
    Reinforcement,
    RumbleScene,
    RumbleSynth,
    Soldier,
    photograph,
    place_dice,
    place_pieces,
    random_scene,
)
from companion.games.rumble_nation.vision_bench import BENCH, bench_rumble_vision
from companion.kits import load_kit
from companion.userdata import board_file, calibration_folder
from companion.vision import counting
from companion.vision.colour import WhiteReference
from companion.vision.colour_calibration import (
    ColourCalibrationError,
    calibrate_colours,
    learn_colours,
)
from companion.vision.count_scoring import score_dice
from companion.vision.counting import (
    BoardNotFound,
    Clump,
    CountingBoard,
    CountingReader,
    RegionPieces,
    read_region,
    soldier_clumps,
)
from companion.vision.dice import read_face
from companion.vision.piece_synth import (
    DIM_LIGHT,
    WARM_LIGHT,
    WHITE_LIGHT,
    Die,
    Light,
    place_cubes,
)
from companion.vision.synth import PX_PER_MM, Camera, Look

SIZE = (1920, 1440)
"""Enough for soldiers (1.5 px/mm); a die's six needs the full frame under blur."""
FULL = (4056, 3040)
"""The Pi HQ camera's still: 3.3 px/mm, what the dice are read from."""
POSE = (0.04, -0.03, -0.05, 0.02, 0.03, -0.04, -0.02, 0.05)
TILTED = Camera(SIZE, POSE, 0.05)
TILTED_FULL = Camera(FULL, POSE, 0.05)
COLOURS = ("red", "yellow", "blue", "black")
NONE = dict.fromkeys(COLOURS, 0)


@pytest.fixture(scope="module")
def kit():
    return load_kit("rumble_nation")


@pytest.fixture(scope="module")
def board(kit) -> CountingBoard:
    return CountingBoard.load(kit)


@pytest.fixture(scope="module")
def synth(board, kit):
    return RumbleSynth(board, kit)


@pytest.fixture(scope="module")
def reader(board):
    return CountingReader(board)


def _busy(board: CountingBoard, light: Light = WHITE_LIGHT) -> RumbleScene:
    """Every region but two occupied, four colours, three dice."""
    rng = random.Random(7)
    regions = [z.id for z in board.regions if z.id not in ("kyo", "shuri")]
    wanted = {r: {c: rng.choice([0, 1, 2, 3, 5]) for c in COLOURS} for r in regions}
    return RumbleScene({}, place_cubes(board, wanted, rng), place_dice(board, [2, 5, 6], rng),
                       light=light)


@pytest.fixture(scope="module")
def busy(board) -> RumbleScene:
    return _busy(board)


@pytest.fixture(scope="module")
def war(board) -> RumbleScene:
    """A game at war with the daimyo: every player's daimyo on the map, reinforcements
    beside the soldiers, many touching them."""
    rng = random.Random(12)
    regions = [z.id for z in board.regions]
    wanted = {r: {c: rng.choice([0, 1, 2, 3]) for c in COLOURS} for r in regions}
    leaders = {"red": "kyo", "yellow": "odawara", "blue": "usuki", "black": "kasugayama"}
    extra = {r: rng.choice([0, 1, 2, 3]) for r in regions}
    soldiers, daimyo, white = place_pieces(board, wanted, rng, leaders, extra, touch=0.6)
    return RumbleScene({}, soldiers, place_dice(board, [1, 3, 4], rng), daimyo, white)


def _row(colour: str, region: str, start: tuple[float, float], angle: float, n: int,
         step: float) -> list[Soldier]:
    """`n` soldiers side by side along `angle`, `step` mm apart (the cube's side: touching)."""
    a = math.radians(angle)
    return [Soldier(colour, region, (start[0] + i * step * math.cos(a),
                                     start[1] + i * step * math.sin(a)), angle)
            for i in range(n)]


def _all_zero(reading_counts) -> bool:
    return all(n == 0 for colours in reading_counts.values() for n in colours.values())


# --- soldiers and dice in white light -------------------------------------------------------


def test_clean_frame_counts_every_region_and_reads_the_dice(synth, reader, busy):
    frame = photograph(synth, busy, Camera(SIZE))
    reading = reader.read(frame.image)
    assert reading.counts == frame.counts
    assert reading.dice.faces == (2, 5, 6)
    assert reading.doubtful == ()
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
    assert reading.counts["kyo"] == NONE
    assert reading.counts["shuri"] == NONE
    empty = RumbleScene({}, (), place_dice(board, [3, 4, 6], random.Random(2)))
    reading = reader.read(photograph(synth, empty, TILTED, Look(glare=0.3, light=0.3)).image)
    assert _all_zero(reading.counts) and _all_zero(reading.large)
    assert set(reading.neutral.values()) == {0}
    assert reading.dice.faces == (3, 4, 6)


def test_the_piece_area_is_fitted_when_a_colour_has_no_lone_piece(board):
    """Blue soldiers looking 12 % small (blur on dark sides), none of them alone: clumps of 4, 3
    and 5 pin the area of one. With a single clump nothing does, and the nominal area leaves it
    4.4 pieces: flagged, not trusted."""
    unit = 0.88 * board.cube_mm ** 2

    def clump(n: int) -> Clump:
        return Clump("blue", (0.0, 0.0), unit * (n + board.seam * (n - 1)))

    regions = {"kyo": RegionPieces("kyo", (clump(4), clump(3))),
               "oko": RegionPieces("oko", (clump(5),))}
    counts, _, _, doubts = counting.tally(board, regions)
    assert (counts["kyo"]["blue"], counts["oko"]["blue"], doubts) == (7, 5, {})
    alone = {"oko": RegionPieces("oko", (clump(5),))}
    assert "4.40 pieces" in counting.tally(board, alone)[3]["oko"][0]


# --- daimyo and reinforcements --------------------------------------------------------------


def test_daimyo_and_reinforcements_are_never_counted_as_soldiers(synth, reader, war):
    frame = photograph(synth, war, TILTED, Look(defocus=0.8, noise=4, light=0.2, seed=6))
    reading = reader.read(frame.image)
    assert len(war.large) == 4 and len(war.neutral) > 10
    assert reading.counts == frame.counts
    assert reading.large == frame.daimyo
    assert reading.neutral == frame.reinforcements
    assert reading.doubtful == ()


def test_a_daimyo_with_its_soldiers_against_it_is_one_daimyo(board, synth, reader):
    """A red daimyo with three red soldiers pushed against it is one clump: its round core is
    the daimyo, the rest three soldiers. White reinforcements against the soldiers are neither."""
    kyo = board.geometry.zone("kyo").center
    s, r = board.cube_mm, board.large_mm / 2
    soldiers = [*_row("red", "kyo", (kyo[0] + r + s / 2, kyo[1] - s / 2), 90, 2, s),
                Soldier("red", "kyo", (kyo[0] - r - s / 2, kyo[1] + 2), 0)]
    white = (Reinforcement("kyo", (kyo[0] + r + 1.5 * s, kyo[1] - s / 2), 0),
             Reinforcement("kyo", (kyo[0] + r + 1.5 * s, kyo[1] + s / 2), 0))
    scene = RumbleScene({}, tuple(soldiers), place_dice(board, [1, 2, 3], random.Random(1)),
                        (Daimyo("red", "kyo", kyo),), white)
    frame = photograph(synth, scene, TILTED, Look(defocus=0.8, noise=3))
    reading = reader.read(frame.image)
    assert reading.counts["kyo"] == {**NONE, "red": 3}
    assert reading.large["kyo"] == {**NONE, "red": 1}
    assert reading.neutral["kyo"] == 2
    assert reading.doubtful == ()
    # one clump holds the daimyo and the three soldiers
    patch = reader.region_view(frame.image, reading.calibration, board.geometry.zone("kyo"))
    reds = [c for c in read_region(board, patch, board.geometry.zone("kyo")).clumps
            if c.colour == "red"]
    assert len(reds) == 1 and reds[0].large > 0


def test_a_block_of_soldiers_is_not_a_daimyo(board, synth, reader):
    """Six soldiers in a two-by-three block are as wide as two soldiers: no round core."""
    odawara = board.geometry.zone("odawara").center
    s = board.cube_mm
    block = [*_row("black", "odawara", (odawara[0] - s, odawara[1] - s / 2), 0, 3, s),
             *_row("black", "odawara", (odawara[0] - s, odawara[1] + s / 2), 0, 3, s)]
    scene = RumbleScene({}, tuple(block), place_dice(board, [1, 2, 3], random.Random(1)))
    reading = reader.read(photograph(synth, scene, TILTED, Look(defocus=1.0, noise=3)).image)
    assert reading.counts["odawara"]["black"] == 6
    assert _all_zero(reading.large)
    assert reading.doubtful == ()


# --- light: a warm lamp, a dim room ---------------------------------------------------------


def test_a_warm_lamp_reads_as_daylight(board, synth, reader):
    """Under a tungsten cast blue looks black and yellow greyish; the markers' white brings
    them back. Without it (gains of 1) the same views miscount."""
    scene = _busy(board, WARM_LIGHT)
    frame = photograph(synth, scene, TILTED_FULL, Look(defocus=0.8, noise=4, seed=2))
    reading = reader.read(frame.image)
    assert reading.counts == frame.counts
    assert reading.dice.faces == frame.faces
    assert reading.white is not None
    blue, _, red = reading.white.cast
    assert blue < 0.7 < 1.3 < red  # the light was warm, and the reader saw it
    as_is = WhiteReference(((0.0, 0.0),), ((255.0, 255.0, 255.0),))  # gains of 1
    unbalanced = {zone.id: read_region(board, reader.region_view(
        frame.image, reading.calibration, zone, as_is), zone) for zone in board.regions}
    assert counting.tally(board, unbalanced)[0] != frame.counts


def test_a_dim_room_reads_as_daylight(board, synth, reader, war):
    dim = RumbleScene({}, war.cubes, war.dice, war.large, war.neutral, DIM_LIGHT)
    frame = photograph(synth, dim, TILTED_FULL, Look(defocus=0.8, noise=3, seed=4))
    reading = reader.read(frame.image)
    assert reading.white is not None
    assert reading.white.brightness == pytest.approx(0.35, abs=0.05)
    assert reading.counts == frame.counts
    assert reading.large == frame.daimyo
    assert reading.neutral == frame.reinforcements
    assert reading.dice.faces == frame.faces


def test_a_room_too_dark_to_trust_makes_every_region_doubtful(board, synth, reader, busy):
    dark = RumbleScene({}, busy.cubes, busy.dice, light=Light((0.09, 0.09, 0.09)))
    reading = reader.read(photograph(synth, dark, Camera(SIZE), Look(noise=2, seed=1)).image)
    assert set(reading.doubtful) == {z.id for z in board.regions}
    assert all("too dark" in why[-1] for why in reading.doubts.values())


# --- doubt ----------------------------------------------------------------------------------


def test_two_soldiers_overlapping_make_their_region_doubtful(board, synth, reader):
    oko = board.geometry.zone("oko").center
    overlapping = (Soldier("red", "oko", oko, 10), Soldier("red", "oko", (oko[0] + 4, oko[1]), 10))
    scene = RumbleScene({}, overlapping, place_dice(board, [1, 2, 3], random.Random(1)))
    reading = reader.read(photograph(synth, scene, TILTED, Look(noise=3)).image)
    assert reading.doubtful == ("oko",)
    assert "red clump" in reading.doubts["oko"][0]


def _frame_point(synth: RumbleSynth, camera: Camera, x: float, y: float) -> tuple[float, float]:
    """Where board point (x, y) mm lands in the frame, as fractions of its size."""
    left, top, _, _ = synth.geometry.extent
    point = np.array([[[(x - left) * PX_PER_MM, (y - top) * PX_PER_MM]]], np.float32)
    fx, fy = cv2.perspectiveTransform(point, synth.homography(camera))[0][0]
    return float(fx) / camera.size[0], float(fy) / camera.size[1]


def test_a_hand_over_a_region_makes_it_doubtful_not_wrong(board, synth, reader, busy):
    """Skin has a red hue: a hand half over Kiyosu reads as a crowd of red soldiers. The
    reading says the region is in doubt instead of passing that on."""
    kiyosu = board.geometry.zone("kiyosu").center
    x, y = _frame_point(synth, TILTED, kiyosu[0] + 30, kiyosu[1] + 25)
    frame = photograph(synth, busy, TILTED, Look(noise=3, hand=(x, y, 0.06), seed=4))
    reading = reader.read(frame.image)
    assert "kiyosu" in reading.doubtful
    assert any("reaches in" in why for why in reading.doubts["kiyosu"])
    assert reading.counts["kiyosu"] != frame.counts["kiyosu"]  # the guess is wrong: flagged
    far = [z.id for z in board.regions if math.dist(z.center, kiyosu) > 150]
    assert far and not set(far) & set(reading.doubtful)
    assert all(reading.counts[r] == frame.counts[r] for r in far)


def test_a_fingertip_inside_a_region_is_unlike_a_red_piece(board, synth, reader):
    """A fingertip that does not cross the region's edge: skin's hue is red's, but off its
    learned hue and paler than a red piece. It is read as red, and the region flagged."""
    kyo = board.geometry.zone("kyo")
    scene = RumbleScene({}, (Soldier("red", "kyo", (kyo.center[0] - 12, kyo.center[1]), 15),), ())
    frame = photograph(synth, scene, TILTED, Look(noise=3))
    reading = reader.read(frame.image)
    assert reading.counts["kyo"]["red"] == 1 and reading.doubtful == ()
    view = reader.region_view(frame.image, reading.calibration, kyo, reading.white)
    h, w = view.shape[:2]
    cv2.ellipse(view, (w // 2 + 24, h // 2 + 6), (18, 11), 30, 0, 360, (120, 145, 210), -1)
    found = read_region(board, view, kyo)
    assert sum(c.colour == "red" for c in found.clumps) == 2  # the fingertip passes for red
    assert any("unlike a red piece" in why for why in found.doubts)


# --- colour calibration ---------------------------------------------------------------------


def _calibration_scene(board: CountingBoard, light: Light) -> RumbleScene:
    """One soldier of each colour alone on its calibration spot."""
    soldiers = tuple(Soldier(colour, region, board.geometry.zone(region).center, 20)
                     for colour, region in board.spots.items())
    return RumbleScene({}, soldiers, (), light=light)


TEAL = {**PALETTE, "blue": ((110, 120, 10), (165, 175, 45))}
"""A set whose 'blue' is a teal, outside the shipped blue hue range."""


def test_colour_calibration_round_trip(board, kit, reader, tmp_path, monkeypatch):
    """A set with a teal 'blue': the shipped hue range misses it; one calibration frame with
    one soldier of each colour on its spot, under a warm lamp, writes the learned colours
    into the user's calibration, and the board loaded from there reads the teal."""
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    teal = RumbleSynth(board, kit, palette=TEAL)
    scene = _busy(board)
    frame = photograph(teal, scene, TILTED, Look(noise=3, seed=8))
    before = reader.read(frame.image)
    assert before.counts != frame.counts
    assert sum(c["blue"] for c in before.counts.values()) == 0  # no teal counted as blue

    shot = photograph(teal, _calibration_scene(board, WARM_LIGHT), TILTED, Look(noise=3))
    path, learned = calibrate_colours(board, shot.image, calibration_folder("rumble_nation"))
    assert path == board_file("rumble_nation") == tmp_path / "calibration/rumble_nation/board.yaml"
    assert learned["black"].dark(board) and not learned["blue"].dark(board)
    assert 82 <= learned["blue"].hue <= 92  # teal (88), measured under a warm lamp

    mine = CountingBoard.load(kit)
    assert mine.source == path
    assert mine.colour("blue").hue is not None and mine.colour("blue").reference is not None
    after = CountingReader(mine).read(frame.image)
    assert after.counts == frame.counts


def test_colour_calibration_says_which_spot_is_wrong(board, synth):
    scene = _calibration_scene(board, Light())
    missing = RumbleScene({}, tuple(s for s in scene.cubes if s.colour != "yellow"), ())
    frame = photograph(synth, missing, TILTED)
    with pytest.raises(ColourCalibrationError, match=r"yellow: expected one piece alone in "
                       r"kiyosu, saw 0"):
        learn_colours(board, frame.image)
    with pytest.raises(ColourCalibrationError, match="unknown colours"):
        learn_colours(board, frame.image, {"green": "kyo"})


# --- dice -----------------------------------------------------------------------------------


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


# --- errors, corpus, benchmark, layering ----------------------------------------------------


def test_no_board_in_view_is_a_clear_error(reader):
    with pytest.raises(BoardNotFound, match="corner markers visible"):
        reader.read(np.full((1440, 1920, 3), 128, np.uint8))
    with pytest.raises(ValueError, match="BGR colour frame"):
        reader.read(np.zeros((1440, 1920), np.uint8))


def test_a_random_corpus_frame_carries_its_truth(board, synth, reader):
    rng = random.Random(11)
    scene = random_scene(board, rng, daimyo=1.0, reinforcements=1.0)
    frame = photograph(synth, scene, TILTED, Look(noise=4, seed=1))
    assert frame.counts == scene.counts(board)
    assert sum(Counter(s.colour for s in scene.cubes).values()) == len(scene.cubes)
    assert sum(frame.reinforcements.values()) == len(scene.neutral) > 0
    assert sum(n for c in frame.daimyo.values() for n in c.values()) == len(scene.large) >= 2
    reading = reader.read(frame.image)
    assert reading.counts == frame.counts
    assert reading.large == frame.daimyo
    assert reading.neutral == frame.reinforcements


def test_a_board_needs_its_kit_or_its_file():
    """The generic counting layer names no game: it cannot guess whose board to load."""
    with pytest.raises(TypeError, match="kit or the board file"):
        CountingBoard.load()


def test_a_board_file_from_before_large_and_neutral_pieces_still_loads(kit, tmp_path):
    """User calibrations written before this version call the pieces `soldiers:` and name no
    large or neutral piece: they load, and count soldiers only."""
    text = Path(str(board_file("rumble_nation"))).read_text(encoding="utf-8")
    old = tmp_path / "board.yaml"
    old.write_text(text.replace("pieces:", "soldiers:").split("  large:")[0]
                   + text[text.index("dice:"):], encoding="utf-8")
    loaded = CountingBoard.load(kit, old)
    assert loaded.large is None and loaded.neutral is None
    assert [c.name for c in loaded.colours] == list(COLOURS)


def test_dice_are_scored_as_multisets():
    errors: Counter[tuple[int | None, int | None]] = Counter()
    assert score_dice((2, 4, 6), (2, 4, 6), errors) == 3
    assert score_dice((2, 4, None), (2, 4, None), errors) == 3
    assert score_dice((2, 4, 6), (2, 6, None), errors) == 2
    assert errors == Counter({(4, None): 1})


def test_the_bench_prints_its_figures_and_is_the_games_benchmark():
    figures = bench_rumble_vision(2, seed=1, size=SIZE, light_frames=1)
    assert {"count_accuracy", "dice_accuracy", "fps", "count_accuracy_colour_cast",
            "count_accuracy_dim", "daimyo_accuracy", "reinforcement_accuracy",
            "doubtful_share"} <= set(figures)
    assert figures["frames"] == 2 and figures["fps"] > 0
    assert figures["colour_cast"]["frames"] == figures["dim"]["frames"] == 1
    assert 0.9 <= figures["count_accuracy"] <= 1.0
    assert 0.9 <= figures["count_accuracy_colour_cast"] <= 1.0
    assert 0.9 <= figures["count_accuracy_dim"] <= 1.0
    assert isinstance(BENCH, Benchmark)
    assert BENCH.settings == {"frames": 500, "seed": 0}
    said = BENCH.lines(figures)
    assert any("warm tungsten lamp" in line for line in said)
    assert any("daimyo" in line for line in said)


def test_vision_knows_no_rules_and_no_game():
    vision = Path(__file__).parents[1] / "companion" / "vision"
    for name in ("counting.py", "dice.py", "colour.py", "colour_calibration.py"):
        text = (vision / name).read_text(encoding="utf-8")
        assert "companion.engine" not in text, name
        assert "companion.games" not in text, name
        for word in ("daimyo", "reinforcement", "rumble_nation"):
            assert word not in text.lower(), (name, word)
