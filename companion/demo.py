"""The simulated table (`companion demo --game NAME`): a whole game played at a table that
exists only in pixels, refereed by the real pipeline.

The simulator plays a random game (the script). The game's simulated player (its `simulator`
capability) acts each scripted action out at the table and photographs it with the synthetic
camera frame by frame (Sekigahara: blocks carried by a hand and put down in tidy stacks);
cards are scanned through a card reader on a pseudo-terminal; buttons are pressed on gpiozero's
mock pins. Everything after that is the product: the game's table reader and tracker, its
table referee, the generic table session, the engine, the SQLite record, and the live tablet
served over HTTP (questions answered with a tap through the same API a tablet uses). What
nobody shows at the table is entered where it is made: a secret choice on its player's phone,
cards dealt face down by the companion. At the end the stored record is verified by replaying
it, and its actions are compared with the script. Nothing here names a game.
"""

from __future__ import annotations

import http.client
import json
import logging
import os
import queue
import socket
import statistics
import tempfile
import threading
import time
import tty
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from werkzeug.serving import BaseWSGIServer, make_server

from companion.engine import CAUSES, CHANCE, REFEREE, Action, Game, Rules, random_playout
from companion.games import AnyGame, GameSpec, default_game, game
from companion.inputs.events import InputEvent
from companion.inputs.gpio import Pins, TableHardware
from companion.inputs.serial_readers import LineParser, SerialReader
from companion.kits import load_kit
from companion.record import replay
from companion.record.session import Session
from companion.record.store import Store
from companion.table import AnyParts
from companion.table.acting import AnswersAtTable, Press, Scan, Seen, TableInput
from companion.table.session import TableSession
from companion.table.sets import load_set
from companion.web import create_app
from companion.web.hub import Hub

__all__ = ["DemoOptions", "DemoReport", "run_demo"]

log = logging.getLogger(__name__)

@dataclass(frozen=True)
class DemoOptions:
    game: str = ""
    """The game to play (any with a table referee and a simulated player); empty: the
    default game."""
    seed: int = 1
    host: str = "127.0.0.1"
    port: int = 8000
    db: Path | None = None
    """The game store; a fresh temporary one when not given."""
    max_actions: int | None = None
    """Stop after this many scripted actions (a shortened game)."""
    illegal_at: int | None = None
    """Before this scripted action, a player moves a block where it may not go, sees the
    alert, and puts it back."""
    pace: float = 0.0
    """Seconds to wait after each table change, so a person can follow on the tablet."""
    set_name: str | None = None
    """A registered physical set (`companion register`): its tags on the pieces, its card
    codes scanned, its kit played; None: the simulated set (tags in kit order, labels)."""
    rules_options: dict[str, Any] = field(default_factory=dict)
    """The game's options (`players`, a board's side...); the rules' defaults for the rest."""
    tilt_degrees: float | None = None
    """The camera tilted this many degrees from looking straight down (as a phone on a
    stand films a table: `vision.room.tilted_camera`); None: the simulator's own camera."""


@dataclass
class DemoReport:
    game: str = ""
    fps: float = 0.0
    stable_states: int = 0
    actions: int = 0
    questions: int = 0
    questions_by_cause: dict[str, int] = field(default_factory=dict)
    """The questions by cause (engine.Cause): a choice the rules leave to a player, a doubt
    of the camera, a confirmation of what it read."""
    questions_asked_again: int = 0
    """Questions put again before the record moved on (a choice is asked once)."""
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
    """Actions nobody shows at the table: cards dealt face down (chance's, drawn by the
    companion) and secret choices made on a player's phone (Shogun's plans and bids)."""
    illegal_corrected: bool | None = None
    filmed: list[bool] = field(default_factory=list)
    """Per scripted action: shown at the table by the camera alone (no card scanned, no
    button pressed, nothing secret), as a film of the game would show it."""
    game_id: int = 0
    db: str = ""
    url: str = ""
    seconds: float = 0.0
    misses: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


R = TypeVar("R", bound=Rules[Any, Any])
P = TypeVar("P", bound=AnyParts)


def script_for(spec: AnyGame, seed: int, max_actions: int | None = None,
               kit: str | None = None, options: dict[str, Any] | None = None) -> list[Action]:
    """The simulator's game for `seed` (cut to `max_actions`), on `kit` (the game's own by
    default), with the game's `options` (its defaults otherwise)."""
    played: Game[Any] = Game(spec.rules(load_kit(kit or spec.kit), options or None), seed=seed)
    random_playout(played)
    actions = [ply.action for ply in played.history]
    return actions[:max_actions] if max_actions else actions


class SimulatedTable:
    """The table, its player, its sensors and the companion, wired as on a real table."""

    def __init__(self, spec: GameSpec[R, Any, P], options: DemoOptions, workdir: Path,
                 film: Callable[[Any], None] | None = None) -> None:
        simulator = spec.need_simulator()
        build = spec.need_table()
        self.options = options
        self.physical = load_set(options.set_name) if options.set_name else None
        self.kit = str(self.physical.kit) if self.physical else spec.kit
        self.store = Store(options.db or workdir / "demo.sqlite")
        chosen = options.rules_options or None
        session = Session.start(self.store, spec.name, options=chosen, seed=options.seed,
                                kit=self.kit, players=dict.fromkeys(
                                    spec.rules(load_kit(self.kit), chosen).roles, "simulated"))
        self.hub = Hub(session)
        self.token = self.hub.tokens.issue(REFEREE)
        self.events: queue.Queue[InputEvent] = queue.Queue()
        Device.pin_factory = MockFactory()
        self.hardware = TableHardware(Pins.load(), self.events.put)
        rules = session.game.rules
        if not isinstance(rules, spec.rules):
            raise TypeError(f"the session plays {type(rules).__name__}, not {spec.title}")
        setup = simulator.setup()
        if self.physical is not None:  # the set's tags are on the pieces the camera sees
            setup = replace(setup, registry=self.physical.registry)
        parts = build(rules, setup)
        self.table = TableSession(self.hub, parts, self.hardware)
        self.player = simulator.player(rules, parts, self._on_frame)
        if options.tilt_degrees is not None:
            _tilt(self.player, options.tilt_degrees)
        self.film = film
        """Every frame the camera takes is also handed here (`companion.review.film`)."""
        self.url = ""
        self.vision_seconds = 0.0
        """Time spent on frames by the companion (detection, tracking, referee, record)."""
        self._last_press: dict[str, float] = {}

    def _on_frame(self, image: Any) -> Any:
        if self.film is not None:
            self.film(image)
        start = time.perf_counter()
        try:
            return self.table.on_frame(image)
        finally:
            self.vision_seconds += time.perf_counter() - start

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

    def card_code(self, code: str) -> str:
        """What the reader reads for a scripted scan: a card's RFID sticker code where the set
        has one, else its printed label's code."""
        if self.physical is None or not code.startswith("CARD:"):
            return code
        return self.physical.code_of(code[len("CARD:"):]) or code

    def deliver(self) -> None:
        """The next input event (a scanned card from the reader thread) to the session."""
        self.table.on_input(self.events.get(timeout=5))


def _tilt(player: Any, degrees: float) -> None:
    """The simulated player's camera tilted `degrees` from straight down, the map seen in
    perspective (its far edge smaller), at the same frame size and height."""
    from companion.vision.room import tilted_camera

    camera = player.camera
    tilted = tilted_camera(player.synth, camera.size, degrees)
    player.camera = replace(tilted, k1=camera.k1, height_mm=camera.height_mm)


@dataclass
class Latency:
    """Views arriving on a tablet's live stream, by version, and when."""

    seen: dict[int, float] = field(default_factory=dict)
    ready: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    sock: socket.socket | None = None

    def listen(self, url: str) -> None:
        parts = urllib.parse.urlsplit(url)
        connection = http.client.HTTPConnection(parts.netloc, timeout=60)
        connection.connect()
        self.sock = connection.sock
        connection.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""))
        with connection.getresponse() as stream:
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
             progress: Callable[[str], None] = lambda _line: None,
             tick: Callable[[int], None] = lambda _total: None,
             film: Callable[[Any], None] | None = None) -> DemoReport:
    """Play the scripted game at the simulated table; the figures of `companion demo`.
    `film`: handed every frame the camera takes (a film of the game, for `companion review`)."""
    spec = game(options.game) if options.game else default_game()
    spec.need_table(), spec.need_simulator()  # MissingCapability before anything starts
    physical = load_set(options.set_name) if options.set_name else None
    if physical is not None and physical.game != spec.name:
        raise ValueError(f"set {physical.name} is a {physical.game} set, not {spec.name}")
    script = script_for(spec, options.seed, options.max_actions,
                        str(physical.kit) if physical else None, options.rules_options)
    report = DemoReport(game=spec.name, script_actions=len(script))
    started = time.perf_counter()
    factory = Device.pin_factory
    with tempfile.TemporaryDirectory(prefix="companion-demo-") as work, \
            _served(SimulatedTable(spec, options, Path(work), film), options) as (sim, url), \
            _listening(f"{url}/stream") as latency, _card_reader(sim) as write_card:
        report.url, report.db, report.game_id = url, str(sim.store.path), sim.hub.session.game_id
        progress(f"tablet: {url}/")
        progress(f"referee screen: {url}/referee#token={sim.token}")
        try:
            _play(sim, script, write_card, latency, report, options, progress, tick)
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
        report.questions_by_cause = {cause: counts.asked[cause] for cause in CAUSES}
        report.questions_asked_again = counts.asked_again
        report.fps = round(counts.frames / max(1e-9, sim.vision_seconds), 2)
        report.crowded = sim.player.crowded
    report.seconds = round(time.perf_counter() - started, 1)
    return report


def _play(sim: SimulatedTable, script: list[Action], write_card: Callable[[str], None],
          latency: Latency, report: DemoReport, options: DemoOptions,
          progress: Callable[[str], None],
          tick: Callable[[int], None] = lambda _total: None) -> None:
    shadow: Game[Any] = Game(sim.hub.session.game.rules, seed=options.seed)
    sim.player.begin(shadow.state)
    delays: list[float] = []
    waiting: tuple[int, Action] | None = None  # shown in part: the rest comes with the next
    for n, action in enumerate(script):
        tick(len(script))
        if n == options.illegal_at and waiting is None:
            report.illegal_corrected = _illegal_move(sim)
        before = shadow.state
        shadow.apply(action)
        inputs = sim.player.act_out(before, action, shadow.state)
        report.filmed.append(action.verb not in sim.player.hidden
                             and all(isinstance(item, Seen) for item in inputs))
        if action.verb in sim.player.hidden:
            _enter_hidden(sim, action)
            report.hidden += 1
            continue
        awaited = [waiting, (n, action)] if waiting is not None else [(n, action)]
        _feed(sim, inputs, write_card, options, report, awaited)
        if waiting is None and n + 1 < len(script) and (
                _half_shown(sim, n, action) or _answered_later(sim, n, action)):
            waiting = (n, action)
            continue
        if waiting is not None:
            _settle_waiting(sim, *waiting, report)
            waiting = None
        _settle_action(sim, n, action, report)
        _measure(sim, latency, delays)
        sim.table.settle()
        if n % 25 == 0 or n == len(script) - 1:
            progress(f"{n + 1}/{len(script)} actions, {sim.table.counts.stable_states} stable "
                     f"states, {report.answered} answered, {report.manual} entered by hand")
    if delays:
        report.latency_ms_p50 = round(1000 * statistics.median(delays), 1)
        report.latency_ms_p95 = round(1000 * _percentile(delays, 95), 1)


def _feed(sim: SimulatedTable, inputs: list[TableInput], write_card: Callable[[str], None],
          options: DemoOptions, report: DemoReport, awaited: list[tuple[int, Action]]) -> None:
    """One action's inputs to the companion: cards through the reader, buttons on their
    pins, table changes photographed until the tracker reports them. A question the table
    raises about an `awaited` action is answered before the players go on, and one the tablet
    asked beforehand once the inputs that show the action are in (the player's
    `shown_inputs`; all of them by default): the rest only put the table as the record has it
    after the action."""
    shown = getattr(sim.player, "shown_inputs", len(inputs))
    beforehand = sim.hub.question
    for index, item in enumerate(inputs):
        if index == shown:
            _answer_at_once(sim, awaited, report)
            beforehand = None
        if isinstance(item, Scan):
            write_card(sim.card_code(item.code))
            sim.deliver()
        elif isinstance(item, Press):
            sim.press(item.name)
        elif isinstance(item, Seen):
            sim.player.show(item)
            if options.pace:
                time.sleep(options.pace)
        if sim.hub.question is not beforehand \
                and not _answered_later(sim, *awaited[-1]):  # raised by what was just shown
            _answer_at_once(sim, awaited, report)


def _answer_at_once(sim: SimulatedTable, awaited: list[tuple[int, Action]],
                    report: DemoReport) -> None:
    """As at a table: the tablet asks (which province was attacked, with the tray just
    landed), someone taps the answer, then the players put the table as the record has it.
    The table loop then checks the table and asks what is left (`live.py` does the same after
    a tablet's change)."""
    question = sim.hub.question
    if question is None:
        return
    for n, action in awaited:
        if len(sim.hub.session.entries) == n and action in question[1]:
            _post(sim, "/api/answer", {"choice": question[1].index(action)})
            report.answered += 1
            sim.table.recheck()
            sim.table.settle()
            return


def _half_shown(sim: SimulatedTable, n: int, action: Action) -> bool:
    """The referee said nothing yet about an action the player's game may show only in part
    (`shown_later`: Shogun's attack on a neutral province, read once the tray lands): no
    entry, no question, no alert. It is settled after the next action's inputs, as at a real
    table; an action nobody shows later is settled at once (a miss is a miss)."""
    return (action.verb in getattr(sim.player, "shown_later", ())
            and len(sim.hub.session.entries) == n and sim.hub.question is None
            and sim.table.referee.desync is None)


def _answered_later(sim: SimulatedTable, n: int, action: Action) -> bool:
    """The question the action raised is one the players answer with the next action's
    inputs (`AnswersAtTable`: the attacker's dice), not with a tap: it is settled after
    them, like an action shown in part."""
    question = sim.hub.question
    return (isinstance(sim.player, AnswersAtTable) and question is not None
            and len(sim.hub.session.entries) == n and action in question[1]
            and sim.player.answered_at_table(action, question[1]))


def _settle_waiting(sim: SimulatedTable, n: int, action: Action, report: DemoReport) -> None:
    """An action shown in part, once the next one's inputs showed the rest: in the record
    already (read with the next), or asked, or entered by hand (a miss); then what is left
    to ask (the tray the table showed, read once the question about it is answered)."""
    entries = sim.hub.session.entries
    if len(entries) > n and entries[n].action == action:
        return
    _settle_action(sim, n, action, report)
    sim.table.settle()


def _enter_hidden(sim: SimulatedTable, action: Action) -> None:
    """An action nobody shows at the table: chance's (cards dealt face down) is the
    companion's to draw; a player's (a secret plan, a bid) is made on that player's phone."""
    if action.role == CHANCE:
        sim.hub.act(REFEREE, action, "simulator")
    else:
        sim.hub.act(action.role, action, "phone")


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
        sim.table.forget_inputs()  # the cards went with the action entered by hand
    sim.table.recheck()


def _illegal_move(sim: SimulatedTable) -> bool:
    """A piece put where it may not go, then put back: the alert must come, and go."""
    alerts = sim.table.counts.alerts
    if not sim.player.illegal_move(sim.hub.session.game.state):
        return False
    raised = sim.table.counts.alerts > alerts and sim.table.referee.desync is not None
    sim.player.undo_illegal()
    return raised and sim.table.referee.desync is None and sim.hub.alert is None


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
        # Shut down, not closed: a close waits for the reading thread's blocked read, which
        # ends only with the server's next heartbeat (15 s of every demo).
        if latency.sock is not None:
            with suppress(OSError):
                latency.sock.shutdown(socket.SHUT_RDWR)


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
    deadline = time.monotonic() + 5
    while reader.status != "connected" and time.monotonic() < deadline:
        time.sleep(0.01)  # opening the port empties it: a code written before is lost

    def write(code: str) -> None:
        os.write(controller, f"{code}\n".encode())

    try:
        yield write
    finally:
        reader.stop()
        thread.join(timeout=2)
        os.close(controller)
        os.close(device)
