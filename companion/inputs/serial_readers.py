"""Card readers on a serial line (pyserial): RDM6300-style RFID frames and one-code-per-line.

RDM6300 (125 kHz) sends, at 9600 baud, while a tag stays on the antenna:
0x02, ten ASCII hex characters (version byte and 32-bit id), two ASCII hex characters (the XOR
of the five data bytes), 0x03. The parser resynchronises on garbage, keeps half frames until
the rest arrives, rejects bad checksums and the all-zero phantom id, and counts a card held on
the reader once: a repeat within `hold_gap` seconds of the last frame of the same card is the
same scan; a card lifted and put back is a new one.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import serial

from companion.inputs.events import CardScanned, InputEvent, ReadProblem

__all__ = ["LineParser", "Rdm6300Parser", "SerialReader"]

log = logging.getLogger(__name__)
STX, ETX = 0x02, 0x03
FRAME = 14


@dataclass
class Rdm6300Parser:
    reader: str = "rfid"
    hold_gap: float = 0.6
    clock: Callable[[], float] = time.monotonic
    _buffer: bytearray = field(default_factory=bytearray)
    _last: dict[str, float] = field(default_factory=dict)

    def feed(self, data: bytes) -> Iterator[InputEvent]:
        self._buffer.extend(data)
        while True:
            start = self._buffer.find(STX)
            if start < 0:
                if self._buffer:
                    yield self._problem(f"{len(self._buffer)} stray byte(s) outside a frame")
                self._buffer.clear()
                return
            if start > 0:
                yield self._problem(f"{start} stray byte(s) before a frame")
                del self._buffer[:start]
            if len(self._buffer) < FRAME:
                return  # half a frame: wait for the rest
            frame = bytes(self._buffer[:FRAME])
            if frame[-1] != ETX:
                yield self._problem("a frame without its end byte: skipped")
                del self._buffer[:1]
                continue
            del self._buffer[:FRAME]
            yield from self._frame(frame)

    def _frame(self, frame: bytes) -> Iterator[InputEvent]:
        text = frame[1:13].decode("ascii", errors="replace")
        try:
            data = bytes.fromhex(text[:10])
            checksum = int(text[10:12], 16)
        except ValueError:
            yield self._problem(f"a frame that is not hexadecimal: {text!r}")
            return
        computed = 0
        for byte in data:
            computed ^= byte
        if computed != checksum:
            yield self._problem(f"checksum {checksum:02X} where {computed:02X} was computed")
            return
        code = text[:10].upper()
        if int(code, 16) == 0:
            yield self._problem("the all-zero phantom id")
            return
        now = self.clock()
        last = self._last.get(code)
        self._last[code] = now
        if last is None or now - last > self.hold_gap:
            yield CardScanned(code, self.reader, now)

    def _problem(self, message: str) -> ReadProblem:
        log.warning("%s: %s", self.reader, message)
        return ReadProblem(self.reader, message, self.clock())


@dataclass
class LineParser:
    """One code per line (configurable terminator), as many USB serial readers send."""

    reader: str = "serial"
    terminator: bytes = b"\n"
    clock: Callable[[], float] = time.monotonic
    max_length: int = 64
    _buffer: bytearray = field(default_factory=bytearray)

    def feed(self, data: bytes) -> Iterator[InputEvent]:
        self._buffer.extend(data)
        while (end := self._buffer.find(self.terminator)) >= 0:
            raw = bytes(self._buffer[:end])
            del self._buffer[:end + len(self.terminator)]
            yield from self._line(raw.strip(b"\r\n\t "))
        if len(self._buffer) > self.max_length:
            yield self._problem(f"{len(self._buffer)} bytes without a line end: dropped")
            self._buffer.clear()

    def _line(self, raw: bytes) -> Iterator[InputEvent]:
        if not raw:
            return
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            yield self._problem(f"a garbled line: {raw!r}")
            return
        if not text.isprintable() or len(text) > self.max_length:
            yield self._problem(f"a garbled line: {raw!r}")
            return
        yield CardScanned(text, self.reader, self.clock())

    def _problem(self, message: str) -> ReadProblem:
        log.warning("%s: %s", self.reader, message)
        return ReadProblem(self.reader, message, self.clock())


@dataclass
class SerialReader:
    """Reads a serial port into a parser; reconnects with backoff when the reader is unplugged.

    `run` returns when `stop()` is called; every event goes to `emit`.
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
                log.warning("%s: %s unavailable (%s); retrying in %.1f s",
                            self.parser.reader, self.port, exc, delay)
                time.sleep(delay)
                delay = min(delay * 2, self.backoff[1])
        self.status = "stopped"

    def _read(self, line: serial.Serial) -> None:
        while self._running:
            data = line.read(64)
            for event in self.parser.feed(data):
                self.emit(event)
