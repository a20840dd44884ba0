"""Card codes read by the camera: pyzbar on the card scan area of the frame.

The area is cropped first (a full 12 MP frame takes far too long to decode), turned to grey,
and decoded; if nothing is found, a sharpened, thresholded and a few rotated copies are tried,
which rescues blurred and tilted labels. A code that cannot be a card code (longer than any,
blank or unprintable: a foreign QR code, a misread) is never a scan.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageFilter, ImageOps
from pyzbar import pyzbar

from companion.inputs.events import CardScanned, unusable_code

__all__ = ["CardArea", "decode_codes", "read_card"]


@dataclass(frozen=True)
class CardArea:
    """The card scan area in frame pixels: left, top, width, height."""

    left: int
    top: int
    width: int
    height: int


def _image(frame: np.ndarray | Image.Image) -> Image.Image:
    if isinstance(frame, Image.Image):
        return frame
    if frame.ndim == 3 and frame.shape[2] == 3:
        return Image.fromarray(frame[:, :, ::-1])  # OpenCV frames are BGR
    return Image.fromarray(frame)


def _attempts(grey: Image.Image) -> list[Image.Image]:
    sharp = grey.filter(ImageFilter.UnsharpMask(radius=2, percent=200, threshold=0))
    array = np.asarray(sharp)
    binary = Image.fromarray(((array > array.mean()) * 255).astype("uint8"))
    turned = [binary.rotate(angle, expand=True, fillcolor=255) for angle in (15, 30, 45, 60, 75)]
    return [grey, sharp, binary, *turned]


def decode_codes(frame: np.ndarray | Image.Image, area: CardArea | None = None) -> list[str]:
    """Every code readable in `area` of `frame` (the whole frame when no area is given)."""
    image = _image(frame)
    if area is not None:
        image = image.crop((area.left, area.top, area.left + area.width,
                            area.top + area.height))
    grey = ImageOps.grayscale(image)
    for attempt in _attempts(grey):
        found = pyzbar.decode(attempt)
        if found:
            return sorted({symbol.data.decode("utf-8", errors="replace") for symbol in found})
    return []


def read_card(frame: np.ndarray | Image.Image, area: CardArea,
              clock: Callable[[], float] = time.monotonic) -> CardScanned | None:
    """The card shown in the scan area, if exactly one code is readable there and it can be a
    card code (`events.unusable_code`)."""
    codes = decode_codes(frame, area)
    if len(codes) != 1 or unusable_code(codes[0]) is not None:
        return None
    return CardScanned(codes[0], "camera", clock())
