"""The table session: frames, card scans and buttons in; recorded actions, questions and
alerts out.

One object joins the pipeline's stages for a game at the table. Each frame goes through the
vision reader and the stable tracker; a stable diff, a scanned card or a pressed button goes
to the referee; the referee's rulings go out through the web hub, which records every action
durably before any screen sees it: a Proposal is played, a Question waits on the tablet, an
Alert is shown with its rule (red light and buzzer) and the session stays in desync until the
blocks stand where the record has them again. Nothing here knows pixels or HTTP.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.engine import REFEREE, IllegalAction
from companion.engine.sekigahara import SekigaharaState
from companion.inputs.events import ButtonPressed, CardScanned, InputEvent, ReadProblem
from companion.inputs.gpio import TableHardware
from companion.referee.sekigahara import Alert, Proposal, Question, Ruling, SekigaharaReferee
from companion.vision.table import StableTracker, TableDiff, TableReader
from companion.web.hub import Alert as TabletAlert
from companion.web.hub import Hub

__all__ = ["TableCounts", "TableSession"]

log = logging.getLogger(__name__)

SNAPSHOT_WIDTH = 1024
"""Stable frames kept with the actions they caused are reduced to this width (JPEG)."""


@dataclass
class TableCounts:
    frames: int = 0
    stable_states: int = 0
    actions: int = 0
    """Actions the referee read from the table and the record accepted."""
    questions: int = 0
    alerts: int = 0
    read_problems: int = 0


@dataclass
class TableSession:
    hub: Hub
    referee: SekigaharaReferee
    reader: TableReader
    tracker: StableTracker
    hardware: TableHardware | None = None
    clock: Callable[[], float] = time.perf_counter
    counts: TableCounts = field(default_factory=TableCounts)
    stable_at: float | None = None
    """When the last stable snapshot was taken (the start of the table-to-tablet latency)."""
    _frame: np.ndarray | None = None
    _held: list[InputEvent] = field(default_factory=list)
    _unseen: bool = False
    """A stable snapshot came while the game was paused: compare it with the record."""

    @property
    def state(self) -> SekigaharaState:
        state = self.hub.session.game.state
        assert isinstance(state, SekigaharaState)
        return state

    def on_frame(self, image: np.ndarray) -> TableDiff | None:
        """One camera frame: a stable diff is judged and acted on; returns it.

        The pixels are read outside the hub's lock; the judging and recording inside it, so a
        tablet action cannot land between the state the referee judged and the record."""
        self.counts.frames += 1
        first = self.tracker.stable is None
        diff = self.tracker.feed(self.reader.read(image))
        if diff is None:
            return None
        with self.hub.lock:
            self.counts.stable_states += 1
            self.stable_at = self.clock()
            self._frame = image
            seen = self.tracker.stable.zones if self.tracker.stable else {}
            if self.hub.paused:
                self._unseen = True  # judged against the record once the game goes on
            elif first or self._unseen or self.referee.desync is not None:
                self._unseen = False
                self._check_table(seen, first)
            else:
                self._rule(self.referee.on_diff(self.state, diff), "camera")
        return diff

    def on_input(self, event: InputEvent) -> None:
        """A card scan or a button press from the table's readers and buttons (or a code
        typed on the tablet). While the table is out of order or the game paused, inputs
        wait (nothing is lost) and are read once it is in order again."""
        if isinstance(event, ReadProblem):
            self.counts.read_problems += 1  # already logged by its reader; nothing is lost
            return
        with self.hub.lock:
            if self.referee.desync is not None or self.hub.paused:
                self._held.append(event)
                return
            self._frame = None
            if isinstance(event, ButtonPressed) and self.hub.question is not None \
                    and event.name in ("confirm", "next_phase"):
                self._answer(event.name)
            elif isinstance(event, CardScanned):
                self._rule(self.referee.on_card(self.state, event.code), "card_reader")
            elif isinstance(event, ButtonPressed):
                self._rule(self.referee.on_button(self.state, event.name), "button")

    def _answer(self, button: str) -> None:
        """A question waits: next phase moves the tablet's highlight, confirm answers it."""
        if button == "next_phase":
            self.hub.highlight_next()
            return
        try:
            self.hub.answer(REFEREE, self.hub.highlighted, source="button")
        except IllegalAction as exc:
            self._alert(Alert(exc.rule, exc.message, exc.legal), table=False)
            return
        self.counts.actions += 1
        self._show("accepted")

    def drop_held(self) -> int:
        """The action the held inputs were for was entered on the tablet: forget them."""
        with self.hub.lock:
            count, self._held = len(self._held), []
            return count

    def _release(self) -> None:
        """The table is in order again: the inputs that waited are read, in order."""
        held, self._held = self._held, []
        for event in held:
            self.on_input(event)

    def settle(self) -> None:
        """After each action: a question the record has moved past is dropped, and the
        choices the table cannot show (6.3, 8.9.2, 8.6.1) are asked once nothing waits."""
        with self.hub.lock:
            question = self.hub.question
            rules = self.referee.rules
            if question is not None \
                    and not any(rules.accepts(self.state, a) for a in question[1]):
                self.hub.drop_question()
            if self.hub.question is None and self.referee.desync is None \
                    and not self.hub.paused and self.hub.session.game.outcome is None:
                self._rule(self.referee.decisions(self.state), "tablet")

    def recheck(self) -> None:
        """After an action entered on the tablet (or the game unpaused): is the table in
        order with the record? Held inputs are read once it is."""
        with self.hub.lock:
            if self.hub.paused:
                return
            tags = self.referee.registry.tags
            self.tracker.settle({tags[b]: at for b, at in self.state.positions.items()
                                 if b in tags})
            if self.tracker.stable is not None and (self.referee.desync is not None
                                                    or self._unseen):
                self._unseen = False
                self._check_table(dict(self.tracker.stable.zones), first=False)
            if self.referee.desync is None and self._held:
                self._release()

    def _check_table(self, seen: Mapping[int, str], first: bool) -> None:
        if self.referee.table_matches(self.state, seen):
            if not first:
                log.info("the table matches the record again")
                self.hub.clear_alert()
                self._show("accepted")
                self._release()
            return
        if first:
            self._alert(Alert("5", "the blocks on the table do not stand where the record "
                                   "has them: place them as the record shows"))
        else:
            self._show("illegal")

    def _rule(self, rulings: list[Ruling], source: str) -> None:
        """`source`: the sensor that showed it, as the record names it (camera, ...)."""
        for ruling in rulings:
            if isinstance(ruling, Proposal):
                self._play(ruling, source)
            elif isinstance(ruling, Question):
                self.counts.questions += 1
                self.hub.ask(ruling.text, ruling.options)
                self._show("waiting")
            else:
                self._alert(ruling, table=source == "camera")
                break

    def _play(self, proposal: Proposal, source: str) -> None:
        try:
            self.hub.act(REFEREE, proposal.action, source, snapshot=self._snapshot())
        except IllegalAction as exc:  # cannot happen under the lock; said clearly if it does
            self._alert(Alert(exc.rule, exc.message, exc.legal, proposal.action.role),
                        table=source == "camera")
            return
        self.counts.actions += 1
        self._show("accepted")

    def _alert(self, alert: Alert, table: bool = True) -> None:
        """On the tablet (the message for the acting side and the referee only), the red
        light and the buzzer. Only what the table shows puts the session in desync: a card
        or a button refused changes nothing on the board."""
        self.counts.alerts += 1
        if table:
            self.referee.desync = alert
        role = alert.role or REFEREE
        self.hub.raise_alert(TabletAlert(role, alert.rule, alert.message, alert.legal))
        self._show("illegal")

    def _show(self, state: str) -> None:
        if self.hardware is not None:
            self.hardware.show(state)

    def _snapshot(self) -> bytes | None:
        """The stable frame that showed the action, small, for the record (7)."""
        if self._frame is None:
            return None
        height, width = self._frame.shape[:2]
        scale = SNAPSHOT_WIDTH / width
        small = cv2.resize(self._frame, (SNAPSHOT_WIDTH, round(height * scale)),
                           interpolation=cv2.INTER_AREA)
        ok, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 80])
        return data.tobytes() if ok else None
