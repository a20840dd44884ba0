"""USB keyboard-wedge scanners (barcode or RFID) read with evdev, grabbed exclusively.

A wedge "types" each code followed by Enter. Read through evdev with an exclusive grab, the
keystrokes never reach another window. Key codes become characters through a keyboard layout
(the scanner types as if on a US, German or Italian keyboard).

A code is refused whole when it is longer than any card code (its keys are counted, not kept,
until Enter), blank or unprintable: a wedge left typing never grows memory or yields a tail.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from evdev import ecodes

from companion.inputs.events import (
    MAX_CODE_LENGTH,
    CardScanned,
    InputEvent,
    ReadProblem,
    unusable_code,
)

__all__ = ["LAYOUTS", "WedgeParser", "open_device", "read_device"]

_DIGITS = {getattr(ecodes, f"KEY_{d}"): d for d in "0123456789"}
_LETTERS = {getattr(ecodes, f"KEY_{c}"): c.lower() for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}
_US = {**_DIGITS, **_LETTERS, ecodes.KEY_MINUS: "-", ecodes.KEY_DOT: ".",
       ecodes.KEY_SLASH: "/", ecodes.KEY_SPACE: " "}
_US_SHIFT = {**{k: v.upper() for k, v in _LETTERS.items()}, ecodes.KEY_MINUS: "_",
             ecodes.KEY_SEMICOLON: ":"}
LAYOUTS: dict[str, tuple[dict[int, str], dict[int, str]]] = {
    "us": (_US, _US_SHIFT),
    # German: Y and Z swapped; '-' on the slash key, '_' shifted; ':' is shift+dot.
    "de": ({**_US, ecodes.KEY_Y: "z", ecodes.KEY_Z: "y", ecodes.KEY_SLASH: "-",
            ecodes.KEY_MINUS: "ß"},
           {**_US_SHIFT, ecodes.KEY_Y: "Z", ecodes.KEY_Z: "Y", ecodes.KEY_SLASH: "_",
            ecodes.KEY_DOT: ":"}),
    # Italian: '-' on the slash key, '_' shifted; ':' is shift+dot.
    "it": ({**_US, ecodes.KEY_SLASH: "-", ecodes.KEY_MINUS: "'"},
           {**_US_SHIFT, ecodes.KEY_SLASH: "_", ecodes.KEY_DOT: ":"}),
}
_SHIFTS = {ecodes.KEY_LEFTSHIFT, ecodes.KEY_RIGHTSHIFT}
_DOWN, _UP = 1, 0


@dataclass
class WedgeParser:
    """Turns key events (type, code, value) into scanned codes, one per Enter."""

    layout: str = "us"
    reader: str = "scanner"
    clock: Callable[[], float] = time.monotonic
    max_length: int = MAX_CODE_LENGTH
    _typed: list[str] = field(default_factory=list)
    _dropped: int = 0
    """Characters typed past `max_length` in the current code: counted, not kept."""
    _shift: bool = False

    def feed(self, events: Iterable[tuple[int, int, int]]) -> Iterator[InputEvent]:
        plain, shifted = LAYOUTS[self.layout]
        for kind, code, value in events:
            if kind != ecodes.EV_KEY:
                continue
            if code in _SHIFTS:
                self._shift = value != _UP
                continue
            if value != _DOWN:
                continue  # key up and autorepeat
            if code in (ecodes.KEY_ENTER, ecodes.KEY_KPENTER):
                yield from self._enter()
                continue
            char = (shifted if self._shift else plain).get(code)
            if char is None:
                yield ReadProblem(self.reader, f"key {ecodes.KEY.get(code, code)} is not part "
                                  f"of a code in the {self.layout} layout", self.clock())
                self._typed.clear()
                self._dropped = 0
                continue
            if len(self._typed) < self.max_length:
                self._typed.append(char)
            else:
                self._dropped += 1

    def _enter(self) -> Iterator[InputEvent]:
        """The code typed since the last Enter, or why it cannot be one."""
        typed, dropped = "".join(self._typed), self._dropped
        self._typed.clear()
        self._dropped = 0
        if not typed:
            return
        code = typed.strip()
        reason = (f"a code of {len(typed) + dropped} characters is too long for a card code"
                  if dropped else unusable_code(code, longest=self.max_length))
        if reason is not None:
            yield ReadProblem(self.reader, reason, self.clock())
            return
        yield CardScanned(code, self.reader, self.clock())


def open_device(path: str) -> Any:
    """The scanner's evdev input device (`/dev/input/event*`, or a stable udev symlink)."""
    from evdev import InputDevice

    return InputDevice(path)


def read_device(device: Any, parser: WedgeParser, emit: Callable[[InputEvent], None]) -> None:
    """Read a scanner's input device with an exclusive grab until it disappears."""
    device.grab()  # the scans go to us only, never into another window
    try:
        for event in device.read_loop():
            for found in parser.feed([(event.type, event.code, event.value)]):
                emit(found)
    finally:
        device.ungrab()
