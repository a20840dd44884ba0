"""The simulated table (`companion demo`): a whole Sekigahara game played at a table that
exists only in pixels, refereed by the real pipeline.

The simulator plays a random game (the script). A simulated player acts each scripted action
out at the table (`referee.script.act_out`): blocks are carried by a hand and put down in tidy
stacks (`vision.layout`), photographed by the synthetic camera frame by frame; cards are
scanned through a card reader on a pseudo-terminal; buttons are pressed on gpiozero's mock
pins. Everything after that is the product: tag detection, the stable tracker, the referee,
the engine, the SQLite record, and the live tablet served over HTTP (questions answered with
a tap through the same API a tablet uses). At the end the stored record is verified by
replaying it, and its actions are compared with the script.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import statistics
import tempfile
import threading
import time
import tty
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from werkzeug.serving import BaseWSGIServer, make_server

from companion.engine import REFEREE, Action, Game, random_playout, rules_class
from companion.engine.sekigahara import SekigaharaRules, SekigaharaState
from companion.inputs.events import InputEvent
from companion.inputs.gpio import Pins, TableHardware
from companion.inputs.serial_readers import LineParser, SerialReader
from companion.kits import SekigaharaKit, load_kit
from companion.record import replay
from companion.record.session import Session
from companion.record.store import Store
from companion.referee import SekigaharaReferee, TableRegistry
from companion.referee.script import HIDDEN, Press, Scan, Seen, act_out, shown
from companion.referee.table import TableSession
from companion.vision.geometry import Geometry
from companion.vision.layout import Layout
from companion.vision.synth import Camera, Look, Synth
from companion.vision.table import StableTracker, TableReader
from companion.web import create_app
from companion.web.hub import Hub

__all__ = ["DemoOptions", "DemoReport", "run_demo"]

log = logging.getLogger(__name__)

HAND_FRAMES = 1
"""Frames with a hand over the table for each change (the tracker ignores them)."""
MAX_STILL_FRAMES = 6
"""Still frames shown after a change before giving up on a stable snapshot."""


@dataclass(frozen=True)
class DemoOptions:
    seed: int = 1
    host: str = "127.0.0.1"
    port: int = 8000
    db: Path | None = None
    """The game store; a fresh temporary one when not given."""
    camera: tuple[int, int] = (3280, 2464)
    """The simulated camera's frame size (an 8 MP still: 14 mm tags stay readable)."""
    camera_height_mm: float = 900.0
    """The simulated camera's height above the map (tags on blocks are seen with parallax)."""
    max_actions: int | None = None
    """Stop after this many scripted actions (a shortened game)."""
    illegal_at: int | None = None
    """Before this scripted action, a player moves a block where it may not go, sees the
    alert, and puts it back."""
    pace: float = 0.0
    """Seconds to wait after each table change, so a person can follow on the tablet."""


@dataclass
class DemoReport:
    fps: float = 0.0
    stable_states: int = 0
    actions: int = 0
    questions: int = 0
    alerts: int = 0
    latency_ms_p50: float = 0.0
    latency_ms_p95: float = 0.0
    record_verified: bool = False
    matches_script: bool = False
    frames: int = 0
    script_actions: int = 0
    answered: int = 0
    """Scripted actions entered by a tap on a question the referee asked."""
    manual: int = 0
    """Scripted actions the referee did not read from the table, entered on the tablet."""
    undone: int = 0
    """Actions the referee misread and the player took back on the tablet (undo)."""
    crowded: int = 0
    """Blocks put down touching another location's stack for want of room (vision.layout)."""
    hidden: int = 0
    """Cards dealt face down: nobody sees them at the table; the companion deals them."""
    illegal_corrected: bool | None = None
    game_id: int = 0
    db: str = ""
    url: str = ""
    seconds: float = 0.0
    misses: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def script_for(seed: int, max_actions: int | None = None) -> list[Action]:
    """The simulator's game for `seed` (cut to `max_actions`)."""
    game: Game[Any] = Game(rules_class("sekigahara")(load_kit("sekigahara")), seed=seed)
    random_playout(game)
    actions = [ply.action for ply in game.history]
    return actions[:max_actions] if max_actions else actions


class SimulatedTable:
    """The table, its player, its sensors and the companion, wired as on a real table."""

    def __init__(self, options: DemoOptions, workdir: Path) -> None:
        kit = load_kit("sekigahara")
        assert isinstance(kit, SekigaharaKit)
        self.options = options
        self.registry = TableRegistry.in_kit_order(kit)
        self.geometry = Geometry.load(kit)
        self.synth = Synth(self.geometry, kit)
        self.layout = Layout(self.geometry, crowd=True)
        self.camera = Camera(options.camera, height_mm=options.camera_height_mm)
        self.store = Store(options.db or workdir / "demo.sqlite")
        session = Session.start(self.store, "sekigahara", seed=options.seed,
                                players={"ishida": "simulated", "tokugawa": "simulated"})
        self.hub = Hub(session)
        self.token = self.hub.tokens.issue(REFEREE)
        self.events: queue.Queue[InputEvent] = queue.Queue()
        Device.pin_factory = MockFactory()
        self.hardware = TableHardware(Pins.load(), self.events.put)
        rules = session.game.rules
        assert isinstance(rules, SekigaharaRules)
        self.table = TableSession(
            self.hub, SekigaharaReferee(rules, self.registry),
            TableReader(self.geometry, known_tags=frozenset(self.registry.blocks),
                        camera_height_mm=options.camera_height_mm),
            StableTracker(stacks=self.geometry, link=self.layout.link), self.hardware)
        self.url = ""
        self.view: dict[str, str] = {}
        """Where each block stands on the table now (block -> zone)."""
        self.vision_seconds = 0.0
        """Time spent on frames by the companion (detection, tracking, referee, record)."""
        self._last_press: dict[str, float] = {}
        self._look = 0

    # --- the table, seen by the camera ----------------------------------------------------

    def show(self, blocks: dict[str, str], hand: bool = True) -> bool:
        """Blocks (id -> zone) put down as `blocks` says; frames until a stable snapshot.
        Returns whether the tracker reported a change."""
        tags = self.registry.tags
        self.view = dict(blocks)
        before = dict(self.layout.placed)
        scene = self.layout.arrange({tags[b]: zone for b, zone in blocks.items()})
        looks = [self._hand_look(before)] * HAND_FRAMES if hand else []
        looks += [self._still_look() for _ in range(MAX_STILL_FRAMES)]
        for look in looks:
            frame = self.synth.photograph(scene, self.camera, look)
            start = time.perf_counter()
            changed = self.table.on_frame(frame.image) is not None
            self.vision_seconds += time.perf_counter() - start
            if changed:
                return True
        return False

    def _still_look(self) -> Look:
        self._look += 1
        return Look(noise=1.5, defocus=0.4, light=0.1, seed=self._look)

    def _hand_look(self, before: dict[int, tuple[str, tuple[float, float]]]) -> Look:
        """A hand over the blocks that changed (in frame fractions, roughly)."""
        self._look += 1
        changed = [at for t, (zone, at) in self.layout.placed.items()
                   if before.get(t) != (zone, at)] or [at for _, at in before.values()]
        left, top, right, bottom = self.geometry.extent
        x = sum(p[0] for p in changed) / max(1, len(changed))
        y = sum(p[1] for p in changed) / max(1, len(changed))
        fx = 0.05 + 0.9 * (x - left) / (right - left)
        fy = 0.05 + 0.9 * (y - top) / (bottom - top)
        return Look(noise=1.5, hand=(fx, fy, 0.12), seed=self._look)

    # --- cards and buttons ------------------------------------------------------------------

    def press(self, name: str) -> None:
        """Press a table button on its (mock) GPIO pin; its debounce wants a pause between."""
        wait = self._last_press.get(name, 0.0) + 0.08 - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        pin = self.hardware.buttons[name].pin
        pin.drive_low()
        pin.drive_high()
        self._last_press[name] = time.monotonic()
        self.table.on_input(self.events.get(timeout=2))

    def deliver(self) -> None:
        """The next input event (a scanned card from the reader thread) to the session."""
        self.table.on_input(self.events.get(timeout=5))


@dataclass
class Latency:
    """Views arriving on a tablet's live stream, by version, and when."""

    seen: dict[int, float] = field(default_factory=dict)
    ready: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    stream: Any = None

    def listen(self, url: str) -> None:
        with urllib.request.urlopen(url, timeout=60) as stream:
            self.stream = stream
            self.ready.set()
            for raw in stream:
                line = raw.decode("utf-8", "replace")
                if line.startswith("data: "):
                    version = json.loads(line[6:]).get("version")
                    with self.lock:
                        self.seen.setdefault(version, time.perf_counter())

    def arrival(self, version: int, timeout: float = 5.0) -> float | None:
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            with self.lock:
                found = [at for v, at in self.seen.items() if v >= version]
            if found:
                return min(found)
            time.sleep(0.001)
        return None


def run_demo(options: DemoOptions,
             progress: Callable[[str], None] = lambda _line: None) -> DemoReport:
    """Play the scripted game at the simulated table; the figures of `companion demo`."""
    script = script_for(options.seed, options.max_actions)
    report = DemoReport(script_actions=len(script))
    started = time.perf_counter()
    factory = Device.pin_factory
    with tempfile.TemporaryDirectory(prefix="companion-demo-") as work, \
            _served(SimulatedTable(options, Path(work)), options) as (sim, url), \
            _listening(f"{url}/stream") as latency, _card_reader(sim) as write_card:
        report.url, report.db, report.game_id = url, str(sim.store.path), sim.hub.session.game_id
        progress(f"tablet: {url}/")
        progress(f"referee screen: {url}/referee#token={sim.token}")
        try:
            _play(sim, script, write_card, latency, report, options, progress)
        finally:
            sim.hardware.close()
            Device.pin_factory = factory
        record = sim.store.load(sim.hub.session.game_id)
        report.record_verified = replay(record).ok
        report.matches_script = [e.action for e in record.entries] == script
        counts = sim.table.counts
        report.frames, report.stable_states = counts.frames, counts.stable_states
        report.actions, report.questions, report.alerts = (counts.actions, counts.questions,
                                                           counts.alerts)
        report.fps = round(counts.frames / max(1e-9, sim.vision_seconds), 2)
        report.crowded = sim.layout.crowded
    report.seconds = round(time.perf_counter() - started, 1)
    return report


def _play(sim: SimulatedTable, script: list[Action], write_card: Callable[[str], None],
          latency: Latency, report: DemoReport, options: DemoOptions,
          progress: Callable[[str], None]) -> None:
    shadow: Game[Any] = Game(sim.hub.session.game.rules, seed=options.seed)
    table: dict[str, str] = shown(shadow.state, {})
    sim.show(table, hand=False)
    delays: list[float] = []
    for n, action in enumerate(script):
        if n == options.illegal_at:
            report.illegal_corrected = _illegal_move(sim, table)
        before = shadow.state
        shadow.apply(action)
        inputs = act_out(before, action, shadow.state, table, sim.registry)
        if action.verb in HIDDEN:
            sim.hub.act(REFEREE, action, "simulator")  # dealt face down: the game's chance
            report.hidden += 1
            continue
        for item in inputs:
            if isinstance(item, Scan):
                write_card(item.code)
                sim.deliver()
            elif isinstance(item, Press):
                sim.press(item.name)
            elif isinstance(item, Seen):
                sim.show(_zones_after(item, sim))
                if options.pace:
                    time.sleep(options.pace)
        _settle_action(sim, n, action, report)
        _measure(sim, latency, delays)
        sim.table.settle()
        if n % 25 == 0 or n == len(script) - 1:
            progress(f"{n + 1}/{len(script)} actions, {sim.table.counts.stable_states} stable "
                     f"states, {report.answered} answered, {report.manual} entered by hand")
    if delays:
        report.latency_ms_p50 = round(1000 * statistics.median(delays), 1)
        report.latency_ms_p95 = round(1000 * _percentile(delays, 95), 1)


def _zones_after(seen: Seen, sim: SimulatedTable) -> dict[str, str]:
    """The table once this diff is done (a battle's end is two: blocks back from the
    deployment area, then the retreat)."""
    block = sim.registry.blocks
    view = dict(sim.view)
    view.update({block[t]: to for t, (_, to) in seen.diff.moved.items()})
    view.update({block[t]: zone for t, zone in seen.diff.appeared.items()})
    for t in seen.diff.disappeared:
        view.pop(block[t], None)
    return view


def _settle_action(sim: SimulatedTable, n: int, action: Action, report: DemoReport) -> None:
    """The scripted action is in the record: read from the table, answered on the tablet
    (the referee asked), or entered there by hand (a miss, counted)."""
    entries = sim.hub.session.entries
    if len(entries) > n + 1 or (len(entries) == n + 1 and entries[n].action != action):
        report.misses.append(f"{n + 1}: {action.verb} (misread: undone on the tablet)")
        while len(sim.hub.session.entries) > n:
            _post(sim, "/api/undo", {"by": "referee"})
            report.undone += 1
    if len(sim.hub.session.entries) == n + 1:
        return
    question = sim.hub.question
    if question is not None and action in question[1]:
        _post(sim, "/api/answer", {"choice": question[1].index(action)})
        report.answered += 1
    else:
        desync = sim.table.referee.desync
        said = f" (alert {desync.rule})" if desync is not None else ""
        report.misses.append(f"{n + 1}: {action.verb}{said}")
        _post(sim, "/api/action", {**action.to_json(), "source": "tablet"})
        report.manual += 1
        sim.table.referee.scanned.clear()  # the cards went with the action entered by hand
        sim.table.drop_held()
    sim.table.recheck()


def _illegal_move(sim: SimulatedTable, table: dict[str, str]) -> bool:
    """A block carried two roads away, then put back: the alert must come, and go."""
    state = sim.hub.session.game.state
    assert isinstance(state, SekigaharaState)
    rules = sim.hub.session.game.rules
    assert isinstance(rules, SekigaharaRules)
    neighbours = rules.ctx.kit.neighbours
    mover = state.active
    for block, at in sorted(table.items()):
        if at not in neighbours or rules.ctx.owner[block] != mover:
            continue
        far = _farthest(neighbours, at)
        if far is not None:
            alerts = sim.table.counts.alerts
            sim.show({**table, block: far})
            raised = sim.table.counts.alerts > alerts and sim.table.referee.desync is not None
            sim.show(table)
            return raised and sim.table.referee.desync is None and sim.hub.alert is None
    return False


def _farthest(neighbours: Any, start: str) -> str | None:
    """The location the most roads away from `start` (beyond any march)."""
    distance = {start: 0}
    todo = [start]
    while todo:
        here = todo.pop(0)
        for there in neighbours[here]:
            if there not in distance:
                distance[there] = distance[here] + 1
                todo.append(there)
    far = max(distance, key=lambda z: (distance[z], z))
    return far if distance[far] >= 4 else None


def _measure(sim: SimulatedTable, latency: Latency, delays: list[float]) -> None:
    """Stable frame to tablet: when the view with the newest version reached the stream."""
    if sim.table.stable_at is None:
        return
    arrived = latency.arrival(sim.hub.version)
    if arrived is not None and arrived >= sim.table.stable_at:
        delays.append(arrived - sim.table.stable_at)
    sim.table.stable_at = None


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def _post(sim: SimulatedTable, path: str, body: dict[str, Any]) -> None:
    request = urllib.request.Request(
        sim.url + path, data=json.dumps(body).encode(), method="POST",
        headers={"Authorization": f"Bearer {sim.token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        response.read()


@contextmanager
def _served(sim: SimulatedTable, options: DemoOptions) -> Iterator[tuple[SimulatedTable, str]]:
    """The tablet's web app on a threaded HTTP server, for as long as the game runs."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    server: BaseWSGIServer = make_server(options.host, options.port, create_app(hub=sim.hub),
                                         threaded=True)
    sim.url = f"http://{options.host}:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield sim, sim.url
    finally:
        server.shutdown()
        server.server_close()
        sim.store.close()


@contextmanager
def _listening(url: str) -> Iterator[Latency]:
    """A tablet's live stream, read in a thread for the latency figures; closed at the end."""
    latency = Latency()
    thread = threading.Thread(target=_quietly, args=(latency.listen, url), daemon=True)
    thread.start()
    latency.ready.wait(5)
    try:
        yield latency
    finally:
        if latency.stream is not None:
            latency.stream.close()


def _quietly(listen: Callable[[str], None], url: str) -> None:
    """The stream ends when the demo closes it: that is not an error."""
    with suppress(OSError, ValueError, AttributeError):
        listen(url)


@contextmanager
def _card_reader(sim: SimulatedTable) -> Iterator[Callable[[str], None]]:
    """A serial card reader on a pseudo-terminal: codes written to one end arrive through
    pyserial and the line parser at the other, as from a USB reader."""
    controller, device = os.openpty()
    tty.setraw(device)
    reader = SerialReader(os.ttyname(device), LineParser(reader="rfid"), sim.events.put)
    thread = threading.Thread(target=reader.run, daemon=True)
    thread.start()

    def write(code: str) -> None:
        os.write(controller, f"{code}\n".encode())

    try:
        yield write
    finally:
        reader.stop()
        thread.join(timeout=2)
        os.close(controller)
        os.close(device)
