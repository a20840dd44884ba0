"""A synthetic table: our own drawing of a game's board, blocks carrying tags, photographed.

`render_board` draws the table from the kit's geometry (roads, location circles, names, boxes,
corner markers; no publisher art) with tags at given board positions. `photograph` looks at it
through a camera: perspective from a pose, lens distortion, defocus and motion blur, sensor
noise, uneven light and glare, and a hand-shaped blob covering part of the board. Every frame
comes with its ground truth: each tag's zone and whether the hand hides it.

What a real room adds (issue #19), each an option of the `Look` that is off by default (so the
default looks draw the same frames as before): a hand of a given skin tone with its forearm and
sleeve entering from the frame's edge, a dim room's sensor gain (shot and read noise amplified),
warm light (an uncorrected white balance), red ink in the map's art, cards lying on the map, and
a lamp's reflection that saturates the sensor.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision.geometry import Geometry

__all__ = ["SLIGHT_TILT", "Camera", "Frame", "Look", "Scene", "Synth", "TagTruth", "hand_look",
           "place_stacks", "still_look"]

PX_PER_MM = 4.0
"""Resolution of the drawn table (the camera then sees it at its own resolution)."""


@dataclass(frozen=True)
class TagTruth:
    tag: int
    zone: str
    board: tuple[float, float]
    visible: bool


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    truth: tuple[TagTruth, ...]
    hand: bool


@dataclass(frozen=True, eq=False)
class Scene:
    """Tags at board positions (mm), and the zone each stands in."""

    tags: dict[int, tuple[str, tuple[float, float]]]


@dataclass(frozen=True)
class Camera:
    """Where the camera looks from: the frame size and how the table's corners land in it."""

    size: tuple[int, int]
    tilt: tuple[float, float, float, float, float, float, float, float] = (0,) * 8
    """Offsets of the table's four corners, as fractions of the frame (a camera pose)."""
    k1: float = 0.0
    """Radial lens distortion."""
    height_mm: float = 0.0
    """The camera's height above the map, looking down on the frame's centre; 0: blocks are
    drawn flat on the map (no parallax)."""


@dataclass(frozen=True)
class Look:
    """What happens between the table and the sensor for one frame."""

    defocus: float = 0.0
    motion: int = 0
    noise: float = 0.0
    light: float = 0.0
    glare: float = 0.0
    hand: tuple[float, float, float] | None = None
    """A hand: centre (fractions of the frame) and size (fraction of the frame's height)."""
    seed: int = 0
    glare_at: tuple[float, float] | None = None
    """Where the soft highlight is (fractions of the frame); None: drawn from the seed, so it
    moves from frame to frame (a lamp does not: pin it for a sequence of one table)."""
    skin: tuple[int, int, int] | None = None
    """The hand's skin tone (BGR); None: the default tone."""
    sleeve: tuple[int, int, int] | None = None
    """With a hand: its forearm reaches the frame's nearest edge, in a sleeve of this colour
    (BGR) from a hand's length behind the wrist; None: the default blob (no forearm)."""
    gain: float = 0.0
    """A dim room: the sensor sees 1/gain of the light and amplifies it `gain` times, with its
    shot and read noise (at gain 8 about 14 grey levels on white); 0: none."""
    warm: float = 0.0
    """Warm light seen with a daylight white balance (0-1: 1 is a 2700 K bulb, blue at 0.4 and
    green at 0.65 of red)."""
    art: int = 0
    """Red ink in the map's art (province borders, seals, names), drawn from this seed; 0: none."""
    cards: tuple[tuple[float, float, float], ...] = ()
    """Cards lying on the map under the blocks: centre (board mm) and angle (degrees) each."""
    spot: tuple[float, float, float] | None = None
    """A lamp's reflection that saturates the sensor: centre (fractions of the frame) and
    radius (fraction of the frame's height)."""
    focus: tuple[float, float, float, float] | None = None
    """Depth of field (issue #33): the Gaussian blur at frame pixel (u, v) is
    scale * |a u + b v + c| pixels, given as (a, b, c, scale). For a plane seen through a
    pinhole 1/depth is affine in (u, v), so a camera focused at one depth blurs the table more
    the further its points lie from that depth (`room.Pinhole.depth_of_field`); None: none."""


SLIGHT_TILT: tuple[float, float, float, float, float, float, float, float] = (
    0.02, 0.01, -0.015, 0.02, 0.01, -0.02, -0.02, -0.01)
"""The simulated tables' camera, not quite square over the table (offsets of the table's
corners, frame fractions)."""


def still_look(seed: int) -> Look:
    """A still table as the simulated players photograph it between changes: a little sensor
    noise, defocus and uneven light, different in every frame (`seed`)."""
    return Look(noise=1.5, defocus=0.4, light=0.1, seed=seed)


def hand_look(extent: tuple[float, float, float, float],
              points: Sequence[tuple[float, float]], seed: int, size: float = 0.12) -> Look:
    """A hand over the middle of `points` (board mm) while a player changes them: placed in
    frame fractions as a camera framing `extent` (left, top, right, bottom) roughly sees it."""
    left, top, right, bottom = extent
    x = sum(p[0] for p in points) / max(1, len(points))
    y = sum(p[1] for p in points) / max(1, len(points))
    fx = 0.05 + 0.9 * (x - left) / (right - left)
    fy = 0.05 + 0.9 * (y - top) / (bottom - top)
    return Look(noise=1.5, hand=(fx, fy, size), seed=seed)


def place_stacks(geometry: Geometry, stacks: dict[str, int], first_tag: int = 10,
                 spacing: float | None = None) -> Scene:
    """Tags for `stacks` (zone -> how many blocks), laid out in a tight grid in each zone."""
    step = spacing or geometry.tag_mm * 1.6  # a block's width: tags never touch
    tags: dict[int, tuple[str, tuple[float, float]]] = {}
    tag = first_tag
    grid = sorted(((i - 3) * step, (j - 3) * step) for i in range(7) for j in range(7))
    grid.sort(key=lambda d: (math.hypot(*d), d))
    for zone_id, count in stacks.items():
        zone = geometry.zone(zone_id)
        spots = [(zone.center[0] + dx, zone.center[1] + dy) for dx, dy in grid]
        spots = [p for p in spots if geometry.zone_of(*p, margin=8.0) == zone_id]
        if len(spots) < count:
            raise ValueError(f"{count} blocks do not fit in {zone_id}")
        for where in spots[:count]:  # nearest the centre first, never nearer another zone
            tags[tag] = (zone_id, where)
            tag += 1
    return Scene(tags)


@dataclass
class Synth:
    """Draws one game's table once; photographs it with any scene, camera and look."""

    geometry: Geometry
    kit: object
    dictionary: int = cv2.aruco.DICT_APRILTAG_36h11
    _base: np.ndarray | None = field(default=None, repr=False)
    _painted: dict[object, np.ndarray] = field(default_factory=dict, repr=False)
    _markers: dict[tuple[int, int], np.ndarray] = field(default_factory=dict, repr=False)
    _last: tuple[object, np.ndarray] | None = field(default=None, repr=False)

    def _to_px(self, x: float, y: float) -> tuple[int, int]:
        left, top, _, _ = self.geometry.extent
        return round((x - left) * PX_PER_MM), round((y - top) * PX_PER_MM)

    @property
    def canvas_size(self) -> tuple[int, int]:
        left, top, right, bottom = self.geometry.extent
        return round((right - left) * PX_PER_MM), round((bottom - top) * PX_PER_MM)

    def board(self) -> np.ndarray:
        """The empty table: board, roads, locations, names, boxes, areas, corner markers."""
        if self._base is not None:
            return self._base.copy()
        width, height = self.canvas_size
        image = np.full((height, width, 3), (88, 120, 150), np.uint8)  # the table top
        g = self.geometry
        cv2.rectangle(image, self._to_px(0, 0), self._to_px(*g.board_mm), (200, 228, 236), -1)
        where = {z.id: z for z in g.zones}
        for road in getattr(self.kit, "roads", ()):
            thick = 10 if getattr(road, "kind", "") == "highway" else 4
            cv2.line(image, self._to_px(*where[road.a].center), self._to_px(*where[road.b].center),
                     (60, 90, 120), thick, cv2.LINE_AA)
        for zone in g.zones:
            if zone.rect is not None:
                x, y, w, h = zone.rect
                cv2.rectangle(image, self._to_px(x, y), self._to_px(x + w, y + h),
                              (230, 230, 230), -1)
                cv2.rectangle(image, self._to_px(x, y), self._to_px(x + w, y + h),
                              (40, 40, 40), 3)
                continue
            cv2.circle(image, self._to_px(*zone.center), round(14 * PX_PER_MM), (245, 245, 245),
                       -1, cv2.LINE_AA)
            cv2.circle(image, self._to_px(*zone.center), round(14 * PX_PER_MM), (50, 50, 50), 3,
                       cv2.LINE_AA)
            x, y = self._to_px(zone.center[0] - 14, zone.center[1] + 22)
            cv2.putText(image, zone.name, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (30, 30, 30), 2,
                        cv2.LINE_AA)
        for marker, (x, y) in g.corners.items():
            self._stamp(image, marker, (x, y), g.corner_size_mm, border=(255, 255, 255))
        self._base = image
        return image.copy()

    def _stamp(self, image: np.ndarray, tag: int, center: tuple[float, float], size_mm: float,
               border: tuple[int, int, int]) -> None:
        """A tag with a white quiet zone, on a block (or a card) of colour `border`."""
        px = max(10, round(size_mm * PX_PER_MM))
        key = (tag, px)
        if key not in self._markers:
            marker = cv2.aruco.generateImageMarker(
                cv2.aruco.getPredefinedDictionary(self.dictionary), tag, px)
            self._markers[key] = cv2.cvtColor(marker, cv2.COLOR_GRAY2BGR)
        quiet = round(px * 0.2)
        x, y = self._to_px(*center)
        x0, y0 = x - px // 2, y - px // 2
        cv2.rectangle(image, (x0 - quiet - 4, y0 - quiet - 4),
                      (x0 + px + quiet + 4, y0 + px + quiet + 4), border, -1)
        cv2.rectangle(image, (x0 - quiet, y0 - quiet), (x0 + px + quiet, y0 + px + quiet),
                      (255, 255, 255), -1)
        image[y0:y0 + px, x0:x0 + px] = self._markers[key]

    def map_under(self, art: int = 0,
                  cards: tuple[tuple[float, float, float], ...] = ()) -> np.ndarray:
        """The empty table with red map art (from seed `art`) and cards lying on it."""
        if not art and not cards:
            return self.board()
        key = (art, cards)
        if key not in self._painted:
            image = self.board()
            if art:
                _red_art(image, self.geometry, self._to_px, art)
            for x, y, angle in cards:
                _card(image, self._to_px(x, y), angle)
            self._painted = {key: image}  # one painted map at a time: 12 MP canvases are big
        return self._painted[key].copy()

    def table(self, scene: Scene, art: int = 0,
              cards: tuple[tuple[float, float, float], ...] = ()) -> np.ndarray:
        image = self.map_under(art, cards)
        for tag, (_, where) in scene.tags.items():
            self._stamp(image, tag, where, self.geometry.tag_mm, border=(20, 140, 200)
                        if tag % 2 else (30, 30, 30))
        return image

    def homography(self, camera: Camera) -> np.ndarray:
        """Table canvas pixels -> frame pixels for this camera pose."""
        width, height = self.canvas_size
        fw, fh = camera.size
        scale = 0.9 * min(fw / width, fh / height)
        ox, oy = (fw - width * scale) / 2, (fh - height * scale) / 2
        src = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
        dst = src * scale + np.array([ox, oy], np.float32)
        dst += np.array(camera.tilt, np.float32).reshape(4, 2) * np.array([fw, fh], np.float32)
        return cv2.getPerspectiveTransform(src, dst)

    def seen(self, scene: Scene, camera: Camera) -> Scene:
        """Where the camera sees the tags: on top of blocks `block_height_mm` tall, each
        appears pushed away from the point under the camera by height / (camera - height)."""
        height = self.geometry.block_height_mm
        if not camera.height_mm or not height:
            return scene
        nx, ny = self.point_under(camera)
        k = camera.height_mm / (camera.height_mm - height)
        return Scene({tag: (zone, (nx + (x - nx) * k, ny + (y - ny) * k))
                      for tag, (zone, (x, y)) in scene.tags.items()})

    def point_under(self, camera: Camera) -> tuple[float, float]:
        """The board point (mm) seen at the frame's centre: under a camera looking down."""
        inverse = np.linalg.inv(self.homography(camera))
        centre = np.array([[[camera.size[0] / 2, camera.size[1] / 2]]], np.float32)
        px, py = cv2.perspectiveTransform(centre, inverse)[0][0]
        left, top, _, _ = self.geometry.extent
        return float(px) / PX_PER_MM + left, float(py) / PX_PER_MM + top

    def photograph_until(self, scene: Scene, camera: Camera, looks: Iterable[Look],
                         on_frame: Callable[[np.ndarray], object]) -> bool:
        """Photograph `scene` under each look in turn (a hand, then still frames) until
        `on_frame` (a simulated table's camera input) returns something: a change was read."""
        for look in looks:
            if on_frame(self.photograph(scene, camera, look).image) is not None:
                return True
        return False

    def frame_point(self, camera: Camera, x: float, y: float) -> tuple[float, float]:
        """Where board point (x, y) mm lies in this camera's frame, as fractions of the frame
        (on the map: no parallax, no lens)."""
        px = np.array([[self._to_px(x, y)]], np.float32)
        fx, fy = cv2.perspectiveTransform(px, self.homography(camera))[0][0]
        return float(fx) / camera.size[0], float(fy) / camera.size[1]

    def photograph(self, scene: Scene, camera: Camera, look: Look = Look()) -> Frame:
        matrix = self.homography(camera)
        key = (scene, camera, look.art, look.cards)
        drawn = self.seen(scene, camera)
        if self._last is not None and self._last[0] == key:  # the same table, another moment
            image = self._last[1].copy()
        else:
            image = cv2.warpPerspective(self.table(drawn, look.art, look.cards), matrix,
                                        camera.size,
                                        flags=cv2.INTER_LINEAR, borderValue=(40, 60, 70))
            if camera.k1:
                image = _distort(image, camera.k1)
            self._last = (key, image.copy())
        rng = np.random.default_rng(look.seed)
        hand_mask = _hand(image, look, rng) if look.hand else None
        image = _optics(image, look, rng)
        truth = tuple(self._truth(scene, drawn, matrix, camera, hand_mask))
        return Frame(image, truth, hand_mask is not None)

    def _truth(self, scene: Scene, drawn: Scene, matrix: np.ndarray, camera: Camera,
               hand: np.ndarray | None) -> list[TagTruth]:
        """Each tag's zone and place on the map, and whether the hand hides where it is seen."""
        found = []
        for tag, (zone, where) in sorted(scene.tags.items()):
            half = self.geometry.tag_mm / 2
            x, y = drawn.tags[tag][1]
            corners = [self._to_px(x + dx, y + dy)
                       for dx, dy in ((-half, -half), (half, -half), (half, half), (-half, half))]
            points = cv2.perspectiveTransform(np.array([corners], np.float32), matrix)[0]
            if camera.k1:
                points = _distort_points(points, camera.k1, camera.size)
            visible = True
            if hand is not None:
                h, w = hand.shape
                for px, py in points:
                    if 0 <= int(px) < w and 0 <= int(py) < h and hand[int(py), int(px)]:
                        visible = False
            found.append(TagTruth(tag, zone, where, visible))
        return found


def _distort(image: np.ndarray, k1: float) -> np.ndarray:
    h, w = image.shape[:2]
    ys, xs = np.indices((h, w), dtype=np.float32)
    cx, cy, f = w / 2, h / 2, max(w, h)
    nx, ny = (xs - cx) / f, (ys - cy) / f
    r2 = nx * nx + ny * ny
    factor = 1 + k1 * r2  # a barrel lens shows the point at r*factor where r should be
    return cv2.remap(image, (nx * factor * f + cx).astype(np.float32),
                     (ny * factor * f + cy).astype(np.float32), cv2.INTER_LINEAR,
                     borderValue=(40, 60, 70))


def _distort_points(points: np.ndarray, k1: float, size: tuple[int, int]) -> np.ndarray:
    """Where `points` of the undistorted frame land in the distorted one (inverse of _distort)."""
    w, h = size
    cx, cy, f = w / 2, h / 2, max(w, h)
    out = []
    for x, y in points:
        nx, ny = (x - cx) / f, (y - cy) / f
        ux, uy = nx, ny
        for _ in range(10):  # solve u * (1 + k1 |u|^2) = n
            factor = 1 + k1 * (ux * ux + uy * uy)
            ux, uy = nx / factor, ny / factor
        out.append((ux * f + cx, uy * f + cy))
    return np.array(out, np.float32)


def _hand(image: np.ndarray, look: Look, rng: np.random.Generator) -> np.ndarray:
    """A hand-shaped blob (palm and fingers) in skin tones; returns its mask."""
    assert look.hand is not None
    h, w = image.shape[:2]
    cx, cy, size = look.hand[0] * w, look.hand[1] * h, look.hand[2] * h
    mask = np.zeros((h, w), np.uint8)
    cv2.ellipse(mask, (round(cx), round(cy)), (round(size * 0.45), round(size * 0.55)),
                float(rng.uniform(-30, 30)), 0, 360, 255, -1)
    for finger in range(4):
        angle = math.radians(-60 + finger * 25 + float(rng.uniform(-5, 5)))
        tip = (round(cx + math.sin(angle) * size * 1.1), round(cy - math.cos(angle) * size * 1.1))
        cv2.line(mask, (round(cx), round(cy)), tip, 255, max(3, round(size * 0.16)))
    cv2.line(mask, (round(cx), round(cy)), (round(cx + size), round(cy + size * 1.5)), 255,
             max(3, round(size * 0.6)))  # the arm, out of the frame
    tone = look.skin or (120, 145, 210)
    skin = np.array(tone, np.float32) * float(rng.uniform(0.8, 1.1))
    if look.sleeve is None:
        image[mask > 0] = np.clip(skin, 0, 255).astype(np.uint8)
        return mask > 0
    # the forearm from the wrist to the nearest edge of the frame, a sleeve beyond the hand
    wrist = np.array([cx + size * 0.35, cy + size * 0.55])
    edges = {(1.0, 0.0): w - wrist[0], (-1.0, 0.0): wrist[0], (0.0, 1.0): h - wrist[1],
             (0.0, -1.0): wrist[1]}
    direction = np.array(min(edges, key=lambda d: edges[d]))
    direction = direction + np.array([0.35, 0.25]) * (1 - np.abs(direction))  # slanted
    direction /= np.linalg.norm(direction)
    far = wrist + direction * (w + h)
    elbow = wrist + direction * size * 1.2
    thick = max(3, round(size * 0.55))
    cv2.line(mask, tuple(np.round(wrist).astype(int)), tuple(np.round(far).astype(int)), 255,
             thick)
    sleeve = np.zeros((h, w), np.uint8)
    cv2.line(sleeve, tuple(np.round(elbow).astype(int)), tuple(np.round(far).astype(int)), 255,
             round(thick * 1.25))
    sigma = max(1.0, size * 0.08)
    x, y, bw, bh = cv2.boundingRect(mask)  # shaded within the hand's box, the blur's reach out
    reach = math.ceil(4 * sigma)
    x0, y0, x1, y1 = max(0, x - reach), max(0, y - reach), min(w, x + bw + reach), \
        min(h, y + bh + reach)
    box = mask[y0:y1, x0:x1]
    # reflected at the frame's edges as before; elsewhere the margin is empty hand
    shade = cv2.GaussianBlur(box.astype(np.float32) / 255, (0, 0), sigma)
    shaded = skin[None, None, :] * (0.75 + 0.25 * shade[:, :, None])  # rounder at the middle
    image[y0:y1, x0:x1][box > 0] = np.clip(shaded[box > 0], 0, 255).astype(np.uint8)
    image[sleeve > 0] = np.array(look.sleeve, np.uint8)
    return (mask > 0) | (sleeve > 0)


def _red_art(image: np.ndarray, geometry: Geometry, to_px: Callable[[float, float],
             tuple[int, int]], seed: int) -> None:
    """Red ink, as a printed map has: province borders, clan seals, names and hatching."""
    rng = random.Random(seed)
    width, height = geometry.board_mm
    inks = [(40, 40, 180), (70, 90, 200), (60, 50, 150)]  # red, vermilion, brick
    for _ in range(14):  # borders: long wavering lines
        points = [(rng.uniform(0, width), rng.uniform(0, height))]
        for _ in range(6):
            x, y = points[-1]
            points.append((min(width, max(0.0, x + rng.uniform(-80, 80))),
                           min(height, max(0.0, y + rng.uniform(-80, 80)))))
        cv2.polylines(image, [np.array([to_px(*p) for p in points], np.int32)], False,
                      rng.choice(inks), rng.choice([3, 5, 8]), cv2.LINE_AA)
    for _ in range(12):  # seals: filled stamps with a pale mark
        x, y = to_px(rng.uniform(0, width), rng.uniform(0, height))
        r = round(rng.uniform(6, 14) * PX_PER_MM)
        ink = rng.choice(inks)
        if rng.random() < 0.5:
            cv2.circle(image, (x, y), r, ink, -1, cv2.LINE_AA)
        else:
            cv2.rectangle(image, (x - r, y - r), (x + r, y + r), ink, -1)
        cv2.putText(image, rng.choice("KSTMO"), (x - r // 2, y + r // 2),
                    cv2.FONT_HERSHEY_SIMPLEX, r / 25, (200, 228, 236), 2, cv2.LINE_AA)
    for _ in range(10):  # names in red brush letters
        x, y = to_px(rng.uniform(0, width - 60), rng.uniform(20, height))
        cv2.putText(image, "".join(rng.choice("KANTOSEKIGAHR") for _ in range(5)), (x, y),
                    cv2.FONT_HERSHEY_TRIPLEX, 1.6, rng.choice(inks), 4, cv2.LINE_AA)
    for _ in range(4):  # hatched regions (sea, mountains) in thin red lines
        x0, y0 = rng.uniform(0, width - 120), rng.uniform(0, height - 80)
        for k in range(14):
            a = to_px(x0 + k * 8, y0)
            b = to_px(x0 + k * 8 + 40, y0 + 80)
            cv2.line(image, a, b, inks[1], 2, cv2.LINE_AA)


def _card(image: np.ndarray, centre: tuple[int, int], angle: float) -> None:
    """A playing card (63 x 88 mm) lying on the map: white edge, warm art, a portrait in skin
    tones and a red banner, as Sekigahara's cards are coloured."""
    w, h = round(63 * PX_PER_MM), round(88 * PX_PER_MM)
    card = np.full((h, w, 3), 245, np.uint8)
    cv2.rectangle(card, (12, 12), (w - 13, h - 13), (150, 185, 225), -1)  # warm parchment
    cv2.ellipse(card, (w // 2, h // 2 - 20), (w // 4, h // 5), 0, 0, 360, (120, 150, 215), -1)
    cv2.rectangle(card, (12, h - 90), (w - 13, h - 40), (60, 80, 200), -1)  # a red banner
    cv2.putText(card, "7", (30, 70), cv2.FONT_HERSHEY_SIMPLEX, 2.0, (30, 30, 30), 4)
    rotation = np.asarray(cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0), np.float64)
    rotation[:, 2] += np.array(centre, np.float64) - (w / 2, h / 2)
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.warpAffine(np.full((h, w), 255, np.uint8), rotation, (image.shape[1], image.shape[0]),
                   mask, flags=cv2.INTER_NEAREST, borderMode=cv2.BORDER_TRANSPARENT)
    drawn = cv2.warpAffine(card, rotation, (image.shape[1], image.shape[0]),
                           flags=cv2.INTER_LINEAR)
    image[mask > 0] = drawn[mask > 0]


def _optics(image: np.ndarray, look: Look, rng: np.random.Generator) -> np.ndarray:
    h, w = image.shape[:2]
    # At memory speed: two float frames reused, each step from one into the other or in place
    # (a fresh 144 MB array page-faults at every frame, OpenCV's filters run 6 times slower in
    # place), and row-wide factors (numpy's per-pixel broadcasts took most of a frame).
    result, spare = _scratch(image.shape, 0), _scratch(image.shape, 1)
    np.copyto(result, image)
    if look.light or look.warm:  # one factor per value of a row, for every row
        ramp = np.linspace(1 - look.light, 1 + look.light * 0.3, w, dtype=np.float32)
        # uneven light: brighter on one side; warm: a warm bulb with a daylight white balance
        tint = np.array([1 - 0.6 * look.warm, 1 - 0.35 * look.warm, 1.0], np.float32)
        rows = result.reshape(h, -1)
        rows *= (ramp[:, None] * tint[None, :]).ravel()  # each pixel's channels tinted alike
    if look.glare:  # drawn small and enlarged: a soft highlight needs no detail
        small = np.zeros((h // 8, w // 8), np.float32)
        at = (int(rng.integers(w // 32, 3 * w // 32)), int(rng.integers(h // 32, 3 * h // 32)))
        if look.glare_at is not None:
            at = (round(look.glare_at[0] * w / 8), round(look.glare_at[1] * h / 8))
        cv2.ellipse(small, at,
                    (w // 80, h // 112), 0, 0, 360, 1.0, -1)
        small = cv2.GaussianBlur(small, (0, 0), w / 320) * np.float32(255 * look.glare)
        glow = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
        np.add(result, glow[:, :, None], out=result)
    if look.spot is not None:  # a lamp's reflection: a saturated core in a soft halo
        yy, xx = np.ogrid[:h, :w]
        sx, sy, radius = look.spot[0] * w, look.spot[1] * h, look.spot[2] * h
        distance = np.sqrt((xx - sx) ** 2 + (yy - sy) ** 2, dtype=np.float32) / radius
        glow = np.clip(1.6 - distance * 0.8, 0, None) ** 2  # over 1 within the core
        glow *= 400
        np.add(result, glow[:, :, None], out=result)
    if look.defocus:
        result, spare = cv2.GaussianBlur(result, (0, 0), look.defocus, dst=spare), result
    if look.focus is not None:
        result = _depth_blur(result, look.focus)
    if look.motion:
        kernel = np.zeros((look.motion, look.motion), np.float32)
        kernel[look.motion // 2, :] = 1.0 / look.motion
        result, spare = cv2.filter2D(result, -1, kernel, dst=spare), result
    if look.noise:
        cv2.scaleAdd(_unit_noise(result.shape, rng), look.noise, result, dst=result)
    if look.gain:  # 1/gain of the light reaches the sensor; shot and read noise, amplified
        electrons = np.maximum(result, 0, out=result)  # a reflection saturates at any gain
        electrons *= 1 / look.gain
        sigma = np.multiply(electrons, 0.1, out=spare)
        sigma += 0.8 ** 2
        np.sqrt(sigma, out=sigma)  # the shot and read noise's sigma, in electrons
        sigma *= _unit_noise(result.shape, rng)
        electrons += sigma
        electrons *= look.gain
    np.clip(result, 0, 255, out=result)  # in place: a new array took a quarter of a frame
    return result.astype(np.uint8)


_NOISE_REACH = 4096
_noise_fields: dict[int, np.ndarray] = {}
_scratches: dict[tuple[int, ...], np.ndarray] = {}


def _scratch(shape: tuple[int, ...], slot: int = 0) -> np.ndarray:
    """This process's float frame number `slot` of `shape` for `_optics` to work in, in place
    (one size at a time)."""
    key = (*shape, slot)
    found = _scratches.get(key)
    if found is None:
        for old in [k for k in _scratches if k[:-1] != shape]:
            del _scratches[old]
        found = _scratches[key] = np.empty(shape, np.float32)
    return found


def _unit_noise(shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Standard normal noise of `shape`: a window, at an offset drawn from `rng`, of one field
    drawn once per process and frame size. Drawing 36 million normals took 0.2-0.3 s, a third of
    a 12 MP frame's making; a window keeps neighbouring pixels independent, and a pixel's noise
    changes from frame to frame as the window moves (the same only at the same offset: 1 in
    4096). The window is contiguous (OpenCV adds it at memory speed): the field is flat."""
    size = math.prod(shape)
    field = _noise_fields.get(size)
    if field is None:
        field = np.empty(size + _NOISE_REACH, np.float32)
        cv2.setRNGSeed(1)
        cv2.randn(field, np.zeros(1), np.ones(1))  # one channel: all iid
        _noise_fields.clear()  # one size at a time: a field is 150 MB at 12 MP
        _noise_fields[size] = field
    offset = int(rng.integers(_NOISE_REACH))
    return field[offset:offset + size].reshape(shape)


def _depth_blur(image: np.ndarray, focus: tuple[float, float, float, float],
                step: float = 0.5) -> np.ndarray:
    """`image` blurred by a Gaussian whose sigma varies over the frame (`Look.focus`): the
    frame blurred at sigmas `step` apart, each pixel blended from the two nearest (a blur
    that changes smoothly across the frame, as a defocus does)."""
    h, w = image.shape[:2]
    a, b, c, scale = focus
    sigma = (scale * np.abs(a * np.arange(w, dtype=np.float32)[None, :]
                            + b * np.arange(h, dtype=np.float32)[:, None] + c)).astype(np.float32)
    top = float(sigma.max())
    if top < 0.25:
        return image
    levels = np.arange(0.0, top + step, step)
    result = np.zeros_like(image)
    for level in levels:
        weight = np.clip(1 - np.abs(sigma - level) / step, 0, 1)
        rows, cols = np.nonzero(weight.any(axis=1))[0], np.nonzero(weight.any(axis=0))[0]
        if not len(rows):
            continue
        # only the band this sigma reaches (a tilted camera's blur changes along its rows),
        # with a margin of the kernel's reach so that the band's edges blur as the frame's
        reach = math.ceil(3 * level) + 1
        y0, y1 = max(0, rows[0] - reach), min(h, rows[-1] + 1 + reach)
        x0, x1 = max(0, cols[0] - reach), min(w, cols[-1] + 1 + reach)
        band = image[y0:y1, x0:x1]
        if level >= 0.25:
            band = cv2.GaussianBlur(band, (0, 0), float(level))
        ys, xs = slice(rows[0], rows[-1] + 1), slice(cols[0], cols[-1] + 1)
        result[ys, xs] += band[ys.start - y0:ys.stop - y0, xs.start - x0:xs.stop - x0] \
            * weight[ys, xs, None]
    return result


def random_camera(rng: random.Random, size: tuple[int, int], tilt: float = 0.06,
                  k1: float = 0.05) -> Camera:
    """A camera pose: the table's corners moved by up to `tilt` of the frame, some barrel."""
    return Camera(size, tuple(rng.uniform(-tilt, tilt) for _ in range(8)),  # type: ignore[arg-type]
                  rng.uniform(0, k1))
