"""The live table on `companion serve`: a thread that watches the camera, listens to the card
reader and the buttons, and hands everything to the table session.

This is the application layer: it joins the web hub, the generic table session and the game's
own table parts (its `table` capability), so that neither the web nor the table session
imports the other, and neither names a game.

Where frames come from is named by a short text (`--camera`): `usb:0` (or a device path) for
a USB camera, `pi` for the Raspberry Pi camera, `folder:PATH` for stills in a folder
(recorded, or added as they are taken: the folder is followed) or `video:PATH` for a
recorded video. A source that cannot work at all is refused before a game starts (`refusal`).
A camera that fails is retried with backoff by its source, quietly; the loop watches it
(`companion.vision.watch`): a camera that stops (no frame for a few seconds, a video played
out, a folder gone, black or frozen frames) is said once on every screen, in the terminal and
in the record, and once again when it is back, and the table is read again before it is
trusted. A card reader unplugged is said the same way. Nothing of it stops the server.
Card readers run in their own threads (pyserial) and buttons come from gpiozero; both feed
one queue, read between frames, so the session sees every input in order and never two at once.
"""

from __future__ import annotations

import logging
import queue
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from companion.games import game
from companion.inputs.events import CardScanned, InputEvent
from companion.inputs.gpio import Pins, TableHardware
from companion.inputs.serial_readers import LineParser, Rdm6300Parser, SerialReader
from companion.table import TableRegistry, TableSetup
from companion.table.session import TableSession
from companion.table.setcheck import SetCheck
from companion.vision.sources import (
    CameraSource,
    FrameSource,
    ImageFolder,
    PiCameraSource,
    VideoFile,
    quiet_opencv,
    source_refusal,
)
from companion.vision.watch import CameraWatch
from companion.web.hub import Hub

if TYPE_CHECKING:
    import numpy as np

__all__ = ["LiveTable", "TableOptions", "frame_source", "refusal"]

log = logging.getLogger(__name__)

IDLE_WAIT = 0.5
"""Seconds to wait when the source has no frame (a recorded folder at its end, a camera
being retried) before asking again."""


@dataclass(frozen=True)
class TableOptions:
    camera: str
    """Where frames come from: usb:INDEX_OR_DEVICE, pi, folder:PATH, video:PATH."""
    reader: str | None = None
    """The card reader's serial device (e.g. /dev/rfid)."""
    reader_protocol: str = "rdm6300"
    """rdm6300 (125 kHz RFID frames) or line (one code per line)."""
    gpio: bool = False
    """Buttons, lights and buzzer on the Pi's GPIO (pins: `companion.inputs.gpio.pins_file`)."""
    registry: TableRegistry | None = None
    """The physical set's tags and card codes; None: tags in kit order (the simulated set)."""


def frame_source(text: str) -> FrameSource:
    """The frame source a `--camera` text names; a clear error for anything else."""
    kind, _, where = text.partition(":")
    if kind == "usb":
        return CameraSource(int(where) if where.isdigit() else (where or 0))
    if kind == "pi":
        return PiCameraSource()
    if kind == "folder" and where:
        return ImageFolder(Path(where))
    if kind == "video" and where:
        return VideoFile(Path(where))
    raise ValueError(f"unknown camera {text!r}: use usb:0, usb:/dev/video0, pi, "
                     "folder:PATH or video:PATH")


def refusal(text: str) -> str | None:
    """Why the source `text` names cannot work at all, in one sentence (no such folder,
    file or device; the Pi camera's library missing), or None. Asked before a game starts, so
    that nobody waits for moves that are never read; ValueError for a text that names no
    source."""
    return source_refusal(frame_source(text), text)


def say(line: str) -> None:
    """One line in the terminal `serve` runs in (stderr, as its warnings are)."""
    print(line, file=sys.stderr, flush=True)


CAMERA = "camera"
READER = "card reader"
READER_SECONDS = 3.0
"""Seconds a card reader may be away (a loose plug) before every screen says so."""


@dataclass
class LiveTable:
    """The table loop for one hub (started in the web server's process)."""

    hub: Hub
    options: TableOptions
    source: FrameSource | None = None
    events: queue.Queue[InputEvent] = field(default_factory=queue.Queue)
    session: TableSession | None = None
    _stop: threading.Event = field(default_factory=threading.Event)
    _readers: list[SerialReader] = field(default_factory=list)
    _thread: threading.Thread | None = None
    _status: str = ""
    _seen_version: tuple[int, bool] = (-1, False)
    watch: CameraWatch | None = None
    """Whether the camera delivers frames that can be read (made with the source)."""
    say: Callable[[str], None] = say
    """Where the one line of a camera or reader stopped (and back) goes: the terminal."""
    _reader_away: float | None = None
    """Since when (monotonic) the card reader has been unplugged."""

    def start(self) -> threading.Thread:
        rules = self.hub.session.game.rules
        build = game(rules.game_type.name).need_table()  # MissingCapability: said plainly
        parts = build(rules, TableSetup(registry=self.options.registry))
        hardware = TableHardware(Pins.load(), self.events.put) if self.options.gpio else None
        self.session = TableSession(self.hub, parts, hardware)
        self.session.resume()  # a table out of order before a restart still is
        self.source = self.source or frame_source(self.options.camera)
        quiet_opencv()  # a camera retried: no OpenCV warning per try
        self.watch = self.watch or CameraWatch(live=self.source.live)
        if self.options.reader:
            self._start_reader(self.options.reader)
        self.hub.inputs_to = self.events.put  # codes typed on the tablet, as a scanner's
        registry = parts.referee.registry  # the set check reads the same set as the referee
        self.hub.new_set_check = lambda: SetCheck(registry, rules.piece_name)
        self.hub.card_owner = self.session.card_owner  # a phone types only its own side's
        self._thread = threading.Thread(target=self.run, name="table", daemon=True)
        self._thread.start()
        return self._thread

    def _start_reader(self, port: str) -> None:
        parser = (Rdm6300Parser() if self.options.reader_protocol == "rdm6300"
                  else LineParser(reader="card reader"))
        reader = SerialReader(port, parser, self.events.put)
        self._readers.append(reader)
        threading.Thread(target=reader.run, name="card reader", daemon=True).start()

    def stop(self) -> None:
        """Stop the loop and the readers, and let go of the lights and buttons."""
        self._stop.set()
        for reader in self._readers:
            reader.stop()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self.source is not None:
            self.source.close()  # the camera is free for the next serve or calibrate
        if self.session is not None and self.session.hardware is not None:
            self.session.hardware.close()

    def _check_pass(self, check: SetCheck) -> None:
        """The set check runs: the reader's codes and the tags in the next frame go to it,
        not to the game (the table is being set up, not played)."""
        assert self.source is not None and self.session is not None
        changed = False
        while not self.events.empty():
            event = self.events.get_nowait()
            if isinstance(event, CardScanned):
                check.scanned(event.code)
                changed = True
        frame = self._watched(self.source.next_frame())
        detector = getattr(self.session.parts.reader, "detector", None)
        if frame is not None and detector is not None:
            changed = check.saw(read.id for read in detector.detect(frame)) or changed
        elif frame is None:
            self._stop.wait(IDLE_WAIT)
        if changed:
            self.hub.set_check_changed()

    def run(self) -> None:
        """Until stopped: one pass after another. Nothing that goes wrong in a pass stops
        the table: it is logged (by kind, never with a hidden piece's name) and the next
        pass starts; the record is only ever written whole."""
        while not self._stop.is_set():
            try:
                self._pass()
            except Exception as exc:
                log.error("the table loop: %s: %s", type(exc).__name__, exc)
                self._stop.wait(IDLE_WAIT)

    def _pass(self) -> None:
        """Inputs first (they are quick and in order), then what the tablet changed, then
        one frame."""
        assert self.session is not None and self.source is not None
        if self.hub.set_check is not None:
            self._check_pass(self.hub.set_check)
            return
        while not self.events.empty():
            self.session.on_input(self.events.get_nowait())
            self.session.settle()
        if (self.hub.version, self.hub.paused) != self._seen_version:
            self.session.recheck()  # an action entered or undone on the tablet, a pause over
            self.session.settle()
            self._seen_version = (self.hub.version, self.hub.paused)
        self._watch_readers()
        frame = self._watched(self.source.next_frame())
        if self.source.status != self._status:
            self._status = self.source.status
            log.info("camera: %s", self._status)
        if frame is None:
            self._stop.wait(IDLE_WAIT)
            return
        self.session.on_frame(frame)
        self.session.settle()
        self._seen_version = (self.hub.version, self.hub.paused)

    def _watched(self, frame: np.ndarray | None) -> np.ndarray | None:
        """The frame if it can be read, else None; a camera that stops or comes back is said
        once on every screen, in the terminal and the record; back, the table is read again
        before it is trusted (the session's desync check)."""
        assert self.watch is not None and self.source is not None and self.session is not None
        was = self.watch.down
        usable = self.watch.see(frame, self.source.stopped())
        if self.watch.down != was:
            self._device(CAMERA, self.watch.down)
            if self.watch.down is None:
                self.session.camera_back()
        return usable

    def _watch_readers(self) -> None:
        """A card reader unplugged for `READER_SECONDS` is said as a camera stopped is."""
        away = next((r.status for r in self._readers if r.status.startswith("disconnected")),
                    None)
        now = self.watch.clock() if self.watch is not None else 0.0
        if away is None:
            if self._reader_away is not None and self.hub.devices.get(READER):
                self._device(READER, None)
            self._reader_away = None
            return
        self._reader_away = self._reader_away if self._reader_away is not None else now
        if now - self._reader_away >= READER_SECONDS and not self.hub.devices.get(READER):
            self._device(READER, away)

    def _device(self, device: str, down: str | None) -> None:
        """Every screen, the terminal (one line) and the record hear that `device` stopped
        (`down` says why) or is back (None)."""
        self.hub.device_stopped(device, down)
        self.say(f"{device} stopped: {down}; nothing it shows is read until it is back"
                 if down is not None else f"{device} back: reading again")
