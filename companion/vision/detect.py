"""Tag detection, AprilTag 36h11 by default.

Two ways. `detect_plain` runs OpenCV's ArUco detector on the whole frame at full resolution:
the reference. `detect` is ours, in two stages, and several times faster on a 12 MP still:

1. Candidates: the frame is reduced by a power of two (pixel averaging, so noise drops and
   small tags keep their shape), thresholded once (one adaptive window, not ArUco's four) and
   its outer contours that are convex quadrilaterals of a plausible size are kept.
2. Decoding at full resolution: each candidate's corners are refined with `cornerSubPix` in a
   small crop of the full frame, the crop is warped to the tag's cell grid and the bits are
   matched against every code of the dictionary in every rotation at once (XOR and bit count).
3. A second chance (issue #19; `second_chance`, on by default): when the frame is not sharp,
   candidates are also looked for with a wider threshold window, and every candidate of a
   tag's size that stage 2 could not read is read against a blur model (`decode.SecondChance`:
   corners by edge fitting, the blur measured on the tag, every code's blurred image compared
   by correlation, a large margin to the next code required). On a sharp frame (every clear
   read decided with a wide margin, at least `size_reads` of them) no wider search is made,
   and only a candidate of a tag's size that stage 2 could not read costs anything.
4. A light model (issue #33; `light_model`, on by default), tried before the blur model on
   each candidate stage 2 could not read: real photographs lose small, oblique and unevenly
   lit tags at decoding too, where the contour's corners lie a pixel inside the edge and one
   threshold cannot split a tag in a light gradient. The quad is grown to the edge (and its
   edges fitted), and each cell is compared, as AprilTag 3 compares it, with the level
   halfway between a light gradient fitted to the white margin and one fitted to the black
   border. On the 26 real photographs of issue #33 this took the reader from 63 to 71 of
   the 71 tags (AprilTag 3: 71), with no wrong id (docs/vision.md, Real photographs).

Why not ArUco on the reduced frame: in OpenCV 5 a candidate that is not a tag costs about a
millisecond (its identification compares it with every code), and a board full of squares,
boxes and letters gives dozens; and below about 3 pixels per cell ArUco cannot read the bits at
all, so the reduction could not go as far. Here a candidate that is not a tag costs a few
microseconds, and the bits are always read at full resolution.

Each read keeps quality fields computed from the full-resolution pixels: the hamming distance
between the bits read and the code of the id, and a decision margin (the contrast between the
darkest white cell and the lightest black cell), so weak reads can be filtered.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.decode import DecodeConfig, SecondChance, refine_edges

__all__ = ["DetectorConfig", "TagDetector", "TagRead", "to_grey"]


@dataclass(frozen=True)
class DetectorConfig:
    dictionary: int = cv2.aruco.DICT_APRILTAG_36h11
    max_side: int = 2048
    """`detect` looks for candidates on a copy halved until its longer side is at most this
    (a 12 MP still: once, to 2028 px, where a 14 mm tag is still about 21 px wide)."""
    adaptive_window: tuple[int, int, int] = (5, 35, 10)
    """The reference's adaptive threshold window sizes (min, max, step), in pixels."""
    candidate_window: int = 7
    """`detect`'s one adaptive threshold window, in pixels of the reduced copy (odd). Wider
    windows join a tag to its block's edge; narrower ones break blurred borders."""
    candidate_constant: float = 7.0
    """How much darker than its window's mean a pixel must be to count as dark (ArUco's)."""
    min_perimeter_rate: float = 0.008
    """Smallest marker perimeter, as a fraction of the frame's longer side."""
    max_perimeter_rate: float = 4.0
    """`detect` skips larger quadrilaterals: a tag may fill the frame's height (a close-up, a
    phone held over a piece: issue #33's real photographs, where a 0.5 lost every tag more
    than an eighth of the frame wide). Boxes and the board that pass cost one decode each."""
    polygon_accuracy: float = 0.03
    """Largest distance of a contour from its quadrilateral, as a fraction of its perimeter."""
    corner_refinement: int = cv2.aruco.CORNER_REFINE_SUBPIX
    aruco3: bool = False
    """OpenCV's ArUco3 fast mode (detects on a pyramid level): off, since it misses small tags."""
    max_hamming: int = 3
    """Reads further from their id's code are dropped (36h11 codes differ in 11 bits or more)."""
    max_border_errors: int = 2
    """Border cells (always black on a tag) that may read white before a candidate is no tag:
    a few for glare and blur; more would let patterns that merely resemble a tag through."""
    min_margin: float = 0.05
    """Reads whose darkest white cell is not lighter than their lightest black are dropped."""
    second_window: int = 21
    """With `second_chance`, candidates are also looked for with this wider window (reduced
    copy's pixels), less `second_constant`: a long streak of motion blur greys a tag's one-cell
    border where it meets white cells, and the narrow window then sees no square."""
    second_constant: float = 5.0
    sharp_margin: float = 0.8
    """The wider window is skipped when every clear read (at least `size_reads` of them) has
    at least this decision margin: a sharp frame (measured: sharp 0.98 and over; a cell of
    motion blur 0.5, two cells or hard defocus 0.1). One blurred tag, a block moving, is
    enough to look again."""
    second_max_hamming: int = 8
    """A read of the second chance rests on the whole image, not on bits: its bits read back
    from the deblurred cells (which blur leaves uncertain: 8 is measured on tags blurred by
    two cells) may differ from its code in at most this many cells; `max_hamming` does not
    bound it (it counts bits the first pass read). Lower this to drop damaged tags (a sharp
    tag's bits read back exactly)."""
    size_reads: int = 5
    """With at least this many clear reads in a frame, the second chance reads only
    candidates from three quarters of the smallest read's size to a third over the largest's
    (a table's tags are printed at one or two sizes, seen from above): most squares that are
    no tag (letters, circles, boxes) are skipped before any work."""
    second_min_cell: float = 2.1
    """The second chance reads no candidate with fewer pixels a cell than this (a tag of
    36h11 is 8 cells wide): below it no blur model tells the cells apart."""
    second_chance: bool = True
    """Candidates the hard-decision read gives up on are read again against a blur model
    (`decode.SecondChance`): motion blur and defocus lose tags at decoding, not at search."""
    light_model: bool = True
    """Candidates the first read gives up on are read again the way AprilTag 3 reads bits
    (issue #33: small, oblique and unevenly lit tags in real photographs): the quad grown
    half a pixel a side (a contour of dark pixels lies inside the edge) and its edges fitted,
    each cell compared with the halfway level of a light gradient fitted to the white margin
    and one to the black border (not one threshold for the tag), the cells sharpened as
    AprilTag 3 does; at most `light_max_hamming` bits off its code."""
    light_max_hamming: int = 2
    """AprilTag 3's own bound (36h11 codes are 11 bits apart): this read rests on a fitted
    model, so it is held tighter than `max_hamming` (and never looser). Its margin is the
    fitted contrast, held to `min_margin` as well."""
    light_min_cell: float = 1.25
    """The light-model read looks at candidates down to this many pixels a cell (a 10 px
    tag): AprilTag 3 reads them there."""
    light_min_contrast: float = 15.0
    """Grey levels between the fitted white and black at the tag's middle, at least."""
    light_sharpening: float = 0.25
    """Each cell plus this times its difference from its four neighbours (AprilTag 3's
    `decode_sharpening`): a blurred isolated cell regains its side of the threshold."""


@dataclass(frozen=True)
class TagRead:
    id: int
    corners: np.ndarray
    """4x2 float array, top-left, top-right, bottom-right, bottom-left, in frame pixels."""
    hamming: int
    """Bits that differ from the id's code (a read of the second chance: the bits read back
    from the deblurred cells, which blur leaves uncertain; its id rests on the whole image)."""
    margin: float
    """Darkest white cell minus lightest black cell, as a fraction of 255 (a read of the
    second chance: the fitted white level minus black level, since a blurred cell is grey)."""

    @property
    def center(self) -> tuple[float, float]:
        x, y = self.corners.mean(axis=0)
        return float(x), float(y)

    @property
    def trusted(self) -> bool:
        return self.hamming >= 0


_CELL = 4
"""Pixels per cell in the warped tag: the middle 2x2 of each cell is averaged, so a corner a
pixel off still samples the right cell."""


class TagDetector:
    def __init__(self, config: DetectorConfig | None = None) -> None:
        self.config = config or DetectorConfig()
        c = self.config
        self.dictionary = cv2.aruco.getPredefinedDictionary(c.dictionary)
        params = cv2.aruco.DetectorParameters()
        params.adaptiveThreshWinSizeMin, params.adaptiveThreshWinSizeMax, \
            params.adaptiveThreshWinSizeStep = c.adaptive_window
        params.minMarkerPerimeterRate = c.min_perimeter_rate
        params.cornerRefinementMethod = c.corner_refinement
        params.useAruco3Detection = c.aruco3
        self._detector = cv2.aruco.ArucoDetector(self.dictionary, params)
        self._cells = self.dictionary.markerSize + 2
        self._weights, self._codes = _code_table(self.dictionary)
        self._second = SecondChance(self.dictionary, DecodeConfig(
            max_hamming=c.second_max_hamming)) if c.second_chance else None

    def detect_plain(self, frame: np.ndarray) -> list[TagRead]:
        """The reference: the detector on the full frame."""
        grey = to_grey(frame)
        corners, ids, _ = self._detector.detectMarkers(grey)
        return self._reads(grey, corners, ids)

    def detect(self, frame: np.ndarray) -> list[TagRead]:
        """Candidates on a reduced copy, each decoded at full resolution; one read per id
        (the clearest, should a tag be found twice)."""
        best: dict[int, TagRead] = {}
        missed = []
        for quad in self.candidates(frame):
            read = self._decode(frame, quad)
            if read is None:
                missed.append(quad)
            elif read.id not in best or best[read.id].margin < read.margin:
                best[read.id] = read
        c = self.config
        if self._second is not None:
            # a second chance, after every clear read (those come first): candidates of a
            # wider window where nothing was read (the same quad as one missed is not decoded
            # twice), then every candidate left against the light model and the blur model
            margins = [r.margin for r in best.values()]
            sharp = len(margins) >= c.size_reads and min(margins) >= c.sharp_margin
            for quad in [] if sharp else self.candidates(frame, c.second_window,
                                                          c.second_constant):
                if _near(quad, [r.corners for r in best.values()]) or _same(quad, missed):
                    continue
                read = self._decode(frame, quad)
                if read is None:
                    missed.append(quad)
                elif read.id not in best:
                    best[read.id] = read
        sides = [_side(r.corners) for r in best.values()]
        low, high = (0.75 * min(sides), 1.33 * max(sides)) if len(sides) >= c.size_reads \
            else (0.0, np.inf)
        for quad in missed:
            side = _side(quad)
            if not low < side < high or _near(quad, [r.corners for r in best.values()]):
                continue  # tags come in a few sizes on a table: letters and boxes in others
            read = None
            if c.light_model and side > c.light_min_cell * self._cells:
                read = self._light_read(frame, quad)
            if read is None and self._second is not None \
                    and side > c.second_min_cell * self._cells:
                read = self._second_read(frame, quad)
            if read is not None and read.id not in best:
                best[read.id] = read
        return list(best.values())

    def _crop(self, frame: np.ndarray, quad: np.ndarray, pad: int) \
            -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The grey crop around `quad` with `pad` pixels about it, the quad in the crop's
        pixels (clockwise on screen) and the crop's top-left in the frame."""
        height, width = frame.shape[:2]
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - pad
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + pad
        x0, y0, x1, y1 = max(int(x0), 0), max(int(y0), 0), min(int(x1), width), \
            min(int(y1), height)
        local = (quad - np.array([x0, y0], np.float32)).astype(np.float32)
        if _clockwise(local) < 0:
            local = np.ascontiguousarray(local[::-1])
        return to_grey(frame[y0:y1, x0:x1]), local, np.array([x0, y0], np.float32)

    def _light_read(self, frame: np.ndarray, quad: np.ndarray) -> TagRead | None:
        """A candidate the first read gave up on, read against fitted light levels
        (`DetectorConfig.light_model`): the quad grown to the edge, then its fitted edges."""
        reduction = 2 ** self._halvings(max(frame.shape[:2]))
        grow = 0.5 * reduction + 0.5  # the contour's pixels lie inside the edge
        crop, local, origin = self._crop(frame, quad, int(_side(quad) / 4) + 2 * reduction + 6)
        centre = local.mean(axis=0)
        radius = float(np.linalg.norm(local - centre, axis=1).mean())
        grown = (centre + (local - centre) * (1 + grow / max(radius, 1.0))).astype(np.float32)
        refined = refine_edges(crop, grown, self._cells)
        for tried in (grown, refined):
            read = None if tried is None else self._light_cells(crop, tried)
            if read is not None and tried is not None:
                tag, rotation, hamming, margin = read
                corners = np.roll(tried + origin, rotation, axis=0)
                return TagRead(tag, corners.astype(np.float32), hamming, margin)
        return None

    def _light_cells(self, grey: np.ndarray, quad: np.ndarray) \
            -> tuple[int, int, int, float] | None:
        """(id, rotation, hamming, contrast) of the tag in `quad` read as AprilTag 3 reads
        bits: a light gradient fitted to the white margin (one cell outside the border) and
        one to the black border, each cell (sharpened) against the level halfway between."""
        c = self.config
        n = self._cells + 2  # one cell of the white margin around the tag
        side = n * _CELL
        target = np.array([[_CELL, _CELL], [side - _CELL, _CELL], [side - _CELL, side - _CELL],
                           [_CELL, side - _CELL]], np.float32)
        warp = cv2.warpPerspective(grey, cv2.getPerspectiveTransform(quad, target),
                                   (side, side), borderMode=cv2.BORDER_REPLICATE)
        cells = warp.reshape(n, _CELL, n, _CELL)[:, 1:-1, :, 1:-1].mean(axis=(1, 3))
        white, black = (_plane(cells, _RINGS[n][k]) for k in (0, 1))
        level = (white + black) / 2
        contrast = float((white - black)[2:-2, 2:-2].mean())
        if contrast < max(c.light_min_contrast, 255 * c.min_margin):
            return None
        border = _RINGS[n][1]
        if int((cells[border] > level[border]).sum()) > c.max_border_errors:
            return None
        data = cells[2:-2, 2:-2] + c.light_sharpening * (
            4 * cells[2:-2, 2:-2] - cells[1:-3, 2:-2] - cells[3:-1, 2:-2]
            - cells[2:-2, 1:-3] - cells[2:-2, 3:-1])
        bits = data > level[2:-2, 2:-2]
        code = np.uint64((bits.reshape(-1).astype(np.uint64) * self._weights).sum())
        distances = np.bitwise_count(self._codes ^ code)
        tag, rotation = np.unravel_index(int(distances.argmin()), distances.shape)
        hamming = int(distances[tag, rotation])
        if hamming > min(c.light_max_hamming, c.max_hamming):
            return None
        return int(tag), int(rotation), hamming, contrast / 255.0

    def _second_read(self, frame: np.ndarray, quad: np.ndarray) -> TagRead | None:
        """A candidate the hard-decision read gave up on, read against a blur model."""
        if self._second is None:
            return None
        height, width = frame.shape[:2]
        side = float(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1).max())
        pad = int(side * 0.5) + 4  # the sticker margin and the blur's reach
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - pad
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + pad
        x0, y0, x1, y1 = max(int(x0), 0), max(int(y0), 0), min(int(x1), width), \
            min(int(y1), height)
        crop = to_grey(frame[y0:y1, x0:x1])
        local = (quad - np.array([x0, y0], np.float32)).astype(np.float32)
        if _clockwise(local) < 0:
            local = np.ascontiguousarray(local[::-1])
        found = self._second.decode(crop, local)
        if found is None:
            return None
        corners = np.roll(found.corners + np.array([x0, y0], np.float32), found.rotation, axis=0)
        if found.contrast < self.config.min_margin:
            return None
        return TagRead(found.tag, corners.astype(np.float32), found.hamming, found.contrast)

    def candidates(self, frame: np.ndarray, window: int | None = None,
                   constant: float | None = None) -> list[np.ndarray]:
        """Convex quadrilaterals that may be tags, as 4x2 arrays in full-frame pixels
        (`window` and `constant`: the adaptive threshold's, else the configuration's)."""
        c = self.config
        grey = to_grey(frame)
        width = grey.shape[1]
        for _ in range(self._halvings(max(grey.shape))):
            grey = cv2.resize(grey, (grey.shape[1] // 2, grey.shape[0] // 2),
                              interpolation=cv2.INTER_AREA)
        scale = width / grey.shape[1]
        binary = cv2.adaptiveThreshold(grey, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                       cv2.THRESH_BINARY_INV, window or c.candidate_window,
                                       c.candidate_constant if constant is None else constant)
        # Outer contours only: the hole inside a tag's black border is a quadrilateral too,
        # but never a tag. A tag inside a block's dark rim is its own outer contour.
        contours, hierarchy = cv2.findContours(binary, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
        if hierarchy is None:
            return []
        longest = max(grey.shape)
        low, high = c.min_perimeter_rate * longest, c.max_perimeter_rate * longest
        small_h, small_w = grey.shape
        quads = []
        for contour, links in zip(contours, hierarchy[0], strict=True):
            if links[3] >= 0 or not low <= len(contour) <= high:
                continue
            approx = cv2.approxPolyDP(contour, c.polygon_accuracy * len(contour), True)
            if len(approx) != 4 or not cv2.isContourConvex(approx):
                continue
            quad = approx.reshape(4, 2).astype(np.float32)
            shortest = float(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1).min())
            if shortest < max(3.0, 0.05 * len(contour)):
                continue
            if quad.min() < 2 or quad[:, 0].max() > small_w - 3 \
                    or quad[:, 1].max() > small_h - 3:
                continue  # cut by the frame's edge: its far cells are not there to read
            quads.append((quad + 0.5) * scale - 0.5)
        return quads

    def _halvings(self, longest: int) -> int:
        """How many times `candidates` halves a frame whose longer side is `longest`."""
        count = 0
        while longest > self.config.max_side:
            longest //= 2
            count += 1
        return count

    def _decode(self, frame: np.ndarray, quad: np.ndarray) -> TagRead | None:
        """The tag a candidate shows, read at full resolution, or None.

        The reduced copy's corners are a reduced pixel or so off. A small refinement window
        keeps to the tag's own corner on small tags (a wide one is pulled onto the data
        cells); a wide one reaches a corner that is further off. The small one goes first.
        """
        height, width = frame.shape[:2]
        reduction = 2 ** self._halvings(max(height, width))
        windows = (reduction + 1, reduction + 3)
        pad = windows[-1] + 6
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - pad
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + pad
        x0, y0, x1, y1 = max(int(x0), 0), max(int(y0), 0), min(int(x1), width), \
            min(int(y1), height)
        crop = to_grey(frame[y0:y1, x0:x1])
        local = (quad - np.array([x0, y0], np.float32)).astype(np.float32)
        if _clockwise(local) < 0:  # the cell grid is laid out clockwise (in image axes)
            local = np.ascontiguousarray(local[::-1])
        criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
        for window in windows:
            refined = cv2.cornerSubPix(crop, local.reshape(-1, 1, 2).copy(), (window, window),
                                       (-1, -1), criteria).reshape(4, 2)
            read = self._read_cells(crop, refined)
            if read is not None:
                tag, rotation, hamming, margin = read
                corners = np.roll(refined + np.array([x0, y0], np.float32), rotation, axis=0)
                return TagRead(tag, corners.astype(np.float32), hamming, margin)
        return None

    def _read_cells(self, grey: np.ndarray, quad: np.ndarray) \
            -> tuple[int, int, int, float] | None:
        """(id, rotation, hamming, margin) of the tag inside `quad`, if it is a good read."""
        cells = self._cell_means(grey, quad)
        inner = cells[1:-1, 1:-1]
        threshold = (inner.max() + inner.min()) / 2
        border = np.concatenate([cells[0], cells[-1], cells[1:-1, 0], cells[1:-1, -1]])
        if int((border > threshold).sum()) > self.config.max_border_errors:
            return None
        bits = inner > threshold
        if bits.all() or not bits.any():
            return None
        code = np.uint64((bits.reshape(-1).astype(np.uint64) * self._weights).sum())
        distances = np.bitwise_count(self._codes ^ code)
        tag, rotation = np.unravel_index(int(distances.argmin()), distances.shape)
        hamming = int(distances[tag, rotation])
        margin = float(inner[bits].min() - inner[~bits].max()) / 255.0
        if hamming > self.config.max_hamming or margin < self.config.min_margin:
            return None
        return int(tag), int(rotation), hamming, margin

    def _reads(self, grey: np.ndarray, corners: object, ids: np.ndarray | None) -> list[TagRead]:
        if ids is None:
            return []
        reads = []
        for quad, tag in zip(corners, ids.flatten(), strict=True):  # type: ignore[call-overload]
            quad = np.asarray(quad, dtype=np.float32).reshape(4, 2)
            hamming, margin = self._quality(grey, quad, int(tag))
            if hamming <= self.config.max_hamming and margin >= self.config.min_margin:
                reads.append(TagRead(int(tag), quad, hamming, margin))
        return reads

    def _cell_means(self, grey: np.ndarray, quad: np.ndarray) -> np.ndarray:
        """The mean grey of each cell of the tag (border included), from the middle of each."""
        side = self._cells * _CELL
        target = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32)
        warp = cv2.warpPerspective(grey, cv2.getPerspectiveTransform(quad, target),
                                   (side, side))
        cells: np.ndarray = warp.reshape(self._cells, _CELL, self._cells, _CELL)[
            :, 1:-1, :, 1:-1].mean(axis=(1, 3))
        return cells

    def _quality(self, grey: np.ndarray, quad: np.ndarray, tag: int) -> tuple[int, float]:
        """Hamming distance of the bits read to the id's code, and the decision margin."""
        inner = self._cell_means(grey, quad)[1:-1, 1:-1]
        threshold = (inner.max() + inner.min()) / 2
        bits = (inner > threshold).astype(np.uint8)
        white, black = inner[bits == 1], inner[bits == 0]
        if not len(white) or not len(black):
            return 99, 0.0
        margin = float(white.min() - black.max()) / 255.0
        distance = int(self.dictionary.getDistanceToId(bits, tag, True))
        return distance, margin


def _side(quad: np.ndarray) -> float:
    """A quad's mean side, in pixels."""
    return float(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1).mean())


def _same(quad: np.ndarray, others: list[np.ndarray], within: float = 1.5) -> bool:
    """Whether another quad has every corner within `within` pixels of `quad`'s (in any
    order of corners: a quad found again by a wider window)."""
    if not others:
        return False
    mine = quad[None, :, None, :]
    theirs = np.array(others)[:, None, :, :]
    apart = np.linalg.norm(theirs - mine, axis=3).min(axis=2)  # each corner's nearest
    return bool((apart.max(axis=1) <= within).any())


def _plane(cells: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """A plane (a + b x + c y) fitted to the cells under `mask`, over the whole grid."""
    ys, xs = np.mgrid[0:cells.shape[0], 0:cells.shape[1]].astype(np.float64)
    basis = np.stack([np.ones(int(mask.sum())), xs[mask], ys[mask]], axis=1)
    coef = np.linalg.lstsq(basis, cells[mask].astype(np.float64), rcond=None)[0]
    plane: np.ndarray = coef[0] + coef[1] * xs + coef[2] * ys
    return plane


def _rings(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The outer ring of an n x n grid of cells and the ring inside it, as masks."""
    ys, xs = np.mgrid[0:n, 0:n]
    depth = np.minimum(np.minimum(ys, xs), np.minimum(n - 1 - ys, n - 1 - xs))
    return depth == 0, depth == 1


_RINGS = {n: _rings(n) for n in range(6, 16)}
"""The white margin's and the black border's cells, by grid size (a dictionary's tag plus
its margin: 36h11 is 10 cells)."""


def _near(quad: np.ndarray, others: list[np.ndarray]) -> bool:
    """Whether `quad`'s centre lies within a quarter of its side of another quad's centre."""
    if not others:
        return False
    side = float(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1).mean())
    centres = np.array(others).mean(axis=1)  # one reduction: a frame asks this hundreds of times
    return bool((np.linalg.norm(centres - quad.mean(axis=0), axis=1) < 0.25 * side).any())


def _code_table(dictionary: cv2.aruco.Dictionary) -> tuple[np.ndarray, np.ndarray]:
    """Bit weights, and every id's code in each of the four rotations as a 64-bit integer
    (ids x 4): reading a tag is then one XOR and a bit count against the whole table, where
    OpenCV's `identify` takes about a millisecond to reject a pattern that is no tag."""
    size = dictionary.markerSize
    weights = np.left_shift(np.uint64(1), np.arange(size * size, dtype=np.uint64))
    codes = np.zeros((len(dictionary.bytesList), 4), np.uint64)
    for tag in range(len(dictionary.bytesList)):
        bits = dictionary.getBitsFromByteList(dictionary.bytesList[tag:tag + 1], size)
        for turn in range(4):
            codes[tag, turn] = (np.rot90(bits, turn).reshape(-1).astype(np.uint64)
                                * weights).sum()
    return weights, codes


def _clockwise(quad: np.ndarray) -> float:
    """Positive when the quad's corners go clockwise on screen (image y points down)."""
    (ax, ay), (bx, by), (cx, cy) = quad[0], quad[1], quad[2]
    return float((bx - ax) * (cy - ay) - (by - ay) * (cx - ax))


def to_grey(frame: np.ndarray) -> np.ndarray:
    """A frame in grey (a grey frame as it is): what detection and the lens board read."""
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
