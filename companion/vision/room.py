"""The table in a real room, condition by condition (issue #19): what the synthetic corpora
lacked and the measurements showed, read through the real `TableReader` and `StableTracker`.

Each condition (a dim room's sensor gain, cards on the map, warm light, red map art, motion
blur, a saturated lamp reflection, a tilted camera, an uncalibrated barrel lens) photographs a
few random tables: three still frames set the table up (the tracker takes its first stable
snapshot), then hand-free frames of the same table are read: how many of the visible tags are
read in their zones, how many ids are wrong, how many frames are flagged as a hand (or motion:
either way the tracker would not trust them), and whether the tracker reports anything (it
must not: nothing changed). In the saturated glare condition the lamp's reflection appears
after the set-up, over blocks: none may be reported gone.

Hand sequences: hands of 8 skin tones (hue 25 degrees among them), forearm and sleeve entering
from the frame's edge, resting over blocks, then leaving, in mild mixed conditions: every
diff after the first (the table as first seen) is spurious.

`python -m companion.vision.room --json` prints the figures (`--frames`, `--seed`, `--size`).
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from companion.kits import load_kit
from companion.vision.corpus import random_scene
from companion.vision.detect import TagDetector
from companion.vision.geometry import Geometry
from companion.vision.synth import Camera, Frame, Look, Scene, Synth, random_camera
from companion.vision.table import Reading, StableTracker, TableReader

__all__ = ["CONDITIONS", "MILD", "SKIN_TONES", "describe_room", "hand_sequence", "room_report",
           "tilted_camera"]

TWELVE_MP = (4056, 3040)

SKIN_TONES: dict[str, tuple[int, int, int]] = {
    # name: BGR; the hue (HSV, degrees) in the name where it matters to a colour rule
    "pale (hue 28)": (196, 224, 255),
    "light (hue 22)": (167, 194, 241),
    "hue 25": (130, 163, 210),
    "medium (hue 30)": (105, 172, 224),
    "olive (hue 33)": (90, 140, 170),
    "brown (hue 28)": (36, 85, 141),
    "dark brown (hue 20)": (40, 60, 100),
    "deep (hue 20)": (30, 40, 60),
}
"""Eight skin tones, from pale to deep; the skin threshold's band was hue 0-22 degrees."""

SLEEVES = [(90, 60, 40), (235, 235, 235), (120, 120, 120), (40, 40, 160), (150, 190, 210),
           (30, 30, 30)]
"""Sleeve colours: navy, white, grey, red, beige, black."""

MILD = Look(defocus=0.6, motion=3, noise=3.0, light=0.2, glare=0.15, glare_at=(0.4, 0.35),
            warm=0.3, gain=2.0)
"""Mild mixed conditions: a little of everything a room does."""

STILL = Look(defocus=0.4, noise=1.5)


@dataclass(frozen=True)
class Condition:
    look: Look
    camera: Callable[[Synth, tuple[int, int], random.Random], Camera] | None = None
    """The camera for a table (None: a straight camera, a little tilt, no lens)."""
    cards: bool = False
    """Cards lie on the map (chosen where no block stands)."""
    spot: bool = False
    """A lamp's saturated reflection appears over blocks after the set-up."""


def tilted_camera(synth: Synth, size: tuple[int, int], degrees: float,
                  distance_mm: float = 1000.0) -> Camera:
    """A camera `distance_mm` from the board's centre, its view tilted `degrees` from looking
    straight down: the far edge of the table seen smaller than the near one."""
    corners = _table_corners(synth, Camera(size))
    left, _, right, _ = synth.geometry.extent
    fw, fh = size
    px_per_mm = (max(c[0] for c in corners) - min(c[0] for c in corners)) / (right - left)
    sin, cos = math.sin(math.radians(degrees)), math.cos(math.radians(degrees))
    offsets: list[float] = []
    for x, y in corners:
        dx, dy = x - fw / 2, y - fh / 2
        shrink = distance_mm / (distance_mm - dy / px_per_mm * sin)  # nearer: larger
        offsets += [(dx * shrink - dx) / fw, (dy * cos * shrink - dy) / fh]
    return Camera(size, tuple(offsets))  # type: ignore[arg-type]


def _table_corners(synth: Synth, camera: Camera) -> list[tuple[float, float]]:
    left, top, right, bottom = synth.geometry.extent
    fw, fh = camera.size
    return [(fx * fw, fy * fh) for fx, fy in
            (synth.frame_point(camera, x, y) for x, y in
             ((left, top), (right, top), (right, bottom), (left, bottom)))]


def _straight(synth: Synth, size: tuple[int, int], rng: random.Random) -> Camera:
    return random_camera(rng, size, tilt=0.01, k1=0.0)


CONDITIONS: dict[str, Condition] = {
    "low light gain 8": Condition(Look(defocus=0.4, gain=8.0)),
    "cards on the map": Condition(STILL, cards=True),
    "warm light": Condition(replace(STILL, warm=1.0)),
    "red map art": Condition(replace(STILL, art=1)),
    "6 px motion blur": Condition(Look(motion=6, noise=1.5)),
    "saturated glare": Condition(STILL, spot=True),
    "10 degree tilt": Condition(STILL, camera=lambda s, size, _: tilted_camera(s, size, 10.0)),
    "barrel 4% uncalibrated": Condition(
        STILL, camera=lambda _, size, rng: replace(_straight(_, size, rng), k1=0.04)),
}
"""The conditions of issue #19, each alone (the hand sequences mix them mildly)."""


def _free_spots(geometry: Geometry, scene: Scene, rng: random.Random, count: int,
                clearance: float) -> list[tuple[float, float]]:
    """Up to `count` board points at least `clearance` mm from every block and each other."""
    width, height = geometry.board_mm
    taken = [where for _, where in scene.tags.values()]
    spots: list[tuple[float, float]] = []
    for _ in range(400):
        x, y = rng.uniform(60, width - 60), rng.uniform(60, height - 60)
        if all(math.dist((x, y), p) > clearance for p in taken + spots):
            spots.append((x, y))
            if len(spots) == count:
                break
    return spots


def _setting(name: str, synth: Synth, size: tuple[int, int],
             rng: random.Random) -> tuple[Scene, Camera, Look, Look]:
    """A table for condition `name`: scene, camera, the set-up look and the tested look."""
    condition = CONDITIONS[name]
    scene = random_scene(synth.geometry, rng)
    camera = (condition.camera or _straight)(synth, size, rng)
    look = condition.look
    if condition.cards:
        cards = _free_spots(synth.geometry, scene, rng, 3, 62.0)
        look = replace(look, cards=tuple((x, y, rng.uniform(-40, 40)) for x, y in cards))
    tested = look
    if condition.spot:  # over a stack, chosen from the blocks on the board
        on_board = [w for _, w in scene.tags.values()
                    if 0 < w[0] < synth.geometry.board_mm[0]
                    and 0 < w[1] < synth.geometry.board_mm[1]]
        x, y = synth.frame_point(camera, *rng.choice(on_board))
        tested = replace(look, spot=(x, y, 0.06))
    return scene, camera, look, tested


def _hand_flag(reading: Reading) -> bool:
    """The frame is not trusted (a hand, or motion): the tracker would wait."""
    return bool(reading.moving)


def _condition(name: str, synth: Synth, detector: TagDetector, size: tuple[int, int],
               tables: int, per_table: int, rng: random.Random) -> dict[str, Any]:
    tally = {"frames": 0, "visible": 0, "right": 0, "wrong_ids": 0, "false_hand_flags": 0,
             "spurious_diffs": 0, "gone": 0, "stalled_tables": 0, "blind_frames": 0}
    for _ in range(tables):
        scene, camera, setup, tested = _setting(name, synth, size, rng)
        reader, tracker = TableReader(synth.geometry, detector), StableTracker()
        for _ in range(3):
            tracker.feed(reader.read(_shot(synth, scene, camera, setup, rng).image))
        tally["stalled_tables"] += tracker.stable is None
        for _ in range(per_table):
            frame = _shot(synth, scene, camera, tested, rng)
            reading = reader.read(frame.image)
            settled = tracker.stable is not None
            diff = tracker.feed(reading)
            tally["frames"] += 1
            tally["false_hand_flags"] += _hand_flag(reading)
            tally["blind_frames"] += bool(getattr(reading, "blind", ()))
            if diff is not None and settled:  # else: the table as first seen
                tally["spurious_diffs"] += 1
                tally["gone"] += len(diff.disappeared)
            _score(frame, reading, tally)
    return {
        "frames": tally["frames"],
        "zone_recall": round(tally["right"] / max(1, tally["visible"]), 4),
        "wrong_ids": tally["wrong_ids"],
        "false_hand_flags": tally["false_hand_flags"],
        "spurious_diffs": tally["spurious_diffs"],
        "reported_gone": tally["gone"],
        "stalled_tables": tally["stalled_tables"],
        "blind_frames": tally["blind_frames"],
    }


def _shot(synth: Synth, scene: Scene, camera: Camera, look: Look,
          rng: random.Random) -> Frame:
    return synth.photograph(scene, camera, replace(look, seed=rng.randrange(1 << 30)))


def _score(frame: Frame, reading: Reading, tally: dict[str, int]) -> None:
    truth = {t.tag: t for t in frame.truth}
    tally["wrong_ids"] += sum(1 for tag in reading.zones if tag not in truth)
    for fact in truth.values():
        if fact.visible:
            tally["visible"] += 1
            tally["right"] += reading.zones.get(fact.tag) == fact.zone


def hand_sequence(synth: Synth, size: tuple[int, int], skin: tuple[int, int, int],
                  rng: random.Random, rest: int = 4, look: Look = MILD) -> list[Frame]:
    """A still table; a hand of tone `skin` (forearm and sleeve from the near edge) comes in,
    rests over a stack, and leaves; the table again. Nothing on the table changes."""
    scene = random_scene(synth.geometry, rng)
    camera = random_camera(rng, size)
    on_board = [w for _, w in scene.tags.values()]
    tx, ty = synth.frame_point(camera, *rng.choice(on_board))
    hand = Look(**{**look.__dict__, "skin": skin, "sleeve": rng.choice(SLEEVES)})
    size_h = rng.uniform(0.1, 0.14)
    path = [(tx, 0.98), (tx, (0.98 + ty) / 2)]
    path += [(tx + rng.uniform(-0.004, 0.004), ty + rng.uniform(-0.004, 0.004))
             for _ in range(rest)]
    path += [(tx, (0.98 + ty) / 2), (tx, 0.98)]
    frames = [_shot(synth, scene, camera, look, rng) for _ in range(3)]
    frames += [_shot(synth, scene, camera, replace(hand, hand=(x, y, size_h)), rng)
               for x, y in path]
    frames += [_shot(synth, scene, camera, look, rng) for _ in range(4)]
    return frames


def _hands(synth: Synth, detector: TagDetector, size: tuple[int, int], per_tone: int,
           rng: random.Random) -> dict[str, Any]:
    found: dict[str, Any] = {"sequences": 0, "spurious_diffs": 0, "resting_frames": 0,
                             "resting_not_flagged": 0, "wrong_ids": 0, "by_tone": {}}
    for tone, bgr in SKIN_TONES.items():
        spurious = missed = 0
        for _ in range(per_tone):
            frames = hand_sequence(synth, size, bgr, rng)
            reader, tracker = TableReader(synth.geometry, detector), StableTracker()
            diffs = []
            for frame in frames:
                reading = reader.read(frame.image)
                diffs.append(tracker.feed(reading))
                found["wrong_ids"] += sum(1 for t in reading.zones
                                          if t not in {f.tag for f in frame.truth})
                if frame.hand and any(not t.visible for t in frame.truth):
                    found["resting_frames"] += 1
                    missed += not _hand_flag(reading)
            spurious += len([d for d in diffs if d is not None][1:])
            found["sequences"] += 1
        found["spurious_diffs"] += spurious
        found["resting_not_flagged"] += missed
        found["by_tone"][tone] = {"spurious_diffs": spurious, "hand_frames_not_flagged": missed}
    return found


def room_report(frames_per_condition: int = 8, seed: int = 0, size: tuple[int, int] = TWELVE_MP,
                sequences_per_tone: int = 1, conditions: tuple[str, ...] | None = None,
                tick: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Per condition: zone recall, wrong ids, false hand flags on hand-free frames, spurious
    diffs (and tags reported gone); over hand sequences (8 skin tones, mild mixed conditions)
    the spurious diffs and the resting-hand frames not flagged. Seeded: the same figures for
    the same arguments."""
    kit = load_kit("sekigahara")
    geometry = Geometry.load(kit)
    synth = Synth(geometry, kit)
    detector = TagDetector()
    per_table = 4
    tables = max(1, math.ceil(frames_per_condition / per_table))
    figures: dict[str, Any] = {"size": list(size), "seed": seed, "conditions": {}}
    for index, name in enumerate(conditions or tuple(CONDITIONS)):
        rng = random.Random(seed * 1000 + index)
        figures["conditions"][name] = _condition(name, synth, detector, size, tables,
                                                 per_table, rng)
        if tick is not None:
            tick(name)
    figures["hands"] = _hands(synth, detector, size, sequences_per_tone,
                              random.Random(seed * 1000 + 999))
    if tick is not None:
        tick("hands")
    every = figures["conditions"].values()
    figures["wrong_ids"] = sum(c["wrong_ids"] for c in every) + figures["hands"]["wrong_ids"]
    figures["false_hand_flags"] = sum(c["false_hand_flags"] for c in every)
    figures["spurious_diffs"] = (sum(c["spurious_diffs"] for c in every)
                                 + figures["hands"]["spurious_diffs"])
    return figures


def describe_room(figures: dict[str, Any]) -> list[str]:
    """The figures in sentences, for a person."""
    lines = []
    for name, c in figures["conditions"].items():
        lines.append(
            f"{name}: zone recall {c['zone_recall']}, wrong ids {c['wrong_ids']}, "
            f"{c['false_hand_flags']} of {c['frames']} hand-free frames flagged, "
            f"{c['spurious_diffs']} spurious diffs ({c['reported_gone']} tags reported gone)"
            + (f", {c['stalled_tables']} tables never stable" if c["stalled_tables"] else "")
            + (f", the camera said it could not see part of the map in {c['blind_frames']}"
               if c["blind_frames"] else ""))
    hands = figures["hands"]
    lines.append(
        f"hands ({len(hands['by_tone'])} skin tones, {hands['sequences']} sequences, mild "
        f"mixed conditions): {hands['spurious_diffs']} spurious diffs, "
        f"{hands['resting_not_flagged']} of {hands['resting_frames']} frames with a hand over "
        "tags not flagged")
    lines.append(f"in all: {figures['wrong_ids']} wrong ids, {figures['spurious_diffs']} "
                 f"spurious diffs, {figures['false_hand_flags']} false hand flags")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m companion.vision.room",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=8, help="hand-free frames a condition")
    parser.add_argument("--sequences", type=int, default=1, help="hand sequences a skin tone")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", default="4056x3040", help="frame size, WIDTHxHEIGHT")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.lower().split("x"))
    figures = room_report(args.frames, args.seed, (width, height), args.sequences)
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        print("\n".join(describe_room(figures)))


if __name__ == "__main__":
    main()
