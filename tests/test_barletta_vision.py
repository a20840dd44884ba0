"""La Disfida di Barletta read by the camera (issue #22): the field's zones from the hex
numbers, counters and dice drawn by our renderer and read back through the real detector,
the tracker's diffs (a move, a flip, a throw) and its silence (still frames, a hand), and the
benchmark against its targets."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from companion.games import Benchmark
from companion.games.barletta import hexes
from companion.games.barletta.kit import BarlettaKit
from companion.games.barletta.reader import BarlettaReader, field_geometry, hex_centre
from companion.games.barletta.rules.state import CAMP, BState, KnightState, frozen
from companion.games.barletta.synth import BarlettaSynth, FieldScene, zones_for
from companion.games.barletta.table_state import FieldDiff, FieldSnapshot, piece_id
from companion.games.barletta.tracker import BarlettaTracker
from companion.games.barletta.vision_bench import BENCH, positions, run
from companion.kits import load_kit
from companion.vision.detect import TagDetector
from companion.vision.geometry import AMBIGUOUS, Geometry
from companion.vision.synth import Camera, Look

CAMERA = Camera((2800, 1800), tilt=(0.01, -0.01, -0.01, 0.0, 0.0, 0.01, 0.01, -0.01))
"""Smaller than the Pi's 12 MP to keep the tests quick: a 12 mm tag is still 32 pixels (4
a cell), read with a real lens's slight blur (`STILL`); drawn perfectly sharp it aliases."""
STILL = Look(defocus=0.5, noise=2.0)
HAND = Look(defocus=0.5, noise=2.0, sleeve=(90, 60, 40))
"""A hand with its forearm in a navy sleeve, entering from the frame's edge."""


@pytest.fixture(scope="module")
def kit() -> BarlettaKit:
    loaded = load_kit("barletta")
    assert isinstance(loaded, BarlettaKit)
    return loaded


@pytest.fixture(scope="module")
def geometry(kit: BarlettaKit) -> Geometry:
    return field_geometry(kit)


@pytest.fixture(scope="module")
def synth(kit: BarlettaKit, geometry: Geometry) -> BarlettaSynth:
    return BarlettaSynth(geometry, kit)


@pytest.fixture(scope="module")
def detector() -> TagDetector:
    return TagDetector()


def reader(geometry: Geometry, synth: BarlettaSynth, detector: TagDetector) -> BarlettaReader:
    return BarlettaReader(geometry, synth.registry.blocks, detector=detector)


def battle(kit: BarlettaKit) -> BState:
    """A position with every kind of place: the two melee lines partly deployed, Fieramosca
    and a French knight on foot, an Italian in camp, one Italian captured and one French dead,
    the others in reserve."""
    italians, french = kit.knights["italians"], kit.knights["french"]
    knights = {k.id: KnightState() for k in (*italians, *french)}
    for k, hex_ in zip(italians[:6], ("1807", "1907", "2007", "2107", "2207", "2307"),
                       strict=True):
        knights[k.id] = KnightState(where=hex_)
    for k, hex_ in zip(french[:6], ("1806", "1906", "2006", "2106", "2206", "2306"),
                       strict=True):
        knights[k.id] = KnightState(where=hex_)
    knights[italians[0].id] = KnightState(where="1807", mounted=False)
    knights[french[5].id] = KnightState(where="2306", mounted=False)
    knights[italians[6].id] = KnightState(where=CAMP)
    knights[italians[7].id] = KnightState(out="captured", mounted=False)
    knights[french[6].id] = KnightState(out="dead")
    return BState(phase="choose", turn=1, knights=frozen(knights))


def frames(synth: BarlettaSynth, scene: FieldScene, count: int, look: Look = STILL,
           hand: str | None = None, seed: int = 0) -> list[np.ndarray]:
    """`count` frames of one table (each with its own sensor noise)."""
    if hand is not None:
        look = replace(look, hand=synth.hand_over(hand, CAMERA))
    return [synth.photograph(scene, CAMERA, replace(look, seed=seed + n)).image
            for n in range(count)]


# --- the zones -------------------------------------------------------------------------------

def test_hex_centres_agree_with_the_numbering(kit: BarlettaKit, geometry: Geometry) -> None:
    centres = {z.id: z.center for z in geometry.locations if z.id in kit.field}
    assert set(centres) == set(kit.field)
    size = math.dist(centres["1807"], centres["1806"])
    assert size == pytest.approx(26.0)  # board.yaml's hex_mm, across the flats
    for hex_, centre in centres.items():
        near = set(kit.neighbours[hex_])
        for other, there in centres.items():
            if other == hex_:
                continue
            distance = math.dist(centre, there)
            if other in near:
                assert distance == pytest.approx(size), (hex_, other)
            else:
                assert distance > 1.7 * size, (hex_, other)  # the next ring: sqrt(3) hexes


def test_each_hex_centre_reads_as_that_hex_and_an_edge_is_ambiguous(
        kit: BarlettaKit, geometry: Geometry) -> None:
    for hex_ in kit.field:
        assert geometry.zone_of(*geometry.zone(hex_).center) == hex_
    a, b = geometry.zone("2407").center, geometry.zone("2408").center
    edge = ((a[0] + b[0]) / 2 + 0.5, (a[1] + b[1]) / 2)
    assert geometry.zone_of(*edge) == AMBIGUOUS
    assert "2408" in hexes.neighbours("2407")


def test_camp_hexes_and_areas_are_zones(kit: BarlettaKit, geometry: Geometry) -> None:
    camp = kit.sides["italians"].camp[0]
    hex_zone = [z for z in geometry.locations if z.id == "camp_italians"]
    assert len(hex_zone) == len(kit.sides["italians"].camp)
    where = hex_centre(camp, 26.0, "1200", (30.0, 41.0))
    assert geometry.zone_of(*where) == "camp_italians"
    for name in ("reserve_french", "surrendered_italians", "dice_tray"):
        assert geometry.zone_of(*geometry.zone(name).center) == name
        assert geometry.zone(name).rect is not None


# --- a table read back -----------------------------------------------------------------------

def test_a_rendered_table_reads_back_every_knight_and_face(
        kit: BarlettaKit, geometry: Geometry, synth: BarlettaSynth,
        detector: TagDetector) -> None:
    state = battle(kit)
    zones = zones_for(state, kit, synth.registry)
    scene = synth.scene(zones, (2, 6), seed=1)
    reading = reader(geometry, synth, detector).read(frames(synth, scene, 1)[0])
    assert dict(reading.tags.zones) == zones
    tags = synth.registry.tags
    fieramosca = kit.knights["italians"][0].id
    assert reading.tags.zones[tags[piece_id(fieramosca, False)]] == "1807"  # flipped: on foot
    assert tags[piece_id(fieramosca, True)] not in reading.tags.zones
    assert reading.tags.zones[tags[piece_id(kit.knights["italians"][6].id, True)]] \
        == "camp_italians"
    assert reading.tags.zones[tags[piece_id(kit.knights["italians"][7].id, False)]] \
        == "surrendered_italians"
    assert reading.tags.zones[tags[piece_id(kit.knights["french"][6].id, True)]] \
        == "surrendered_french"
    assert reading.dice == (2, 6)


def test_flipping_a_counter_changes_the_tag_read(kit: BarlettaKit, geometry: Geometry,
                                                 synth: BarlettaSynth,
                                                 detector: TagDetector) -> None:
    state = battle(kit)
    knight = kit.knights["french"][2].id
    mounted = zones_for(state, kit, synth.registry)
    flipped = replace(state, knights=frozen({**state.knights, knight: replace(
        state.knights[knight], mounted=False)}))
    zones = zones_for(flipped, kit, synth.registry)
    reading = reader(geometry, synth, detector).read(
        frames(synth, synth.scene(zones, seed=1), 1)[0])
    tags = synth.registry.tags
    assert tags[piece_id(knight, True)] in mounted
    assert reading.tags.zones.get(tags[piece_id(knight, False)]) == "2006"
    assert tags[piece_id(knight, True)] not in reading.tags.zones


@pytest.mark.parametrize("dice", [(1, 4), (5,), (3, 3), ()])
def test_the_dice_in_the_tray_are_read(kit: BarlettaKit, geometry: Geometry,
                                       synth: BarlettaSynth, detector: TagDetector,
                                       dice: tuple[int, ...]) -> None:
    scene = synth.scene({}, dice, seed=len(dice) * 7 + sum(dice))
    reading = reader(geometry, synth, detector).read(frames(synth, scene, 1)[0])
    assert reading.dice == tuple(sorted(dice))


@pytest.mark.parametrize("light", [Look(warm=1.0, noise=2.0, defocus=0.5),
                                   Look(gain=6.0, warm=0.6, defocus=0.6, motion=3)],
                         ids=["tungsten", "dim-warm-room"])
def test_the_dice_are_read_under_a_warm_lamp(kit: BarlettaKit, geometry: Geometry,
                                             synth: BarlettaSynth, detector: TagDetector,
                                             light: Look) -> None:
    scene = synth.scene({}, (2, 6), seed=4)
    reading = reader(geometry, synth, detector).read(frames(synth, scene, 1, light)[0])
    assert reading.dice == (2, 6)


def test_a_hand_in_the_tray_leaves_the_dice_unread(kit: BarlettaKit, geometry: Geometry,
                                                   synth: BarlettaSynth,
                                                   detector: TagDetector) -> None:
    scene = synth.scene({}, (2, 5), seed=3)
    reading = reader(geometry, synth, detector).read(
        frames(synth, scene, 1, HAND, hand="dice_tray")[0])
    assert reading.dice is None


# --- the tracker -----------------------------------------------------------------------------

def feed(tracker: BarlettaTracker, reader_: BarlettaReader,
         images: list[np.ndarray]) -> list[FieldDiff]:
    found = [tracker.feed(reader_.read(image)) for image in images]
    return [d for d in found if d is not None]


def started(kit: BarlettaKit, geometry: Geometry, synth: BarlettaSynth,
            detector: TagDetector) -> tuple[dict[int, str], BarlettaReader, BarlettaTracker]:
    """The battle's table seen stable (its first diff checked), with its reader and tracker."""
    zones = zones_for(battle(kit), kit, synth.registry)
    read, tracker = reader(geometry, synth, detector), BarlettaTracker()
    first = feed(tracker, read, frames(synth, synth.scene(zones, (3, 5), seed=2), 3))
    assert len(first) == 1 and first[0].before is None
    assert dict(first[0].after.zones) == zones and first[0].after.dice == (3, 5)
    return zones, read, tracker


def test_still_frames_tell_the_table_once(kit: BarlettaKit, geometry: Geometry,
                                          synth: BarlettaSynth, detector: TagDetector) -> None:
    zones, read, tracker = started(kit, geometry, synth, detector)
    assert feed(tracker, read, frames(synth, synth.scene(zones, (3, 5), seed=2), 3,
                                      seed=7)) == []


def test_the_tracker_tells_a_move(kit: BarlettaKit, geometry: Geometry, synth: BarlettaSynth,
                                  detector: TagDetector) -> None:
    zones, read, tracker = started(kit, geometry, synth, detector)
    tag = synth.registry.tags[piece_id(kit.knights["italians"][1].id, True)]  # on 1907
    moved = {**zones, tag: "1908"}
    diffs = feed(tracker, read, frames(synth, synth.scene(zones, (3, 5), seed=2), 1,
                                       HAND, hand="1907")
                 + frames(synth, synth.scene(moved, (3, 5), seed=2), 4))
    # the first frame after the hand differs from the hand's (motion): then 3 agree
    assert len(diffs) == 1 and dict(diffs[0].tags.moved) == {tag: ("1907", "1908")}
    assert not diffs[0].tags.appeared and not diffs[0].tags.disappeared
    assert diffs[0].thrown is None


def test_the_tracker_tells_a_flip(kit: BarlettaKit, geometry: Geometry, synth: BarlettaSynth,
                                  detector: TagDetector) -> None:
    zones, read, tracker = started(kit, geometry, synth, detector)
    knight = kit.knights["italians"][1].id
    front, back = (synth.registry.tags[piece_id(knight, m)] for m in (True, False))
    flipped = {**{t: z for t, z in zones.items() if t != front}, back: "1907"}
    diffs = feed(tracker, read, frames(synth, synth.scene(zones, (3, 5), seed=2), 1,
                                       HAND, hand="1907")
                 + frames(synth, synth.scene(flipped, (3, 5), seed=2), 6))
    # after the hand's motion, a tag gone is believed after `grace` (2) frames, then 3 agree
    assert len(diffs) == 1
    assert dict(diffs[0].tags.appeared) == {back: "1907"}
    assert dict(diffs[0].tags.disappeared) == {front: "1907"}


def test_the_tracker_tells_a_throw_and_an_emptied_tray(
        kit: BarlettaKit, geometry: Geometry, synth: BarlettaSynth,
        detector: TagDetector) -> None:
    zones, read, tracker = started(kit, geometry, synth, detector)
    diffs = feed(tracker, read, frames(synth, synth.scene(zones, (1, 6), seed=2), 3))
    assert len(diffs) == 1 and diffs[0].thrown == (1, 6) and not diffs[0].tags
    diffs = feed(tracker, read, frames(synth, synth.scene(zones, (), seed=2), 3))
    assert len(diffs) == 1 and diffs[0].after.dice == () and not diffs[0].tags
    assert diffs[0].thrown is None  # FieldDiff: an emptied tray is no throw
    assert tracker.stable is not None and dict(tracker.stable.zones) == zones


def test_the_same_faces_thrown_again_are_a_new_throw(
        kit: BarlettaKit, geometry: Geometry, synth: BarlettaSynth,
        detector: TagDetector) -> None:
    zones, read, tracker = started(kit, geometry, synth, detector)
    scene = synth.scene(zones, (3, 5), seed=2)
    again = replace(scene, dice=synth.scene({}, (3, 5), seed=9).dice)  # elsewhere on the felt
    assert again.dice[0].centre != scene.dice[0].centre
    diffs = feed(tracker, read, frames(synth, scene, 1, HAND, hand="dice_tray")
                 + frames(synth, again, 4))
    assert len(diffs) == 1 and diffs[0].thrown == (3, 5) and not diffs[0].tags
    # a hand in the tray that leaves the dice where they lie throws nothing
    assert feed(tracker, read, frames(synth, again, 1, HAND, hand="dice_tray", seed=40)
                + frames(synth, again, 4, seed=50)) == []


def test_a_hand_over_the_field_tells_nothing_and_hides_no_counter_for_good(
        kit: BarlettaKit, geometry: Geometry, synth: BarlettaSynth,
        detector: TagDetector) -> None:
    zones = zones_for(battle(kit), kit, synth.registry)
    scene = synth.scene(zones, (4, 4), seed=5)
    read, tracker = reader(geometry, synth, detector), BarlettaTracker()
    assert len(feed(tracker, read, frames(synth, scene, 4))) == 1
    hand = synth.hand_over("2007", CAMERA, 0.12)
    covered = synth.photograph(scene, CAMERA, replace(HAND, hand=hand)).truth
    under = {t.tag for t in covered if not t.visible}
    assert under  # the hand does cover counters
    readings = [read.read(image) for image in frames(synth, scene, 5, HAND, hand="2007",
                                                     seed=10)]
    assert all(tracker.feed(r) is None for r in readings)
    assert under <= set(readings[-1].tags.hidden)  # hidden, not gone
    assert feed(tracker, read, frames(synth, scene, 4, seed=20)) == []
    assert tracker.stable is not None and dict(tracker.stable.zones) == zones


def test_settle_makes_the_record_the_table(kit: BarlettaKit, geometry: Geometry,
                                          synth: BarlettaSynth, detector: TagDetector) -> None:
    zones = zones_for(battle(kit), kit, synth.registry)
    scene = synth.scene(zones, (2, 3), seed=6)
    read, tracker = reader(geometry, synth, detector), BarlettaTracker()
    feed(tracker, read, frames(synth, scene, 3))
    tag = next(iter(zones))
    tracker.settle(FieldSnapshot({**zones, tag: "3013"}, None))
    diffs = feed(tracker, read, frames(synth, scene, 3, seed=5))
    assert len(diffs) == 1 and dict(diffs[0].tags.moved) == {tag: ("3013", zones[tag])}
    assert diffs[0].thrown is None  # the dice lying there are not a new throw


# --- the benchmark ---------------------------------------------------------------------------

def test_positions_come_from_legal_games(kit: BarlettaKit) -> None:
    states = list(positions(kit, 8, seed=1))
    assert len(states) == 8
    assert any(k.on_field for s in states for k in s.knights.values())


def test_a_small_bench_meets_the_targets() -> None:
    assert isinstance(BENCH, Benchmark) and set(BENCH.settings) >= {"frames", "seed"}
    figures = run(frames=3, seed=0)
    assert figures["frames"] == 3 and figures["counters"] > 40
    assert figures["hex_accuracy"] >= 0.995 and figures["face_accuracy"] >= 0.995
    assert figures["wrong_ids"] == 0 and figures["fps"] > 0
    assert BENCH.lines(figures)


@pytest.mark.slow
def test_the_default_bench_meets_the_targets() -> None:
    figures = run(**BENCH.settings)
    assert figures["hex_accuracy"] >= 0.995 and figures["face_accuracy"] >= 0.995
    assert figures["wrong_ids"] == 0 and figures["dice_accuracy"] >= 0.95
