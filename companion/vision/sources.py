"""Where frames come from, behind one small interface: `next_frame()` and a `status`.

A camera that disappears or returns empty frames gives a clear status and is retried with
backoff, quietly (the live table says once that the camera has stopped, not once per retry);
an unreadable image file is reported and skipped. Nothing here crashes the referee. `refusal`
says before a game starts why a source named cannot work at all.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

__all__ = ["CameraSource", "FrameSource", "ImageFolder", "PiCameraSource", "VideoFile",
           "pi_camera_model", "quiet_opencv", "source_refusal"]

log = logging.getLogger(__name__)


def quiet_opencv() -> None:
    """OpenCV's own warnings off (a camera retried prints one per try from its video
    back-end: "can't open camera by index"); the live table says what matters once."""
    setter = getattr(cv2, "setLogLevel", None)
    if callable(setter):
        setter(0)  # LOG_LEVEL_SILENT
    utils = getattr(cv2, "utils", None)
    logging_api = getattr(utils, "logging", None)
    if logging_api is not None:
        logging_api.setLogLevel(logging_api.LOG_LEVEL_SILENT)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")


class FrameSource:
    status: str = "starting"
    live: bool = False
    """A camera: a frame must come every few seconds and change now and then; a recording
    (a folder, a video) may wait for its next still and repeat a frame."""

    def stopped(self) -> str | None:
        """Why no frame comes, when that is a fault and not a wait (a video played out, a
        folder gone, a camera that does not open); None while all is well or waiting."""
        return None

    def next_frame(self) -> np.ndarray | None:
        """The next frame, or None when there is none (see `status` for why)."""
        raise RuntimeError(f"{type(self).__name__} reads no frames")

    def close(self) -> None:
        """Let the camera go, so that another program or the next source can open it; the
        next frame asked for opens it again. Nothing to do for a folder of stills."""


@dataclass
class ImageFolder(FrameSource):
    """Still images (JPEG, PNG) in name order: a recorded session, or a folder a capture
    program keeps adding numbered stills to (a timelapse). Once the images listed are read,
    the folder is listed again for images named after the last one read, so a growing folder
    is followed. A new image must appear whole (written elsewhere, then renamed into the
    folder, as capture tools do), or it is read half written and skipped as unreadable."""

    folder: Path
    _waiting: list[Path] = field(default_factory=list)
    """Images listed and not yet read, in name order."""
    _last: str = ""
    """The name of the last image read: only names after it are new."""
    _fault: str | None = None
    """The folder is gone, or emptied of the images it had (`stopped`)."""

    def stopped(self) -> str | None:
        return self._fault

    def next_frame(self) -> np.ndarray | None:
        if not self._waiting:
            listed = self._new_images()
            if listed is None:
                return None
            self._waiting = listed
        while self._waiting:
            path = self._waiting.pop(0)
            self._last = path.name
            frame = cv2.imread(str(path))
            if frame is None:
                self.status = f"unreadable image {path.name}: skipped"
                log.warning("%s", self.status)
                continue
            self.status = f"image {path.name}"
            return frame
        self.status = "no more images"
        return None

    def _new_images(self) -> list[Path] | None:
        """The images named after the last one read, in name order; None (and the status
        says why) when the folder cannot be listed."""
        try:
            images = [p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES]
        except OSError as exc:
            self.status = f"cannot list {self.folder}: {exc.strerror or exc}"
            self._fault = f"the folder {self.folder} is gone"
            self._last = ""  # made again, it is read from its first image
            return None
        if not images:
            if self._last:  # emptied: a folder that never had one is waiting for its first
                self._fault = f"the folder {self.folder} has no images left"
            self._last = ""
            return []
        self._fault = None
        return sorted((p for p in images if p.name > self._last), key=lambda p: p.name)


@dataclass
class VideoFile(FrameSource):
    path: Path
    _capture: cv2.VideoCapture | None = None

    def next_frame(self) -> np.ndarray | None:
        if self._capture is None:
            self._capture = cv2.VideoCapture(str(self.path))
            if not self._capture.isOpened():
                self.status = f"cannot open video {self.path}"
                return None
        ok, frame = self._capture.read()
        self.status = "playing" if ok else "end of video"
        return frame if ok else None

    def stopped(self) -> str | None:
        if self.status == "end of video":
            return f"the video {self.path} has ended"
        return self.status if self.status.startswith("cannot open") else None

    def close(self) -> None:
        """Let the file go (asked again, the video plays from its start)."""
        if self._capture is not None:
            self._capture.release()
            self._capture = None


@dataclass
class CameraSource(FrameSource):
    """A USB camera through OpenCV; reopened with backoff when it fails or goes dark."""

    live = True
    index: int | str = 0
    size: tuple[int, int] = (1920, 1080)
    backoff: tuple[float, float] = (0.5, 10.0)
    opener: Callable[..., Any] = cv2.VideoCapture
    sleep: Callable[[float], None] = time.sleep
    _capture: cv2.VideoCapture | None = None
    _delay: float = field(default=0.0)

    def next_frame(self) -> np.ndarray | None:
        if self._capture is None or not self._capture.isOpened():
            if self._delay:
                self.sleep(self._delay)
            self._capture = self.opener(self.index)
            if not self._capture.isOpened():
                self._failed(f"camera {self.index} not available")
                return None
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        ok, frame = self._capture.read()
        if not ok or frame is None or not frame.size:
            self._capture.release()
            self._capture = None
            self._failed(f"camera {self.index} returned no frame")
            return None
        self.status, self._delay = "live", 0.0
        return frame

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None

    def stopped(self) -> str | None:
        return None if self.status in ("live", "starting") else self.status

    def _failed(self, message: str) -> None:
        self._delay = min(max(self._delay * 2, self.backoff[0]), self.backoff[1])
        self.status = f"{message}; retrying in {self._delay:.1f} s"
        log.debug("%s", self.status)  # the live table says it once, not once per retry


def pi_camera_model() -> str | None:
    """The first Pi camera's sensor model as picamera2 names it (`imx708_wide` for the
    Camera Module 3 Wide), or None off a Pi or with no camera attached."""
    try:
        picamera2 = importlib.import_module("picamera2")
    except ImportError:
        return None
    cameras = picamera2.Picamera2.global_camera_info()
    return str(cameras[0].get("Model")) if cameras else None


@dataclass
class PiCameraSource(FrameSource):
    """The Raspberry Pi camera (picamera2, imported only on a Pi): full-resolution stills
    from the main stream, a small stream for watching for motion."""

    live = True
    still_size: tuple[int, int] = (4056, 3040)
    _camera: object | None = None

    def stopped(self) -> str | None:
        return None if self.status in ("live", "starting") else self.status

    def next_frame(self) -> np.ndarray | None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError:
            self.status = "picamera2 is not installed (it comes with Raspberry Pi OS)"
            return None
        try:
            if self._camera is None:
                camera = Picamera2()
                camera.configure(camera.create_still_configuration(
                    main={"size": self.still_size, "format": "BGR888"},
                    lores={"size": (640, 480)}))
                camera.start()
                self._camera = camera
            frame = self._camera.capture_array("main")  # type: ignore[attr-defined]
        except (RuntimeError, OSError) as exc:  # missing, busy or unplugged: try again later
            self._camera = None
            self.status = f"Pi camera unavailable ({exc}); retrying"
            log.debug("%s", self.status)
            return None
        self.status = "live"
        return np.asarray(frame)

    def close(self) -> None:
        camera, self._camera = self._camera, None
        for step in ("stop", "close"):  # picamera2: stop the stream, then free the camera
            action = getattr(camera, step, None)
            if callable(action):
                action()


def source_refusal(source: FrameSource, text: str) -> str | None:
    """Why `source` (named `text`: `folder:PATH`, `usb:0`, ...) cannot work at all, in one
    sentence: no such folder, file or device, a file that is no video, the Pi camera's
    library missing; None when it may. What `serve --camera` and the set-up page say before
    anyone waits for a picture that cannot come."""
    where = text.partition(":")[2].strip()
    folder = getattr(source, "folder", None)
    if isinstance(folder, Path):
        return None if folder.is_dir() else (
            f"{where} is not a folder" if folder.exists() else f"there is no folder {where}")
    if isinstance(source, VideoFile):
        if not source.path.is_file():
            return f"there is no video file {where}"
        return _opens(str(source.path), f"{where} is not a video that can be played")
    if isinstance(source, PiCameraSource):
        if importlib.util.find_spec("picamera2") is None:
            return ("the Pi camera's library (picamera2) is not installed: it comes with "
                    "Raspberry Pi OS (sudo apt install python3-picamera2)")
        return None
    if isinstance(source, CameraSource):
        device = Path(f"/dev/video{source.index}") if isinstance(source.index, int) \
            else Path(source.index)
        if Path("/dev").is_dir() and not device.exists():
            return f"there is no camera {device} (is it plugged in?)"
        return _opens(source.index, f"the camera {text} does not open (is another program "
                      "using it?)")
    return None


def _opens(what: int | str, refused: str) -> str | None:
    """None when OpenCV opens `what` (a camera or a video file), else `refused`."""
    quiet_opencv()
    capture = cv2.VideoCapture(what)
    try:
        return None if capture.isOpened() else refused
    finally:
        capture.release()
