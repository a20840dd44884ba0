"""Shogun's table read on synthetic frames of THE PROJECT'S EXAMPLE BOARD (not the printed
map): armies and farmers counted per province and colour, the battle tower's tray counted by
colour, a hand that changes nothing, the colours learned, and the benchmark's targets."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.games import Benchmark
from companion.games.shogun.reader import TRAY, ShogunTableReader, load_board
from companion.games.shogun.rules.state import FARMERS
from companion.games.shogun.synth import (
    ShogunSynth,
    photograph,
    place_tray,
    position_counts,
    random_position,
    random_throw,
    scene_of,
)
from companion.games.shogun.vision_bench import BENCH, FRAME_SIZE, bench_shogun_vision
from companion.kits import load_kit
from companion.vision.colour_calibration import learn_colours
from companion.vision.count_tracker import CountTracker
from companion.vision.counted_table import table_counts
from companion.vision.counting import CountingBoard, CountingReader
from companion.vision.dice import DiceReading
from companion.vision.piece_synth import WARM_LIGHT, Cube, PieceScene, place_cubes
from companion.vision.synth import Camera, Look

POSE = (0.04, -0.03, -0.05, 0.02, 0.03, -0.04, -0.02, 0.05)
TILTED = Camera(FRAME_SIZE, POSE, 0.05)
COLOURS = ("red", "yellow", "green", "blue", "purple", "black")
CROWDED = "naka_5"


@pytest.fixture(scope="module")
def kit():
    return load_kit("shogun")


@pytest.fixture(scope="module")
def board(kit) -> CountingBoard:
    return load_board(kit)


@pytest.fixture(scope="module")
def synth(board, kit) -> ShogunSynth:
    return ShogunSynth(board, kit)


@pytest.fixture(scope="module")
def reader(board) -> CountingReader:
    return CountingReader(board)


@pytest.fixture(scope="module")
def table(board) -> PieceScene:
    """Every colour somewhere, two colours sharing a province, farmers on the map, 18 red
    armies crowding one province, and a throw in the tray."""
    wanted = {CROWDED: {"red": 18}, "kita_2": {"blue": 5}, "kita_7": {"yellow": 3},
              "higashi_4": {"purple": 7}, "nishi_8": {"black": 4},
              "minami_2": {"green": 2, "purple": 3}, "naka_9": {"yellow": 1, "black": 2}}
    rng = random.Random(5)
    cubes = place_cubes(board, wanted, rng, touch=0.6)
    tray = place_tray(board, {"red": 3, "blue": 2, "green": 2, "black": 1}, rng)
    return PieceScene({}, cubes, tray=tray)


def test_a_rendered_table_is_read_back_per_province_and_colour(board, synth, reader, table):
    assert sum(c.region == CROWDED for c in table.cubes) == 18  # all placed: truth = wanted
    frame = photograph(synth, table, TILTED, Look(noise=3, defocus=0.8, light=0.2, seed=3))
    reading = reader.read(frame.image)
    assert reading.counts == frame.counts
    assert reading.counts[CROWDED]["red"] == 18 and CROWDED not in reading.doubts
    assert reading.counts["minami_2"] == {**dict.fromkeys(COLOURS, 0), "green": 2, "purple": 3}
    assert reading.tray == frame.tray == {**dict.fromkeys(COLOURS, 0), "red": 3, "blue": 2,
                                          "green": 2, "black": 1}
    assert reading.dice == DiceReading((), 0)  # Shogun's board reads no dice
    assert not reading.doubts


def test_a_crowded_tray_is_counted_by_colour_and_cubes_beside_it_are_not(board, synth,
                                                                          reader):
    """Sixteen cubes of six colours heaped against each other (a large battle's throw), and
    two cubes on the table beside the tray's rim: only what lies in the tray counts."""
    wanted = {"red": 4, "yellow": 3, "green": 3, "blue": 2, "purple": 2, "black": 2}
    tray = place_tray(board, wanted, random.Random(9), touch=0.9)
    assert len(tray) == 16
    assert board.tray.rect is not None
    x, y, w, h = board.tray.rect
    outside = (Cube("red", "table", (x + w + 14, y + h / 2), 10.0),
               Cube("blue", "table", (x + w / 2, y + h + 14), 30.0))
    scene = PieceScene({}, tray=tray, aside=outside)
    frame = photograph(synth, scene, TILTED, Look(noise=3, defocus=0.6, seed=4))
    reading = reader.read(frame.image)
    assert reading.tray == {c: wanted[c] for c in COLOURS}
    assert all(n == 0 for colours in reading.counts.values() for n in colours.values())


def test_a_warm_lamp_reads_as_daylight(board, synth, reader, table):
    lit = PieceScene({}, table.cubes, light=WARM_LIGHT, tray=table.tray)
    frame = photograph(synth, lit, TILTED, Look(noise=2, seed=6))
    reading = reader.read(frame.image)
    assert reading.counts == frame.counts and reading.tray == frame.tray


def test_the_table_reader_names_cubes_as_the_rules_do(board, synth, table):
    """Armies under their player's colour, green cubes as the rules' farmers, the tray as
    one more zone."""
    frame = photograph(synth, table, TILTED, Look(noise=2, seed=7))
    read = ShogunTableReader(CountingReader(board)).read(frame.image)
    assert read.trusted
    assert read.counts[TRAY] == {"red": 3, "yellow": 0, FARMERS: 2, "blue": 2, "purple": 0,
                                 "black": 1}
    assert read.counts["minami_2"][FARMERS] == 2 and "green" not in read.counts["minami_2"]
    assert read.counts[CROWDED]["red"] == 18


def test_a_hand_changes_no_count_and_the_next_throw_does(board, synth, table):
    """Still frames give the table; a hand reaching for the tray is never counted (the
    frames are untrusted); the still table after it is no change; a new throw in the tray
    is one change, of the tray alone."""
    reader = ShogunTableReader(CountingReader(board))
    tracker = CountTracker()
    camera = Camera(FRAME_SIZE)

    def feed(scene: PieceScene, seed: int, hand: tuple[float, float, float] | None = None):
        look = Look(noise=2, hand=hand, sleeve=(70, 60, 50) if hand else None, seed=seed)
        read = reader.read(photograph(synth, scene, camera, look).image)
        return read, tracker.feed(read)

    diffs = [feed(table, seed)[1] for seed in range(3)]
    assert diffs[:2] == [None, None] and diffs[2] is not None
    before = tracker.stable
    tx, ty = synth.frame_point(camera, *board.tray.center)
    for seed in range(3, 5):
        read, diff = feed(table, seed, hand=(tx, ty, 0.12))
        assert read.moving and diff is None
    assert [feed(table, seed)[1] for seed in range(5, 9)] == [None] * 4
    assert tracker.stable == before
    thrown = PieceScene({}, table.cubes, tray=place_tray(
        board, {"red": 1, "blue": 4, "green": 1}, random.Random(2)))
    diffs = [d for d in (feed(thrown, seed)[1] for seed in range(9, 13)) if d is not None]
    assert len(diffs) == 1
    assert diffs[0].changes == {TRAY: {"red": -2, "blue": 2, FARMERS: -1, "black": -1}}


def test_positions_come_from_legal_games_and_carry_their_truth(kit, board):
    rng = random.Random(3)
    state = random_position(kit, 11, rng)
    assert state.pending is not None and state.pending.get("read")  # just after a throw
    counts = position_counts(state, board)
    assert counts and all(len(c) == 1 for c in counts.values())  # one owner per province
    assert all(next(iter(c)) == state.owner[p] for p, c in counts.items())
    scene = scene_of(board, state, rng)
    truth = scene.counts(board)
    assert sum(map(sum, (c.values() for c in truth.values()))) == sum(state.armies.values())
    thrown = random_throw(kit, state, rng)
    assert set(thrown) <= {*state.players, FARMERS}


def test_both_sides_are_read_on_the_same_circles(kit, board):
    moon = load_board(kit, "moon")
    assert "kita_9_luna" in {z.id for z in moon.regions}
    assert [z.center for z in moon.regions] == [z.center for z in board.regions]
    assert moon.tray.id == TRAY and moon.tray_counted and moon.dice == 0


def test_a_calibration_without_a_counted_tray_is_refused(kit, tmp_path):
    shipped = Path(__file__).parents[1] / "companion/games/shogun/calibration/board.yaml"
    text = shipped.read_text(encoding="utf-8").replace("counted: true", "counted: false")
    path = tmp_path / "board.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match="tower_tray"):
        load_board(kit, path=path)


def test_the_six_colours_are_learned_from_one_cube_each(kit):
    """On the kit's default (transcribed) side, whose provinces the calibration's spots name
    (`companion calibrate --colours` places the default side)."""
    board = load_board(kit, "transcribed")
    cubes = tuple(Cube(c, r, board.geometry.zone(r).center, 20.0)
                  for c, r in board.spots.items())
    frame = photograph(ShogunSynth(board, kit, "transcribed"), PieceScene({}, cubes), TILTED,
                       Look(noise=2, seed=1))
    learned = learn_colours(board, frame.image)
    assert set(learned) == set(COLOURS) and learned["black"].dark(board)
    for name in COLOURS[:-1]:
        colour = board.colour(name)
        assert colour.hue is not None and not learned[name].dark(board)
        low, high = colour.hue
        hue = learned[name].hue
        assert (low <= hue <= high) if low <= high else (hue >= low or hue <= high), name


def test_table_counts_cover_every_province_and_the_tray(board, synth, reader, table):
    reading = reader.read(photograph(synth, table, TILTED, Look(seed=2)).image)
    counts = table_counts(board, reading)
    assert set(counts) == {z.id for z in board.regions} | {TRAY}
    assert set(counts[TRAY]) == {board.kind(c) for c in COLOURS}


def test_a_small_bench_meets_the_targets():
    figures = bench_shogun_vision(4, seed=2, light_frames=1)
    assert figures["frames"] == 4 and figures["fps"] > 0
    assert figures["provinces"] == 4 * 45 and figures["cubes"] > 0
    assert figures["tray_cubes"] > 0
    assert figures["count_accuracy"] >= 0.99 and figures["tray_accuracy"] >= 0.995
    assert figures["colour_cast"]["frames"] == figures["dim"]["frames"] == 1
    assert isinstance(BENCH, Benchmark) and BENCH.settings == {"frames": 40, "seed": 0}
    said = BENCH.lines(figures)
    assert any("EXAMPLE BOARD" in line for line in said)
    assert any("tray" in line for line in said)


@pytest.mark.slow
def test_the_default_bench_meets_the_targets():
    figures = BENCH.run(**BENCH.settings)
    assert figures["count_accuracy"] >= 0.99, figures["count_errors"]
    assert figures["tray_accuracy"] >= 0.995, figures["tray_errors"]
    assert figures["count_accuracy_colour_cast"] >= 0.99
    assert figures["count_accuracy_dim"] >= 0.99
    assert figures["board_not_found"] == 0
