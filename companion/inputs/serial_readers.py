"""Card readers on a serial line (pyserial): RDM6300-style RFID frames and one-code-per-line.

RDM6300 (125 kHz) sends, at 9600 baud, while a tag stays on the antenna:
0x02, ten ASCII hex characters (version byte and 32-bit id), two ASCII hex characters (the XOR
of the five data bytes), 0x03. The parser resynchronises on garbage, keeps half frames until
the rest arrives, rejects bad checksums and the all-zero phantom id, and counts a card held on
the reader once: a repeat within `hold_gap` seconds of the last frame of the same card is the
same scan; a card lifted and put back is a new one.

No input kills a reader (issue 16): a bad frame or line is reported (`ReadProblem`) and skipped,
never half-read into a code; buffers, the repeat memory and the reports of a garbage run are
bounded, so megabytes of noise cost neither memory nor a flood of events; and if parsing one
chunk still fails unexpectedly, that chunk is reported and the reader reads on.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import serial

from companion.inputs.events import (
    MAX_CODE_LENGTH,
    CardScanned,
    InputEvent,
    ReadProblem,
    unusable_code,
)

__all__ = ["LineParser", "Rdm6300Parser", "SerialReader"]

log = logging.getLogger(__name__)
STX, ETX = 0x02, 0x03
FRAME = 14
REPORT_AFTER = 4096
"""Bytes of garbage (or of a line without its end) after which a reader says so once, without
waiting for the run to end: a reader set to the wrong line end would otherwise stay silent."""
_UPPER_HEX = re.compile(rb"[0-9A-F]{12}")
_ANY_HEX = re.compile(rb"[0-9A-Fa-f]{12}")
_NEXT_START = re.compile(rb"\x02(?!\x02)")
"""A frame start not followed by another: the body of a frame is hex, never STX, so in a run of
start bytes only the last can begin a frame (a flood of them is skipped at once)."""


def _problem(reader: str, clock: Callable[[], float], message: str) -> ReadProblem:
    log.warning("%s: %s", reader, message)
    return ReadProblem(reader, message, clock())


@dataclass
class Rdm6300Parser:
    reader: str = "rfid"
    hold_gap: float = 0.6
    clock: Callable[[], float] = time.monotonic
    remember: int = 256
    """Most cards kept for repeat suppression; a reader sends at most ~70 frames a second, so
    only a handful can fall within `hold_gap`."""
    _buffer: bytearray = field(default_factory=bytearray)
    _last: dict[str, float] = field(default_factory=dict)
    """Code -> time of its last frame, oldest first (entries past `hold_gap` are dropped)."""
    _skipped: int = 0
    _why: list[str] = field(default_factory=list)
    _warned: bool = False

    def feed(self, data: bytes) -> Iterator[InputEvent]:
        """Events for `data`; an empty read (the line went quiet) reports what was skipped."""
        if not data:
            yield from self._report_skipped()
            return
        self._buffer.extend(data)
        while True:
            start = self._buffer.find(STX)
            if start != 0:
                yield from self._skip(len(self._buffer) if start < 0 else start,
                                      "stray bytes outside a frame")
                if start < 0:
                    return
            if len(self._buffer) < FRAME:
                return  # half a frame: wait for the rest
            if self._buffer[FRAME - 1] != ETX:
                found = _NEXT_START.search(self._buffer, 1)
                yield from self._skip(found.start() if found else len(self._buffer),
                                      "a frame without its end byte")
                continue
            frame = bytes(self._buffer[:FRAME])
            del self._buffer[:FRAME]
            yield from self._report_skipped()
            yield from self._frame(frame)

    def reset(self) -> None:
        """Forget any half frame and skipped run (after a chunk could not be parsed)."""
        self._buffer.clear()
        self._skipped, self._why, self._warned = 0, [], False

    def _skip(self, count: int, why: str) -> Iterator[InputEvent]:
        """Drop `count` bytes, counted rather than reported one by one; a long run is said
        once while it lasts, and in full when it ends."""
        del self._buffer[:count]
        self._skipped += count
        if why not in self._why:
            self._why.append(why)
        if self._skipped >= REPORT_AFTER and not self._warned:
            self._warned = True
            yield self._problem(f"{self._skipped} bytes skipped so far ({'; '.join(self._why)})"
                                " and no frame yet")

    def _report_skipped(self) -> Iterator[InputEvent]:
        if self._skipped:
            yield self._problem(f"{self._skipped} byte(s) skipped: {'; '.join(self._why)}")
        self._skipped, self._why, self._warned = 0, [], False

    def _frame(self, frame: bytes) -> Iterator[InputEvent]:
        body = frame[1:13]
        text = body.decode("ascii", errors="replace")
        if not _UPPER_HEX.fullmatch(body):
            yield self._problem(
                f"a frame in lowercase hexadecimal: {text!r} (the reader sends capitals)"
                if _ANY_HEX.fullmatch(body) else f"a frame that is not hexadecimal: {text!r}")
            return
        data, checksum = bytes.fromhex(text[:10]), int(text[10:12], 16)
        computed = 0
        for byte in data:
            computed ^= byte
        if computed != checksum:
            yield self._problem(f"checksum {checksum:02X} where {computed:02X} was computed")
            return
        code = text[:10]
        if int(code, 16) == 0:
            yield self._problem("the all-zero phantom id")
            return
        now = self.clock()
        if self._is_new(code, now):
            yield CardScanned(code, self.reader, now)

    def _is_new(self, code: str, now: float) -> bool:
        """Whether this frame is a new scan, not the same card still on the antenna; keeps
        `_last` to the cards that can still repeat (within `hold_gap`, at most `remember`)."""
        last = self._last.pop(code, None)
        self._last[code] = now  # re-inserted: the dict stays ordered oldest first
        while len(self._last) > 1:
            oldest, at = next(iter(self._last.items()))
            if now - at <= self.hold_gap and len(self._last) <= self.remember:
                break
            del self._last[oldest]
        return last is None or now - last > self.hold_gap

    def _problem(self, message: str) -> ReadProblem:
        return _problem(self.reader, self.clock, message)


@dataclass
class LineParser:
    """One code per line (configurable terminator), as many USB serial readers send.

    A line longer than `max_length` is refused whole, however it is split into chunks: its
    bytes are counted, not kept, until its end, so no tail of it is ever taken for a code."""

    reader: str = "serial"
    terminator: bytes = b"\n"
    clock: Callable[[], float] = time.monotonic
    max_length: int = MAX_CODE_LENGTH
    _buffer: bytearray = field(default_factory=bytearray)
    _dropped: int = 0
    """Bytes of the current, over-long line thrown away so far."""
    _warned: bool = False

    def __post_init__(self) -> None:
        if not self.terminator:
            raise ValueError("a line reader needs a line end (terminator) to split codes")

    def feed(self, data: bytes) -> Iterator[InputEvent]:
        self._buffer.extend(data)
        while (end := self._buffer.find(self.terminator)) >= 0:
            raw = bytes(self._buffer[:end])
            del self._buffer[:end + len(self.terminator)]
            dropped, self._dropped, self._warned = self._dropped, 0, False
            if dropped:
                yield self._problem(f"a line of {dropped + len(raw)} characters is too long "
                                    "for a card code")
            else:
                yield from self._line(raw.strip(b"\r\n\t "))
        yield from self._bound()

    def reset(self) -> None:
        """Forget the line in progress (after a chunk could not be parsed)."""
        self._buffer.clear()
        self._dropped, self._warned = 0, False

    def _bound(self) -> Iterator[InputEvent]:
        """Once the line in progress cannot be a code any more, keep only what could be the
        start of its terminator and count the rest."""
        keep = len(self.terminator) - 1
        if len(self._buffer) <= keep + (0 if self._dropped else self.max_length):
            return
        cut = len(self._buffer) - keep
        self._dropped += cut
        del self._buffer[:cut]
        if self._dropped >= REPORT_AFTER and not self._warned:
            self._warned = True
            yield self._problem(f"{self._dropped} characters without a line end "
                                f"({self.terminator!r}): is the reader set to end lines so?")

    def _line(self, raw: bytes) -> Iterator[InputEvent]:
        if not raw:
            return
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            yield self._problem(f"a garbled line: {raw[:self.max_length]!r}")
            return
        reason = unusable_code(text, "line", self.max_length)
        if reason is not None:
            yield self._problem(reason)
            return
        yield CardScanned(text, self.reader, self.clock())

    def _problem(self, message: str) -> ReadProblem:
        return _problem(self.reader, self.clock, message)


@dataclass
class SerialReader:
    """Reads a serial port into a parser; reconnects with backoff when the reader is unplugged.

    `run` returns when `stop()` is called; every event goes to `emit`. `status` never claims
    "connected" for a reader that has stopped reading.
    """

    port: str
    parser: Rdm6300Parser | LineParser
    emit: Callable[[InputEvent], None]
    baudrate: int = 9600
    backoff: tuple[float, float] = (0.1, 5.0)
    status: str = "starting"
    _running: bool = True

    def stop(self) -> None:
        self._running = False

    def run(self) -> None:
        delay = self.backoff[0]
        while self._running:
            try:
                with serial.Serial(self.port, self.baudrate, timeout=0.1) as line:
                    self.status = "connected"
                    delay = self.backoff[0]
                    log.info("%s: reading %s", self.parser.reader, self.port)
                    self._read(line)
            except (serial.SerialException, OSError) as exc:
                if not self._running:
                    break
                self.status = f"disconnected: {exc}"
                log.debug("%s: %s unavailable (%s); retrying in %.1f s",  # said by the table
                            self.parser.reader, self.port, exc, delay)
                time.sleep(delay)
                delay = min(delay * 2, self.backoff[1])
            except Exception as exc:
                self.status = f"failed: {exc!r}"
                raise
        self.status = "stopped"

    def _read(self, line: serial.Serial) -> None:
        while self._running:
            data = line.read(64)
            for event in self._parse(data):
                self.emit(event)

    def _parse(self, data: bytes) -> list[InputEvent]:
        """The chunk's events. Whatever goes wrong parsing one chunk costs that chunk only:
        it is reported, the parser starts afresh, and the reader reads on."""
        events: list[InputEvent] = []
        try:
            events.extend(self.parser.feed(data))
        except Exception as exc:
            log.exception("%s: could not parse %d byte(s)", self.parser.reader, len(data))
            self.parser.reset()
            events.append(ReadProblem(
                self.parser.reader, f"{len(data)} byte(s) could not be read "
                f"({type(exc).__name__}: {exc}): skipped", time.monotonic()))
        return events
