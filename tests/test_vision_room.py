"""Hands told from the table by change, not skin colour; glare is unknown, never empty
(issue #19): hand-free frames in a room's conditions are not flagged, a resting hand of every
skin tone is, hidden and unseen blocks are not reported gone, and the room report."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.kits import load_kit
from companion.vision.corpus import random_scene
from companion.vision.geometry import Geometry
from companion.vision.room import (
    SKIN_TONES,
    STILL,
    describe_room,
    hand_sequence,
    room_report,
)
from companion.vision.synth import Camera, Look, Scene, Synth
from companion.vision.table import StableTracker, TableReader

KIT = load_kit("sekigahara")
GEOMETRY = Geometry.load(KIT)
SYNTH = Synth(GEOMETRY, KIT)
SMALL = (1600, 1200)
"""Enough to place the board and see hands; tags are read from MEDIUM up."""
MEDIUM = (2028, 1520)
SCENE = random_scene(GEOMETRY, random.Random(5))
CARDS = ((430.0, 60.0, 20.0), (120.0, 480.0, -15.0), (700.0, 300.0, 5.0))


def set_up(look: Look, size: tuple[int, int] = SMALL,
           scene: Scene = SCENE) -> tuple[TableReader, Camera]:
    """A reader that has measured the still scene's noise and kept it as the stable table."""
    reader, camera = TableReader(GEOMETRY), Camera(size)
    for seed in range(2):
        reading = reader.read(SYNTH.photograph(scene, camera, replace(look, seed=seed)).image)
    assert reading.view is not None and not reading.moving
    reading.view.keep(reading.zones)
    return reader, camera


@pytest.mark.parametrize("look", [
    replace(STILL, warm=1.0), Look(defocus=0.4, gain=8.0), replace(STILL, cards=CARDS),
    replace(STILL, art=1), replace(STILL, warm=0.6, gain=4.0, art=2, cards=CARDS),
], ids=["warm light", "gain 8", "cards on the map", "red map art", "all at once"])
def test_hand_free_frames_in_a_room_are_not_flagged(look):
    reader, camera = set_up(look)
    for seed in range(10, 13):
        reading = reader.read(SYNTH.photograph(SCENE, camera, replace(look, seed=seed)).image)
        assert not reading.occluded and not reading.moving and not reading.hidden


@pytest.mark.parametrize("tone", list(SKIN_TONES))
def test_a_resting_hand_of_every_skin_tone_is_flagged(tone):
    look = replace(STILL, warm=0.3)
    reader, camera = set_up(look)
    hand = replace(look, hand=(0.45, 0.5, 0.12), skin=SKIN_TONES[tone], sleeve=(90, 60, 40),
                   seed=20)
    image = SYNTH.photograph(SCENE, camera, hand).image
    reader.read(image)
    resting = reader.read(image)  # still: motion says nothing, the change does
    assert resting.occluded and resting.moving


def test_a_card_put_down_over_blocks_is_waited_for_then_its_blocks_are_hidden_not_gone():
    reader, camera = set_up(STILL, MEDIUM)
    tracker = StableTracker()
    for seed in range(3):
        tracker.feed(reader.read(SYNTH.photograph(SCENE, camera, replace(STILL, seed=seed))
                                 .image))
    assert tracker.stable is not None
    board = dict(tracker.stable.zones)
    # a card over a stack: the synthetic card lies under the tags, so the stack's tags are
    # taken out of the scene where the card covers them
    _, where = SCENE.tags[min(SCENE.tags)]
    under = Scene({t: z for t, z in SCENE.tags.items() if abs(z[1][0] - where[0]) > 50
                   or abs(z[1][1] - where[1]) > 50})
    covered = set(SCENE.tags) - set(under.tags)
    card = replace(STILL, cards=((where[0], where[1], 10.0),))
    readings = [reader.read(SYNTH.photograph(under, camera, replace(card, seed=s)).image)
                for s in range(40, 52)]
    diffs = [tracker.feed(r) for r in readings]
    assert readings[0].occluded and readings[0].moving  # a card coming down is waited for
    assert all(d is None for d in diffs)  # then it lies still: trusted, its blocks hidden
    assert not readings[-1].moving and covered <= set(readings[-1].hidden)
    assert {t: tracker.stable.zones.get(t) for t in covered} == {t: board[t] for t in covered}


def test_a_block_taken_away_is_reported_gone_not_hidden():
    """A change the size of a block is the table changing, read as such."""
    reader, camera = set_up(STILL, MEDIUM)
    tracker = StableTracker()
    for seed in range(3):
        tracker.feed(reader.read(SYNTH.photograph(SCENE, camera, replace(STILL, seed=seed))
                                 .image))
    assert tracker.stable is not None
    tag = max(SCENE.tags)
    fewer = Scene({t: z for t, z in SCENE.tags.items() if t != tag})
    diffs = [tracker.feed(reader.read(SYNTH.photograph(fewer, camera, replace(STILL, seed=s))
                                      .image)) for s in range(10, 16)]
    found = [d for d in diffs if d is not None]
    assert len(found) == 1 and dict(found[0].disappeared) == {tag: SCENE.tags[tag][0]}
    assert not found[0].moved and not found[0].appeared


def test_glare_over_blocks_is_unknown_its_blocks_are_not_gone_and_its_zones_are_named():
    reader, camera = set_up(STILL, MEDIUM)
    tracker = StableTracker()
    for seed in range(3):
        tracker.feed(reader.read(SYNTH.photograph(SCENE, camera, replace(STILL, seed=seed))
                                 .image))
    assert tracker.stable is not None
    before = dict(tracker.stable.zones)
    on_board = sorted((t, z, w) for t, (z, w) in SCENE.tags.items()
                      if 0 < w[0] < GEOMETRY.board_mm[0] and 0 < w[1] < GEOMETRY.board_mm[1])
    tag, zone, where = on_board[0]
    x, y = SYNTH.frame_point(camera, *where)
    glare = replace(STILL, spot=(x, y, 0.06))
    readings = [reader.read(SYNTH.photograph(SCENE, camera, replace(glare, seed=s)).image)
                for s in range(20, 26)]
    diffs = [tracker.feed(r) for r in readings]
    assert all(d is None for d in diffs)  # nothing gone, nothing moved
    assert dict(tracker.stable.zones) == before
    last = readings[-1]
    assert tag in last.hidden and tag not in last.zones
    assert not last.moving and not last.occluded
    assert last.blind and zone in {z for b in last.blind for z in b.zones}
    left, top, right, bottom = last.blind[0].box_mm
    assert left <= where[0] <= right and top <= where[1] <= bottom


def test_a_hand_resting_over_blocks_then_leaving_gives_no_spurious_diff():
    frames = hand_sequence(SYNTH, MEDIUM, SKIN_TONES["hue 25"], random.Random(3), rest=3,
                           look=STILL)
    assert any(f.hand and not all(t.visible for t in f.truth) for f in frames)
    reader, tracker = TableReader(GEOMETRY), StableTracker()
    diffs = [tracker.feed(reader.read(f.image)) for f in frames]
    found = [d for d in diffs if d is not None]
    assert len(found) == 1 and not found[0].moved and not found[0].disappeared
    truth = {t.tag: t.zone for t in frames[-1].truth}
    assert dict(tracker.stable.zones) == truth  # 0 wrong ids, every block in its zone


def test_describe_room_says_each_condition_and_the_totals():
    figures = {"conditions": {"warm light": {
        "frames": 4, "zone_recall": 1.0, "wrong_ids": 0, "false_hand_flags": 0,
        "spurious_diffs": 0, "reported_gone": 0, "stalled_tables": 0, "blind_frames": 0}},
        "hands": {"sequences": 8, "spurious_diffs": 0, "resting_frames": 40,
                  "resting_not_flagged": 0, "wrong_ids": 0, "by_tone": dict.fromkeys("abc")},
        "wrong_ids": 0, "spurious_diffs": 0, "false_hand_flags": 0}
    lines = describe_room(figures)
    assert lines[0].startswith("warm light: zone recall 1.0") and "0 of 4" in lines[0]
    assert "0 of 40 frames with a hand over tags not flagged" in lines[1]
    assert lines[-1] == "in all: 0 wrong ids, 0 spurious diffs, 0 false hand flags"


@pytest.mark.slow
@pytest.mark.timeout(1200)  # every room condition over the bench frames: ~3 min on 2 busy cores,
# over 10 beside two whole demo games (load 20)
def test_the_room_report_meets_the_issues_targets():
    figures = room_report(frames_per_condition=4, seed=1)
    assert figures["wrong_ids"] == 0
    assert figures["spurious_diffs"] == 0
    assert figures["false_hand_flags"] == 0
    assert figures["hands"]["resting_not_flagged"] == 0


def test_with_a_lens_calibration_a_card_near_the_frame_corner_hides_its_blocks_not_gone():
    """With a wide lens and its calibration the tags' corners are undistorted, but the change
    test compares the frame's own (distorted) pixels: it places the stable tags from the raw
    reads, so a card over a stack near a corner of the frame hides those blocks."""
    import numpy as np

    from companion.vision.intrinsics import Intrinsics

    width, height = MEDIUM
    focal = float(max(MEDIUM))  # the synthetic lens: r' = r (1 + k1 r^2) about the centre
    lens = Intrinsics(np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]]),
                      np.array([-0.08, 0, 0, 0, 0], float), 0.0, 0)
    camera = Camera(MEDIUM, k1=0.08)
    flat = replace(GEOMETRY, block_height_mm=0.0)  # the synthetic tags are drawn flat
    reader, tracker = TableReader(flat, intrinsics=lens), StableTracker()
    for seed in range(4):
        tracker.feed(reader.read(SYNTH.photograph(SCENE, camera, replace(STILL, seed=seed))
                                 .image))
    assert tracker.stable is not None
    middle = (GEOMETRY.board_mm[0] / 2, GEOMETRY.board_mm[1] / 2)
    far = max(SCENE.tags, key=lambda t: (SCENE.tags[t][1][0] - middle[0]) ** 2
              + (SCENE.tags[t][1][1] - middle[1]) ** 2)
    _, where = SCENE.tags[far]
    under = Scene({t: z for t, z in SCENE.tags.items() if abs(z[1][0] - where[0]) > 50
                   or abs(z[1][1] - where[1]) > 50})
    covered = set(SCENE.tags) - set(under.tags)
    card = replace(STILL, cards=((where[0], where[1], 10.0),))
    readings = [reader.read(SYNTH.photograph(under, camera, replace(card, seed=s)).image)
                for s in range(40, 52)]
    diffs = [tracker.feed(r) for r in readings]
    assert all(d is None for d in diffs), [d for d in diffs if d]
    assert covered <= set(readings[-1].hidden)
