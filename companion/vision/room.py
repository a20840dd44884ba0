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

In the tilt conditions a real (pinhole) camera looks at the table from 1 m, tilted 10 or 15
degrees, and the tags are drawn where it sees them on top of their 25 mm blocks (`Pinhole`:
the synthetic camera draws the parallax about the frame's centre, right only looking straight
down): each tag's board position is scored against where its block stands
(`position_error_mm_p50`, `_p95`, `_max`), with the errors of the point under the camera and
of the camera height the reader used.

Hand sequences: hands of 8 skin tones (hue 25 degrees among them), forearm and sleeve entering
from the frame's edge, resting over blocks, then leaving, in mild mixed conditions: every
diff after the first (the table as first seen) is spurious.

`python -m companion.vision.room --json` prints the figures (`--frames`, `--seed`, `--size`,
`--sequences` (0: no hands), `--condition NAME` to run only some).
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from companion.games import default_game
from companion.games import game as game_spec
from companion.vision.corpus import random_scene
from companion.vision.detect import TagDetector
from companion.vision.geometry import AMBIGUOUS, Geometry
from companion.vision.intrinsics import Intrinsics
from companion.vision.synth import PX_PER_MM, Camera, Frame, Look, Scene, Synth, random_camera
from companion.vision.table import Reading, StableTracker, TableReader

__all__ = ["CONDITIONS", "MILD", "OBLIQUE_DEGREES", "PHONE_APERTURE_PX", "SKIN_TONES", "Oblique",
           "Pinhole", "ZoneTally", "board_error_mm", "describe_room", "framed", "hand_sequence",
           "oblique_report", "oblique_table", "pinhole", "room_report", "tilted_camera"]

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
    tilt: float | None = None
    """A real camera tilted this many degrees (`pinhole`): tags drawn with their blocks'
    parallax, and the tags' board positions scored against where the blocks stand."""
    lens: bool = False
    """With `tilt`: the reader has the lens calibration (the camera matrix, no distortion)."""


@dataclass(frozen=True, eq=False)
class Pinhole:
    """A real (pinhole) camera over the table: the synthetic camera draws the map through a
    homography and the blocks' parallax about the frame's centre, which is right only for a
    camera looking straight down. This one knows where it stands (board mm, z into the table)
    and draws each tag where its ray meets the map, so the truth of a tilted view is exact."""

    size: tuple[int, int]
    centre: tuple[float, float, float]
    """The optical centre in board mm; z is negative above the map."""
    rotation: np.ndarray
    """Board axes -> camera axes (3x3)."""
    focal_px: float

    @property
    def matrix(self) -> np.ndarray:
        """The camera matrix: square pixels, principal point at the frame's centre."""
        f, (w, h) = self.focal_px, self.size
        return np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]], np.float64)

    @property
    def under(self) -> tuple[float, float]:
        return self.centre[0], self.centre[1]

    @property
    def height_mm(self) -> float:
        return -self.centre[2]

    def project(self, points: np.ndarray) -> np.ndarray:
        """Board points (Nx3 mm) -> frame pixels (Nx2)."""
        camera = (np.asarray(points, np.float64) - np.array(self.centre)) @ self.rotation.T
        pixels = camera @ self.matrix.T
        projected: np.ndarray = pixels[:, :2] / pixels[:, 2:]
        return projected

    def camera(self, synth: Synth) -> Camera:
        """The synthetic camera whose map homography is this camera's (its drawn corners
        are where this camera sees the canvas's corners); no parallax of its own."""
        left, top, _, _ = synth.geometry.extent
        width, height = synth.canvas_size
        fw, fh = self.size
        offsets: list[float] = []
        for cx, cy in ((0, 0), (width, 0), (width, height), (0, height)):
            x, y = left + cx / PX_PER_MM, top + cy / PX_PER_MM
            nx, ny = synth.frame_point(Camera(self.size), x, y)
            (px, py), = self.project(np.array([[x, y, 0.0]]))
            offsets += [px / fw - nx, py / fh - ny]
        a, b, c, d, e, f, g, h = offsets
        return Camera(self.size, (a, b, c, d, e, f, g, h))

    def depth_of_field(self, aperture_px: float,
                       focus_mm: float | None = None) -> tuple[float, float, float, float]:
        """`Look.focus` for this camera focused at depth `focus_mm` (None: the depth of the
        map at the frame's centre): a map point at depth z is blurred by a Gaussian of
        aperture_px * |1 - focus / z| pixels (a thin lens's circle of confusion, its
        `aperture_px` the blur of a point at infinity). A pixel's ray r = K^-1 (u, v, 1) meets
        the map at depth z with 1/z = -(n . r) / C_z (n the map's normal in camera axes,
        C_z the camera's z): affine in (u, v)."""
        row = -(self.rotation[:, 2] @ np.linalg.inv(self.matrix)) / self.centre[2]
        if focus_mm is None:
            focus_mm = 1.0 / float(row @ np.array([self.size[0] / 2, self.size[1] / 2, 1.0]))
        a, b, c = (float(v) for v in row)
        return a, b, c - 1.0 / focus_mm, aperture_px * focus_mm

    def seen(self, scene: Scene, block_height_mm: float) -> Scene:
        """Each tag where this camera sees it on the map: its ray from the camera through the
        tag, `block_height_mm` up, meets the map pushed away from the point under the camera
        by height / (camera height - height)."""
        (nx, ny), k = self.under, self.height_mm / (self.height_mm - block_height_mm)
        return Scene({tag: (zone, (nx + (x - nx) * k, ny + (y - ny) * k))
                      for tag, (zone, (x, y)) in scene.tags.items()})


def pinhole(synth: Synth, size: tuple[int, int], degrees: float,
            distance_mm: float = 1000.0, fill: float = 0.88) -> Pinhole:
    """A camera `distance_mm` from the table's centre, its view tilted `degrees` from looking
    straight down (towards the far, top edge: the near edge seen larger), with the focal
    length at which the table fills `fill` of the frame when seen straight down."""
    left, top, right, bottom = synth.geometry.extent
    middle = np.array([(left + right) / 2, (top + bottom) / 2, 0.0])
    sin, cos = math.sin(math.radians(degrees)), math.cos(math.radians(degrees))
    centre = middle + distance_mm * np.array([0.0, sin, -cos])
    axis = np.array([0.0, -sin, cos])  # from the camera to the table's centre
    across = np.array([1.0, 0.0, 0.0])
    rotation = np.stack([across, np.cross(axis, across), axis])
    focal = fill * min(size[0] / (right - left), size[1] / (bottom - top)) * distance_mm
    return Pinhole(size, (float(centre[0]), float(centre[1]), float(centre[2])), rotation,
                   focal)


def tilted_camera(synth: Synth, size: tuple[int, int], degrees: float,
                  distance_mm: float = 1000.0) -> Camera:
    """The synthetic camera of `pinhole(...)`: the map as a real camera tilted `degrees` sees
    it (the far edge of the table smaller than the near one), without the blocks' parallax."""
    return pinhole(synth, size, degrees, distance_mm).camera(synth)


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
    "10 degree tilt": Condition(STILL, tilt=10.0),
    "barrel 4% uncalibrated": Condition(
        STILL, camera=lambda _, size, rng: replace(_straight(_, size, rng), k1=0.04)),
    "10 degree tilt, lens calibrated": Condition(STILL, tilt=10.0, lens=True),
    "15 degree tilt": Condition(STILL, tilt=15.0),
    "straight down, lens calibrated": Condition(STILL, tilt=0.0, lens=True),
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


@dataclass(frozen=True)
class Setting:
    """One table of a condition: what stands where, how it is photographed and read."""

    scene: Scene
    """Where the blocks stand (the truth)."""
    drawn: Scene
    """Where the camera sees their tags on the map (with a real camera: their parallax)."""
    camera: Camera
    setup: Look
    tested: Look
    pinhole: Pinhole | None = None


def _setting(name: str, synth: Synth, size: tuple[int, int], rng: random.Random) -> Setting:
    """A table for condition `name`: scene, camera, the set-up look and the tested look."""
    condition = CONDITIONS[name]
    scene = random_scene(synth.geometry, rng)
    real = None if condition.tilt is None else pinhole(synth, size, condition.tilt)
    if real is not None:
        camera = real.camera(synth)
    else:
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
    drawn = scene if real is None else real.seen(scene, synth.geometry.block_height_mm)
    return Setting(scene, drawn, camera, look, tested, real)


def _reader(name: str, synth: Synth, detector: TagDetector,
            real: Pinhole | None) -> TableReader:
    """The reader as the room has it: with the lens calibration in a `lens` condition."""
    lens = None
    if CONDITIONS[name].lens and real is not None:
        lens = Intrinsics(real.matrix, np.zeros(5), 0.0, 0)
    return TableReader(synth.geometry, detector, intrinsics=lens)


def _hand_flag(reading: Reading) -> bool:
    """The frame is not trusted (a hand, or motion): the tracker would wait."""
    return bool(reading.moving)


def _condition(name: str, synth: Synth, detector: TagDetector, size: tuple[int, int],
               tables: int, per_table: int, rng: random.Random) -> dict[str, Any]:
    tally = {"frames": 0, "visible": 0, "right": 0, "wrong_ids": 0, "false_hand_flags": 0,
             "spurious_diffs": 0, "gone": 0, "stalled_tables": 0, "blind_frames": 0}
    errors: list[float] = []
    poses: list[tuple[float, float, bool]] = []
    for _ in range(tables):
        table = _setting(name, synth, size, rng)
        reader, tracker = _reader(name, synth, detector, table.pinhole), StableTracker()
        for _ in range(3):
            tracker.feed(reader.read(_shot(synth, table.drawn, table.camera, table.setup,
                                           rng).image))
        tally["stalled_tables"] += tracker.stable is None
        for _ in range(per_table):
            frame = _shot(synth, table.drawn, table.camera, table.tested, rng)
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
            if table.pinhole is not None:
                errors += _position_errors(frame, reading, table.scene)
                poses.append(_pose_errors(reading, table.pinhole))
    figures = {
        "frames": tally["frames"],
        "zone_recall": round(tally["right"] / max(1, tally["visible"]), 4),
        "wrong_ids": tally["wrong_ids"],
        "false_hand_flags": tally["false_hand_flags"],
        "spurious_diffs": tally["spurious_diffs"],
        "reported_gone": tally["gone"],
        "stalled_tables": tally["stalled_tables"],
        "blind_frames": tally["blind_frames"],
    }
    if errors:
        figures.update(_pose_figures(errors, poses))
    return figures


def _position_errors(frame: Frame, reading: Reading, scene: Scene) -> list[float]:
    """How far (mm) each visible tag read is placed from where its block stands."""
    return [math.dist(reading.positions[fact.tag], scene.tags[fact.tag][1])
            for fact in frame.truth if fact.visible and fact.tag in reading.positions]


def _pose_errors(reading: Reading, real: Pinhole) -> tuple[float, float, bool]:
    """How far the point under the camera and the camera height the reader used are from
    the real camera's (NaN: the reader used no height), and whether they came from a pose."""
    parallax = reading.parallax
    if parallax is None or parallax.height_mm is None:
        return math.nan, math.nan, False
    return (math.dist(parallax.under, real.under), abs(parallax.height_mm - real.height_mm),
            parallax.pose is not None)


def _pose_figures(errors: list[float],
                  poses: list[tuple[float, float, bool]]) -> dict[str, Any]:
    """Position error percentiles (mm) over every visible tag read, and the worst errors of
    the point under the camera and of its height over the frames (None: no height used)."""
    ordered = sorted(errors)

    def percentile(share: float) -> float:
        return round(ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)], 2)

    under = [u for u, _, _ in poses if not math.isnan(u)]
    heights = [h for _, h, _ in poses if not math.isnan(h)]
    return {"tags_placed": len(errors), "position_error_mm_p50": percentile(0.5),
            "position_error_mm_p95": percentile(0.95),
            "position_error_mm_max": round(ordered[-1], 2),
            "frames_with_pose": sum(1 for *_, posed in poses if posed),
            "under_camera_error_mm_max": round(max(under), 1) if under else None,
            "camera_height_error_mm_max": round(max(heights), 1) if heights else None}


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
                tick: Callable[[str], None] | None = None,
                game: str | None = None) -> dict[str, Any]:
    """Per condition: zone recall, wrong ids, false hand flags on hand-free frames, spurious
    diffs (and tags reported gone); over hand sequences (8 skin tones, mild mixed conditions)
    the spurious diffs and the resting-hand frames not flagged. Seeded: the same figures for
    the same arguments."""
    spec = game_spec(game) if game else default_game()
    kit = spec.load_kit()
    geometry = spec.board_geometry(kit)
    synth = Synth(geometry, kit)
    detector = TagDetector()
    per_table = 4
    tables = max(1, math.ceil(frames_per_condition / per_table))
    figures: dict[str, Any] = {"size": list(size), "seed": seed, "conditions": {}}
    for name in conditions or tuple(CONDITIONS):
        index = list(CONDITIONS).index(name)  # a condition's tables whatever else is run
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
               if c["blind_frames"] else "")
            + (f"; tags placed within {c['position_error_mm_p50']} mm (median) and "
               f"{c['position_error_mm_p95']} mm (95 %) of their blocks, the camera's pose "
               f"found in {c['frames_with_pose']} of {c['frames']} frames"
               if "position_error_mm_p95" in c else ""))
    hands = figures["hands"]
    lines.append(
        f"hands ({len(hands['by_tone'])} skin tones, {hands['sequences']} sequences, mild "
        f"mixed conditions): {hands['spurious_diffs']} spurious diffs, "
        f"{hands['resting_not_flagged']} of {hands['resting_frames']} frames with a hand over "
        "tags not flagged")
    lines.append(f"in all: {figures['wrong_ids']} wrong ids, {figures['spurious_diffs']} "
                 f"spurious diffs, {figures['false_hand_flags']} false hand flags")
    return lines


OBLIQUE_DEGREES = (30.0, 45.0, 60.0)
"""A camera at the table's edge (issue #33): a tripod beside the table, a phone on a stand,
a webcam on a shelf look at the board this far from vertical."""

PHONE_APERTURE_PX = 2.5
"""The depth of field drawn by default: the blur (Gaussian sigma, px) of a point at infinity
for a 12 MP phone or Pi Camera Module 3 focused a metre away (a 4.2-4.7 mm lens at f/1.8: a
disc about 7 px across, sigma about a third of it). Four times it is a shallow one."""


@dataclass(frozen=True, eq=False)
class Oblique:
    """A table seen by a camera `degrees` from vertical at its edge, the pieces with their
    height and the depth of field drawn: what stands where, and how it is photographed."""

    scene: Scene
    """Where the pieces stand (the truth: zones and footprints)."""
    drawn: Scene
    """Where the camera sees their tags on the map's plane: each tag is on its piece's top,
    `block_height_mm` up, and a plane parallel to the map is seen as the map scaled about
    the point under the camera (`Pinhole.seen`): exact for a tag on a piece's top."""
    real: Pinhole
    camera: Camera
    painter: Synth
    """The table drawn with the tags at the size the map's plane shows them (a tag up
    there looks larger by the same factor that pushes it away)."""
    focus: tuple[float, float, float, float] | None

    def photograph(self, look: Look | None = None) -> Frame:
        """One frame of this table (the depth of field added to `look`'s own optics)."""
        return self.painter.photograph(self.drawn, self.camera,
                                       replace(look or Look(), focus=self.focus))


def oblique_table(synth: Synth, scene: Scene, size: tuple[int, int], degrees: float,
                  height: bool = True, aperture_px: float = PHONE_APERTURE_PX,
                  distance_mm: float = 1000.0) -> Oblique:
    """`scene` as a camera `degrees` from vertical, `distance_mm` from the table's centre,
    framing the whole table (`framed`), sees it: with the pieces' height (`height`, the
    geometry's `block_height_mm`) and a depth of field focused on the table's centre
    (`aperture_px`; 0: everything sharp)."""
    real = framed(synth, pinhole(synth, size, degrees, distance_mm))
    lift = synth.geometry.block_height_mm if height else 0.0
    drawn = real.seen(scene, lift) if lift else scene
    painter = synth
    if lift:
        grown = real.height_mm / (real.height_mm - lift)
        painter = Synth(replace(synth.geometry, tag_mm=synth.geometry.tag_mm * grown),
                        synth.kit)
    focus = real.depth_of_field(aperture_px) if aperture_px else None
    return Oblique(scene, drawn, real, real.camera(synth), painter, focus)


def framed(synth: Synth, real: Pinhole, fill: float = 0.94) -> Pinhole:
    """`real` with the focal length at which the whole table (its extent, the corner markers
    in it) fills `fill` of the frame, as a person sets up a camera at the table's edge: the
    near edge, seen larger, would otherwise leave the frame and its corner markers with it
    (`pinhole` frames the table as seen straight down)."""
    left, top, right, bottom = synth.geometry.extent
    corners = np.array([[left, top, 0.0], [right, top, 0.0], [right, bottom, 0.0],
                        [left, bottom, 0.0]])
    w, h = real.size
    offsets = np.abs(real.project(corners) - np.array([w / 2, h / 2]))
    reach = float(max(offsets[:, 0].max() / (w / 2), offsets[:, 1].max() / (h / 2)))
    return replace(real, focal_px=real.focal_px * fill / reach)


def board_error_mm(real: Pinhole, calibration: Any, geometry: Geometry,
                   step_mm: float = 50.0) -> float:
    """How far (mm, the worst over a grid on the map every `step_mm`) the calibration from
    the corner tags puts map points from where they are: each point projected by the real
    camera, then taken back to the board by the calibration. The homography of the map's
    plane holds if this is a fraction of a millimetre."""
    left, top, right, bottom = geometry.extent
    xs, ys = np.meshgrid(np.arange(left, right + 1e-6, step_mm),
                         np.arange(top, bottom + 1e-6, step_mm))
    points = np.stack([xs.ravel(), ys.ravel(), np.zeros(xs.size)], axis=1)
    pixels = real.project(points).astype(np.float32).reshape(-1, 1, 2)
    back = cv2.perspectiveTransform(pixels, calibration.to_board).reshape(-1, 2)
    return float(np.linalg.norm(back - points[:, :2], axis=1).max())


@dataclass
class ZoneTally:
    """Zone recall and the pose over the frames of a setting, as the straight 12 MP bench
    scores them (`games.sekigahara.vision_bench._score`): right, wrong and ambiguous zones
    over the visible pieces, ids read that are not on the table."""

    visible: int = 0
    right: int = 0
    wrong: int = 0
    ambiguous: int = 0
    wrong_ids: int = 0
    frames: int = 0
    posed: int = 0
    calibration_mm: list[float] = field(default_factory=list)
    board_mm: list[float] = field(default_factory=list)
    placed_mm: list[float] = field(default_factory=list)
    under_mm: list[float] = field(default_factory=list)
    height_mm: list[float] = field(default_factory=list)

    def add(self, frame: Frame, scene: Scene, reader: TableReader, reading: Reading,
            real: Pinhole | None = None) -> None:
        """Score one frame's reading of `scene` against its truth; with the `real` camera
        (a pinhole's view: `oblique_table`) the calibration's and the pose's errors too."""
        self.frames += 1
        truth = {t.tag: t for t in frame.truth}
        self.wrong_ids += sum(1 for tag in reading.zones if tag not in truth)
        for tag, fact in truth.items():
            if not fact.visible:
                continue
            self.visible += 1
            seen = reading.zones.get(tag)
            self.right += seen == fact.zone
            self.wrong += seen not in (None, AMBIGUOUS, fact.zone)
            self.ambiguous += seen == AMBIGUOUS
        if reader.calibration is not None and reading.board_found:
            self.calibration_mm.append(reader.calibration.error_mm)
        if real is None:
            return
        self.placed_mm += _position_errors(frame, reading, scene)
        if reader.calibration is not None and reading.board_found:
            self.board_mm.append(board_error_mm(real, reader.calibration, reader.geometry))
        under, height, posed = _pose_errors(reading, real)
        self.posed += posed
        if posed:
            self.under_mm.append(under)
            self.height_mm.append(height)

    def figures(self) -> dict[str, Any]:
        """Zone recall, wrong zones, and the worst calibration, placement and pose errors."""
        def worst(values: list[float]) -> float | None:
            return round(max(values), 2) if values else None

        figures = {"visible_pieces": self.visible,
                   "zone_recall": round(self.right / max(1, self.visible), 4),
                   "wrong_zones": self.wrong, "ambiguous": self.ambiguous,
                   "wrong_ids": self.wrong_ids,
                   "calibration_error_mm_max": worst(self.calibration_mm)}
        if not self.board_mm:  # not a pinhole's view: no truth for the pose
            return figures
        return {**figures, "board_error_mm_max": worst(self.board_mm),
                "placed_error_mm_max": worst(self.placed_mm),
                "frames_with_pose": self.posed,
                "under_camera_error_mm_max": worst(self.under_mm),
                "camera_height_error_mm_max": worst(self.height_mm)}


def oblique_report(game: str | None = None, size: tuple[int, int] = TWELVE_MP,
                   degrees: tuple[float, ...] = OBLIQUE_DEGREES, frames: int = 1,
                   seed: int = 0, tag_mm: float | None = None, height: bool = True,
                   aperture_px: float = PHONE_APERTURE_PX, pieces: int = 30,
                   tick: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Per camera angle: `frames` random tables of `pieces` pieces seen from the table's edge
    (`oblique_table`), each read by the `TableReader` as a live camera's frame: zone recall,
    wrong zones, the calibration's error on the map's plane and the pose's. Seeded."""
    spec = game_spec(game) if game else default_game()
    kit = spec.load_kit()
    geometry = spec.board_geometry(kit)
    if tag_mm is not None:
        geometry = replace(geometry, tag_mm=tag_mm)
    synth = Synth(geometry, kit)
    detector = TagDetector()
    figures: dict[str, Any] = {"size": list(size), "seed": seed, "tag_mm": geometry.tag_mm,
                               "block_height_mm": geometry.block_height_mm if height else 0.0,
                               "aperture_px": aperture_px, "angles": {}}
    for angle in degrees:
        rng = random.Random(seed * 1000 + round(angle))
        tally = ZoneTally()
        for _ in range(frames):
            table = oblique_table(synth, random_scene(geometry, rng, pieces), size, angle,
                                  height, aperture_px)
            frame = table.photograph(Look(noise=1.5, seed=rng.randrange(1 << 30)))
            reader = TableReader(geometry, detector)
            tally.add(frame, table.scene, reader, reader.read(frame.image), table.real)
        figures["angles"][f"{angle:g}"] = {"frames": frames, **tally.figures()}
        if tick is not None:
            tick(f"{angle:g} degrees")
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m companion.vision.room",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=8, help="hand-free frames a condition")
    parser.add_argument("--sequences", type=int, default=1, help="hand sequences a skin tone")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", default="4056x3040", help="frame size, WIDTHxHEIGHT")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--condition", action="append", choices=list(CONDITIONS),
                        help="only this condition (repeat for more; default: all)")
    parser.add_argument("--game", help="whose table the frames show (default: the default "
                        "game's)")
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.lower().split("x"))
    figures = room_report(args.frames, args.seed, (width, height), args.sequences,
                          tuple(args.condition) if args.condition else None,
                          game=args.game)
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        print("\n".join(describe_room(figures)))


if __name__ == "__main__":
    main()
