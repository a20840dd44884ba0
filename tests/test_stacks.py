"""Stacks read as stacks (vision.stacks) and a tidy player's layout (vision.layout): the map's
crowded corners, where a block's nearest location is not its location."""

from __future__ import annotations

import math

import pytest

from companion.kits import load_kit
from companion.vision.geometry import AMBIGUOUS, Geometry
from companion.vision.layout import Layout, LayoutFull
from companion.vision.stacks import Placed, assign_zones, stacks
from companion.vision.synth import Camera, Look, Synth
from companion.vision.table import StableTracker, TableReader

KIT = load_kit("sekigahara")
GEOMETRY = Geometry.load(KIT)


def read(layout: Layout, before: dict[int, Placed] | None = None) -> dict[int, str]:
    positions = {tag: at for tag, (_, at) in layout.placed.items()}
    zones, outside = assign_zones(GEOMETRY, positions, before or {}, layout.link, 6.0)
    assert not outside
    return zones


def test_a_stack_spilling_towards_its_neighbour_keeps_its_location():
    """Kiyosu is 33 mm from Okazaki: the fourth block of a stack there is nearer Okazaki's
    centre than Kiyosu's, or between the two, yet it is Kiyosu's."""
    layout = Layout(GEOMETRY)
    layout.arrange({10 + n: "kiyosu" for n in range(6)} | {30: "okazaki"})
    per_tag = {tag: GEOMETRY.zone_of(*at) for tag, (_, at) in layout.placed.items()}
    assert any(zone != "kiyosu" for tag, zone in per_tag.items() if tag < 30)  # the problem
    assert read(layout) == {10 + n: "kiyosu" for n in range(6)} | {30: "okazaki"}


def test_stacks_of_neighbouring_locations_stand_apart():
    layout = Layout(GEOMETRY)
    layout.arrange({10 + n: "kiyosu" for n in range(5)} | {20 + n: "okazaki" for n in range(5)}
                   | {40 + n: "gifu" for n in range(5)})
    positions = {tag: at for tag, (_, at) in layout.placed.items()}
    groups = stacks(positions, layout.link)
    assert sorted(len(g) for g in groups) == [5, 5, 5]
    for group in groups:
        assert len({layout.placed[t][0] for t in group}) == 1
    for zone, at in layout.placed.values():
        for other_zone, there in layout.placed.values():
            if zone != other_zone:
                assert math.dist(at, there) >= layout.apart


def test_a_carried_block_takes_the_stack_it_joins_and_the_rest_stay():
    layout = Layout(GEOMETRY)
    layout.arrange({10: "kiyosu", 11: "kiyosu", 12: "kiyosu", 20: "okazaki"})
    before = {t: Placed(z, at) for t, (z, at) in layout.placed.items()}
    was = layout.placed[12][1]
    layout.arrange({10: "kiyosu", 11: "kiyosu", 12: "okazaki", 20: "okazaki"})
    assert math.dist(layout.placed[12][1], was) >= layout.pitch  # seen to move
    assert read(layout, before) == {10: "kiyosu", 11: "kiyosu", 12: "okazaki", 20: "okazaki"}


def test_a_new_stack_takes_the_location_it_was_put_on():
    layout = Layout(GEOMETRY)
    layout.arrange({10: "kyoto", 11: "kyoto"})
    before = {t: Placed(z, at) for t, (z, at) in layout.placed.items()}
    layout.arrange({10: "ayabe", 11: "ayabe"})  # both carried: no block of the stack stayed
    assert read(layout, before) == {10: "ayabe", 11: "ayabe"}


def test_two_stacks_pushed_together_are_ambiguous_not_guessed():
    kiyosu, okazaki = GEOMETRY.zone("kiyosu").center, GEOMETRY.zone("okazaki").center
    middle = ((kiyosu[0] + okazaki[0]) / 2, (kiyosu[1] + okazaki[1]) / 2)
    positions = {10: kiyosu, 20: okazaki, 11: middle}
    before = {10: Placed("kiyosu", kiyosu), 20: Placed("okazaki", okazaki)}
    zones, _ = assign_zones(GEOMETRY, positions, before, 24.4, 6.0)
    assert zones == {10: AMBIGUOUS, 11: AMBIGUOUS, 20: AMBIGUOUS}


def test_boxes_are_read_by_where_a_block_stands_and_the_open_map_is_outside():
    x, y, _, _ = GEOMETRY.zone("eliminated").rect
    zones, outside = assign_zones(GEOMETRY, {10: (x + 10, y + 10), 11: (430, 30)}, {}, 24.4, 6.0)
    assert zones == {10: "eliminated"} and outside == (11,)


def test_a_location_with_no_room_left_says_so():
    layout = Layout(GEOMETRY, reach=25.0)
    with pytest.raises(LayoutFull, match="no room for another block at kiyosu"):
        layout.arrange({10 + n: "kiyosu" for n in range(12)})


def test_the_set_up_read_from_pixels_by_stacks():
    """The whole set-up photographed at 8 MP: every block read, and read in its zone."""
    layout = Layout(GEOMETRY)
    want = {10 + n: zone for n, zone in enumerate(
        ["kiyosu"] * 4 + ["okazaki"] * 3 + ["gifu"] * 3 + ["osaka"] * 5 + ["kyoto"] * 2
        + ["ishida_recruitment"] * 3 + ["mori_box"] * 2 + ["deployment"] * 2)}
    scene = layout.arrange(want)
    synth = Synth(GEOMETRY, KIT)
    reader = TableReader(GEOMETRY, known_tags=frozenset(want))
    tracker = StableTracker(stacks=GEOMETRY, link=layout.link)
    for seed in range(4):
        tracker.feed(reader.read(synth.photograph(scene, Camera((3280, 2464)),
                                                  Look(noise=1.5, defocus=0.4, seed=seed)).image))
    assert tracker.stable is not None and dict(tracker.stable.zones) == want


def test_a_block_put_on_the_next_location_touching_a_spilling_stack_is_ambiguous():
    """A block carried onto Okazaki's centre, touching Kiyosu's stack that spills that way,
    may be a move to Okazaki or a block added to Kiyosu: asked, never swallowed."""
    (kx, ky), (ox, oy) = GEOMETRY.zone("kiyosu").center, GEOMETRY.zone("okazaki").center
    spill = (kx + (ox - kx) / 2, ky + (oy - ky) / 2)
    before = {10: Placed("kiyosu", (kx, ky)), 11: Placed("kiyosu", spill),
              12: Placed("kiyosu", (kx - 20, ky))}
    positions = {10: (kx, ky), 11: spill, 12: (ox, oy)}
    zones, _ = assign_zones(GEOMETRY, positions, before, 24.4, 6.0)
    assert zones == {10: AMBIGUOUS, 11: AMBIGUOUS, 12: AMBIGUOUS}
    positions[12] = (kx, ky - 20)  # put back beside its own stack instead
    zones, _ = assign_zones(GEOMETRY, positions, before, 24.4, 6.0)
    assert zones == {10: "kiyosu", 11: "kiyosu", 12: "kiyosu"}


def test_an_ambiguous_stack_takes_what_a_person_settled_while_it_stays_put():
    """The tablet entry that resolved a held-back move settles the stack: the rest of the
    table is read again. A block moved since is not covered by what was said."""
    (kx, ky), (ox, oy) = GEOMETRY.zone("kiyosu").center, GEOMETRY.zone("okazaki").center
    spill = (kx + (ox - kx) / 2, ky + (oy - ky) / 2)
    before = {10: Placed("kiyosu", (kx, ky)), 11: Placed("kiyosu", spill),
              12: Placed("kiyosu", (kx - 20, ky))}
    positions = {10: (kx, ky), 11: spill, 12: (ox, oy)}
    said = {10: Placed("kiyosu", (kx, ky)), 11: Placed("kiyosu", spill),
            12: Placed("okazaki", (ox, oy))}
    zones, _ = assign_zones(GEOMETRY, positions, before, 24.4, 6.0, said)
    assert zones == {10: "kiyosu", 11: "kiyosu", 12: "okazaki"}
    positions[12] = (ox + 10, oy)  # moved again since: not what the person settled
    zones, _ = assign_zones(GEOMETRY, positions, before, 24.4, 6.0, said)
    assert set(zones.values()) == {AMBIGUOUS}
