"""The camera's live preview for the set-up page: each frame with the calibration drawn on it.

`companion calibrate` places the board from one frame and saves an overlay to look at after.
Mounting a camera is easier when that check is live: the set-up page shows every frame, made
small, with the corner markers found (green) and missing (red), the board's outline and zones
projected from the fit, and the fit in millimetres, so the person on the ladder sees at once
whether the whole mat is in view. Pure vision and threads: no web framework here.

Everything is bounded: frames are taken at most `fps` times a second whoever asks (viewers
share the last one), a failing camera is retried at most every `retry` seconds, stills larger
than `MAX_FILE_BYTES` or `MAX_PIXELS` are skipped, and the preview is at most `width` wide.
"""

from __future__ import annotations

import contextlib
import logging
import re
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.vision.detect import TagDetector, TagRead
from companion.vision.geometry import Geometry
from companion.vision.sources import (
    CameraSource,
    FrameSource,
    PiCameraSource,
    VideoFile,
    quiet_opencv,
    source_refusal,
)
from companion.vision.table import BoardNotFound, Calibration, calibrate

__all__ = ["CornerCheck", "LivePreview", "LoopingFolder", "LoopingVideo", "PreviewFrame",
           "SourceRefused", "check_corners", "draw_preview", "preview_source", "release", "to_jpeg",
           "with_caption"]

log = logging.getLogger(__name__)

PREVIEW_WIDTH = 960
"""Pixels across a preview frame: enough to see every marker on a tablet, small to send."""
MAX_PIXELS = 50_000_000
"""Pixels a still may have (a 12 MP camera's are 12.3 million): larger ones are skipped."""
MAX_FILE_BYTES = 64 * 1024 * 1024
"""Bytes a still may have before it is even read."""
MAX_FILES = 10_000
"""Stills a folder source lists (in name order): a folder holding more is read in part."""
MAX_SOURCE = 300
"""Characters of a source's text (`folder:PATH` the longest)."""
GREEN, RED, AMBER = (60, 200, 60), (40, 40, 230), (0, 170, 240)
BLUE, WHITE, YELLOW = (255, 140, 30), (255, 255, 255), (0, 220, 255)


@dataclass(frozen=True)
class CornerCheck:
    """What one frame says about the board's corner markers: which were found, and the board's
    pose from them when there are enough (else `problem` says why not)."""

    expected: tuple[int, ...]
    found: dict[int, np.ndarray]
    """Corner marker id -> its four corners in frame pixels."""
    calibration: Calibration | None
    problem: str
    reads: tuple[TagRead, ...] = ()
    other_board: str = ""
    """The board whose corner markers are seen instead (another game's mat), if any."""

    @property
    def missing(self) -> tuple[int, ...]:
        return tuple(tag for tag in self.expected if tag not in self.found)

    def summary(self) -> dict[str, object]:
        """The check as plain data (the page writes its sentence from it)."""
        fit = self.calibration.error_mm if self.calibration is not None else None
        return {"corners_seen": len(self.found), "corners_total": len(self.expected),
                "missing": list(self.missing), "placed": self.calibration is not None,
                "fit_mm": round(fit, 2) if fit is not None else None, "problem": self.problem,
                "other_board": self.other_board}


def check_corners(geometry: Geometry, frame: np.ndarray, detector: TagDetector | None = None,
                  boards: Mapping[str, Geometry] | None = None) -> CornerCheck:
    """Find the corner markers in `frame` and place the board from them if there are enough;
    a frame where the board cannot be placed gives a check with its `problem`, not an error.
    `boards`: every board by the name a person knows it by (`geometry`'s among them), so
    that another board's corner markers (each board has its own ids) are named as such."""
    reads = tuple((detector or TagDetector()).detect(frame))
    found = {read.id: read.corners for read in reads if read.id in geometry.corners}
    try:
        placed: Calibration | None = calibrate(geometry, list(reads))
        problem = ""
    except BoardNotFound as exc:
        placed, problem = None, str(exc)
    other, chosen = _other_board(geometry, {read.id for read in reads}, boards or {})
    if placed is None and other:
        problem = (f"these corners are {other}'s mat, not {chosen}'s: choose {other} as the "
                   f"board, or put {chosen}'s mat under the camera")
    return CornerCheck(tuple(sorted(geometry.corners)), found, placed, problem, reads,
                       other if placed is None else "")


def _other_board(geometry: Geometry, seen: set[int],
                 boards: Mapping[str, Geometry]) -> tuple[str, str]:
    """The board (its name in `boards`) whose corner markers are seen rather than
    `geometry`'s ("" when none is), and `geometry`'s own name."""
    chosen = next((name for name, board in boards.items() if board.game == geometry.game),
                  geometry.game)
    count, other = max(((len(seen & set(board.corners)), name) for name, board in boards.items()
                        if board.game != geometry.game), default=(0, ""))
    if count < 2 or count <= len(seen & set(geometry.corners)):
        return "", chosen
    return other, chosen


def draw_preview(geometry: Geometry, frame: np.ndarray, check: CornerCheck,
                 width: int = PREVIEW_WIDTH) -> np.ndarray:
    """`frame` made at most `width` wide, with the check drawn on it: zones and the board's
    outline projected from the fit, corner markers found in green, missing ones in red where
    the fit says they should be, other tags in yellow."""
    scale = min(1.0, width / frame.shape[1])
    image = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) \
        if scale < 1.0 else frame.copy()
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    thick = max(1, round(image.shape[1] / 480))
    if check.calibration is not None:
        to_image = _board_to_image(check.calibration, scale)
        _draw_zones(image, geometry, to_image, thick)
        _draw_missing(image, geometry, check, to_image, thick)
    for read in check.reads:
        colour = GREEN if read.id in check.found else YELLOW
        points = (read.corners * scale).astype(np.int32)
        cv2.polylines(image, [points], True, colour,
                      thick * 2 if colour == GREEN else max(1, thick // 2), cv2.LINE_AA)
        if read.id in check.found:
            _label(image, str(read.id), points.min(axis=0), GREEN)
    return image


def _board_to_image(calibration: Calibration, scale: float) -> Callable[[np.ndarray], np.ndarray]:
    """Board millimetres -> preview pixels, for many points at once."""
    inverse = np.linalg.inv(calibration.to_board)

    def project(points: np.ndarray) -> np.ndarray:
        mapped = cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float32), inverse)
        return (mapped.reshape(-1, 2) * scale).astype(np.int32)
    return project


def _draw_zones(image: np.ndarray, geometry: Geometry,
                project: Callable[[np.ndarray], np.ndarray], thick: int) -> None:
    width, height = geometry.board_mm
    outline = np.array([(0, 0), (width, 0), (width, height), (0, height)], np.float32)
    cv2.polylines(image, [project(outline)], True, WHITE, thick * 2, cv2.LINE_AA)
    circle = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    for zone in geometry.zones:
        if zone.rect is not None:
            x, y, w, h = zone.rect
            points = np.array([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], np.float32)
        else:
            assert zone.radius is not None
            points = np.stack([zone.center[0] + zone.radius * np.cos(circle),
                               zone.center[1] + zone.radius * np.sin(circle)], axis=1)
        cv2.polylines(image, [project(points)], True, BLUE, max(1, thick // 2), cv2.LINE_AA)


def _draw_missing(image: np.ndarray, geometry: Geometry, check: CornerCheck,
                  project: Callable[[np.ndarray], np.ndarray], thick: int) -> None:
    """Where each missing corner marker should be, from the fit of the others."""
    half = geometry.corner_size_mm / 2
    for tag in check.missing:
        cx, cy = geometry.corners[tag]
        square = np.array([(cx - half, cy - half), (cx + half, cy - half),
                           (cx + half, cy + half), (cx - half, cy + half)], np.float32)
        points = project(square)
        cv2.polylines(image, [points], True, RED, thick * 2, cv2.LINE_AA)
        cv2.line(image, tuple(points[0]), tuple(points[2]), RED, thick * 2, cv2.LINE_AA)
        cv2.line(image, tuple(points[1]), tuple(points[3]), RED, thick * 2, cv2.LINE_AA)
        _label(image, str(tag), points.min(axis=0), RED)


def _label(image: np.ndarray, text: str, where: np.ndarray, colour: tuple[int, int, int]) -> None:
    x = int(np.clip(where[0], 0, image.shape[1] - 30))
    y = int(np.clip(where[1] - 6, 16, image.shape[0] - 4))
    cv2.putText(image, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 4, cv2.LINE_AA)
    cv2.putText(image, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2, cv2.LINE_AA)


def with_caption(image: np.ndarray, text: str, good: bool | None) -> np.ndarray:
    """A copy of `image` with `text` in a band along its top: green when the board is placed
    from every corner, amber when placed from fewer, red when it cannot be placed. OpenCV's
    fonts draw ASCII only: accents are dropped ("è" -> "e")."""
    out = image.copy()
    band = max(28, image.shape[0] // 18)
    colour = GREEN if good else AMBER if good is None else RED
    cv2.rectangle(out, (0, 0), (out.shape[1], band), (25, 25, 25), -1)
    cv2.rectangle(out, (0, band - 4), (out.shape[1], band), colour, -1)
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    size = band / 44
    cv2.putText(out, plain, (10, int(band * 0.68)), cv2.FONT_HERSHEY_SIMPLEX, size, WHITE,
                max(1, round(size * 2)), cv2.LINE_AA)
    return out


def to_jpeg(image: np.ndarray, quality: int = 75) -> bytes:
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("the preview frame could not be encoded as JPEG")
    return bytes(encoded.tobytes())


# --- sources -------------------------------------------------------------------------------------


@dataclass
class LoopingFolder(FrameSource):
    """Stills (JPEG, PNG) in name order, starting again after the last: a folder stands for a
    camera that keeps showing the table. Oversized files are skipped, with the reason."""

    folder: Path
    _files: Iterator[Path] | None = None

    def next_frame(self) -> np.ndarray | None:
        for _ in range(2):  # to the end of the list, then once more from the start
            if self._files is None:
                self._files = iter(self._list())
            for path in self._files:
                frame = self._read(path)
                if frame is not None:
                    return frame
            self._files = None
        if not self.status.startswith("skipped"):
            self.status = f"no images (JPEG, PNG) in folder {self.folder}"
        return None

    def _list(self) -> list[Path]:
        try:
            names = sorted(p for p in self.folder.iterdir()
                           if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
        except OSError as exc:
            self.status = f"folder {self.folder} cannot be read ({exc.strerror})"
            return []
        return names[:MAX_FILES]

    def _read(self, path: Path) -> np.ndarray | None:
        try:
            size = path.stat().st_size
        except OSError:
            return None  # gone since it was listed
        if size > MAX_FILE_BYTES:
            self.status = f"skipped {path.name}: {size // 1_048_576} MB is larger than a still"
            return None
        frame = cv2.imread(str(path))
        if frame is None or frame.shape[0] * frame.shape[1] > MAX_PIXELS:
            self.status = f"skipped {path.name}: not an image this preview reads"
            return None
        self.status = f"image {path.name}"
        return frame


class SourceRefused(ValueError):
    """A source named rightly that cannot work (no such folder, file or device): the page
    shows why, and shows it until another source is tried."""


@dataclass
class LoopingVideo(VideoFile):
    """A recorded video, played again from its start after its last frame: it stands for a
    camera that keeps showing the table, as a looping folder does."""

    def next_frame(self) -> np.ndarray | None:
        frame = super().next_frame()
        if frame is None and self.status == "end of video":
            self.close()
            frame = super().next_frame()
        return frame


def preview_source(text: str, retry: float = 2.0) -> FrameSource:
    """The frame source a camera's text names, as `companion serve --camera` takes it (`pi`,
    `usb:0`, `usb:/dev/video0`, `folder:PATH`, `video:PATH`); ValueError naming what is wrong
    with any other text, or why the source named cannot work (no such folder, file or device:
    `sources.source_refusal`). A USB camera that fails is retried by the preview (every
    `retry` s), never slept on."""
    text = text.strip()
    if len(text) > MAX_SOURCE:
        raise ValueError(f"a camera's name has at most {MAX_SOURCE} characters")
    kind, _, where = text.partition(":")
    source: FrameSource | None = None
    if kind == "pi" and not where:
        source = PiCameraSource()
    elif kind == "usb" and re.fullmatch(r"\d{1,3}", where or "0"):
        source = CameraSource(int(where or 0), backoff=(retry, retry), sleep=_no_wait)
    elif kind == "usb" and re.fullmatch(r"/[\w./-]+", where) and ".." not in where:
        source = CameraSource(where, backoff=(retry, retry), sleep=_no_wait)
    elif kind == "folder" and where:
        source = LoopingFolder(Path(where).expanduser())
    elif kind == "video" and where:
        source = LoopingVideo(Path(where).expanduser())
    if source is None:
        raise ValueError(f"unknown camera {text!r}: use pi, usb:0, usb:/dev/video0, "
                         "folder:PATH or video:PATH")
    refused = source_refusal(source, f"{kind}:{Path(where).expanduser()}" if where else text)
    if refused is not None:
        raise SourceRefused(f"camera {text}: {refused}")
    return source


def _no_wait(_seconds: float) -> None:
    """The preview paces its own retries: a request never sleeps in the camera."""


def release(source: FrameSource | None) -> None:
    """Let a camera go (another program, or the next source, may then open it)."""
    if source is not None:
        source.close()


# --- the live preview ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PreviewFrame:
    """The last frame taken, drawn; or why there is none (`problem`)."""

    number: int
    source: str
    status: str
    image: np.ndarray | None = None
    """The preview (at most PREVIEW_WIDTH wide) with the check drawn, without its caption."""
    frame: np.ndarray | None = field(default=None, repr=False)
    """The frame as the camera gave it: what Save calibration places the board from."""
    check: CornerCheck | None = None
    problem: str = ""


class LivePreview:
    """One camera's preview, shared by every viewer of the set-up page: a frame is taken when
    asked for and the last is older than 1/fps seconds, one request at a time."""

    def __init__(self, source: str, geometry: Geometry, fps: float = 2.0,
                 width: int = PREVIEW_WIDTH, retry: float = 2.0, wait: float = 5.0,
                 boards: Mapping[str, Geometry] | None = None) -> None:
        self.fps, self.width, self.retry, self.wait = fps, width, retry, wait
        self.detector = TagDetector()
        self.boards: Mapping[str, Geometry] = boards or {}
        """Every board by its game's title: another board's corner markers are named."""
        self._lock = threading.Lock()
        self._source_text, self._geometry = "", geometry
        self._source: FrameSource | None = None
        self._refused = ""
        """Why the last source tried cannot work (the preview shows that, not an old one's)."""
        self._last = PreviewFrame(0, "", "starting", problem="no frame yet")
        self._taken = -1e9
        quiet_opencv()  # a camera retried: no OpenCV warning per try
        with contextlib.suppress(SourceRefused):  # shown as the preview's problem
            self.switch(source, geometry)

    @property
    def source(self) -> str:
        return self._source_text

    def switch(self, source: str | None = None, geometry: Geometry | None = None) -> None:
        """Show another camera or another game's board; ValueError for a camera text that
        names none or a source that cannot work: the preview then shows that refusal (the
        last source tried), never the picture or the trouble of the one before."""
        refused: ValueError | None = None
        try:
            chosen = preview_source(source, self.retry) if source is not None else None
        except ValueError as exc:
            chosen, refused = None, exc
        with self._locked():
            if source is not None:
                release(self._source)
                self._source, self._source_text = chosen, source.strip()[:MAX_SOURCE]
                self._refused = str(refused or "")
                self._last = PreviewFrame(self._last.number, self._source_text,
                                          "refused" if refused else "starting",
                                          problem=self._refused or "no frame yet")
            if geometry is not None:
                self._geometry = geometry
            self._taken = -1e9  # the next request takes a fresh frame
        if refused is not None:
            raise refused

    def latest(self) -> PreviewFrame:
        """The newest frame, taken now if the last is old enough; while another request is
        taking one (or the camera hangs) for `wait` seconds, the last frame there was."""
        if not self._lock.acquire(timeout=self.wait):
            return self._last
        try:
            pause = 1 / self.fps if self._last.problem == "" else self.retry
            if time.monotonic() - self._taken >= pause:
                self._last = self._take()
                self._taken = time.monotonic()
            return self._last
        finally:
            self._lock.release()

    def close(self) -> None:
        with self._locked():
            release(self._source)
            self._source = None

    def _take(self) -> PreviewFrame:
        number, text = self._last.number + 1, self._source_text
        if self._source is None and self._refused:  # asked again: plugged in since?
            try:
                self._source, self._refused = preview_source(text, self.retry), ""
            except ValueError as exc:
                self._refused = str(exc)
        if self._source is None:  # refused, or a request still running as the page shuts
            return PreviewFrame(number, text, "refused" if self._refused else "closed",
                                problem=self._refused or "the preview is closed")
        try:
            frame = self._source.next_frame()
        except (OSError, RuntimeError, cv2.error) as exc:  # a driver's own failure
            log.warning("camera %s: %s", text, exc)
            return PreviewFrame(number, text, "failed", problem=f"camera {text}: {exc}")
        status = self._source.status
        if frame is None or not frame.size:
            return PreviewFrame(number, text, status, problem=f"camera {text}: {status}")
        check = check_corners(self._geometry, frame, self.detector, self.boards)
        image = draw_preview(self._geometry, frame, check, self.width)
        return PreviewFrame(number, text, status, image, frame, check)

    def _locked(self) -> _Held:
        return _Held(self._lock, self.wait)


class _Held:
    """The preview's lock for a change, waiting at most `wait` seconds for a frame being
    taken (a camera that hangs must not hang the page's other requests)."""

    def __init__(self, lock: threading.Lock, wait: float) -> None:
        self.lock, self.wait = lock, wait

    def __enter__(self) -> None:
        if not self.lock.acquire(timeout=self.wait):
            raise TimeoutError("the camera is busy taking a frame: try again")

    def __exit__(self, *_: object) -> None:
        self.lock.release()
