"""The table session: frames, card scans and buttons in; recorded actions, questions and
alerts out.

One object joins the pipeline's stages for a game at the table, whichever game: the game's
`TableParts` say how frames are read, when the table is stable and what a change means. Each
frame goes through the reader and the tracker; a stable diff, a scanned card or a pressed
button goes to the game's table referee; its rulings go out through the host (the web hub),
which records every action durably before any screen sees it: a Proposal is played, a Question
waits on the tablet, an Alert is shown with its rule (red light and buzzer) and the session
stays in desync until the pieces stand where the record has them again. Nothing here knows
pixels, HTTP or any particular game.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import cv2
import numpy as np

from companion.engine import (
    REFEREE,
    Action,
    Alert,
    Cause,
    IllegalAction,
    Proposal,
    Question,
    Ruling,
)
from companion.inputs.events import ButtonPressed, CardScanned, InputEvent, ReadProblem
from companion.inputs.gpio import TableHardware
from companion.record.session import Session
from companion.table import AnyParts, TableReferee, Tracker

__all__ = ["TableCounts", "TableHost", "TableSession"]

log = logging.getLogger(__name__)

SNAPSHOT_WIDTH = 1024
"""Stable frames kept with the actions they caused are reduced to this width (JPEG)."""
DESYNC = "desync"
BLIND_FRAMES = 3
"""Frames that must agree on where the camera cannot see before the screens say so (or stop
saying it): a hand passing through a reflection must not make the notice flicker."""
"""The store's table-state key for the table's desync (its alert), kept across a restart."""


class TableHost(Protocol):
    """Where rulings go: the web hub (records, then tells every screen). A protocol, so that
    the table session and the web layer never import each other."""

    session: Session
    paused: bool
    question: tuple[str, tuple[Action, ...]] | None
    alert: Alert | None
    highlighted: int

    @property
    def lock(self) -> threading.RLock: ...

    def act(self, role: str, action: Action, source: str,
            snapshot: bytes | None = None) -> Any: ...

    def ask(self, text: str, options: tuple[Action, ...], cause: Cause | None = None
            ) -> None: ...

    def notify(self, text: str, seq: int) -> None: ...

    def answer(self, role: str, choice: int, source: str = ...) -> Any: ...

    def drop_question(self) -> None: ...

    def highlight_next(self) -> None: ...

    def raise_alert(self, alert: Alert) -> None: ...

    def clear_alert(self) -> None: ...

    def camera_blind(self, zones: tuple[str, ...]) -> None: ...


@dataclass
class TableCounts:
    frames: int = 0
    stable_states: int = 0
    actions: int = 0
    """Actions the referee read from the table and the record accepted."""
    questions: int = 0
    asked: Counter[str] = field(default_factory=Counter)
    """Questions by cause (`engine.Cause.kind`: choice, doubt, confirmation)."""
    asked_at: Counter[int] = field(default_factory=Counter)
    """Questions by the record's length when asked: more than one at a length is the same
    choice asked again (issue 36: a choice is asked once)."""

    @property
    def asked_again(self) -> int:
        """Questions put again before the record moved on."""
        return sum(n - 1 for n in self.asked_at.values() if n > 1)
    alerts: int = 0
    read_problems: int = 0


@dataclass
class TableSession:
    hub: TableHost
    parts: AnyParts
    hardware: TableHardware | None = None
    clock: Callable[[], float] = time.perf_counter
    counts: TableCounts = field(default_factory=TableCounts)
    stable_at: float | None = None
    """When the last stable snapshot was taken (the start of the table-to-tablet latency)."""
    _frame: np.ndarray | None = None
    _held: list[InputEvent] = field(default_factory=list)
    _unseen: bool = False
    """A stable snapshot came while the game was paused: compare it with the record."""
    _kept: Alert | None = None
    """The desync as last written to the store (written again only when it changes)."""
    _blind: tuple[tuple[str, ...], int] = ((), 0)
    """Where the last frames could not see, and for how many frames in a row."""
    _reread: bool = False
    """The camera was away: the next stable table is compared with the record (what moved
    meanwhile was not seen move) before a change is read as a move again."""

    @property
    def referee(self) -> TableReferee:
        return self.parts.referee

    @property
    def tracker(self) -> Tracker:
        return self.parts.tracker

    @property
    def state(self) -> Any:
        """The game's state as the record has it now."""
        return self.hub.session.game.state

    def resume(self) -> None:
        """After a restart: a table that was out of order is still out of order, with the
        same alert on the screens, until the camera sees the pieces put back. The desync is
        kept in the store beside the pause and the waiting question (a person's doing: the
        pieces put where they may not go)."""
        with self.hub.lock:
            kept = self.hub.session.store.table_state(self.hub.session.game_id).get(DESYNC)
            alert = Alert.from_data(kept)
            if alert is None:
                return
            self.referee.desync = self._kept = alert
            self.hub.raise_alert(alert)

    def _keep_desync(self) -> None:
        """Write the desync to the store when it has changed since it was last written."""
        desync = self.referee.desync
        if desync is self._kept:
            return
        self._kept = desync
        self.hub.session.store.put_table_state(
            self.hub.session.game_id, DESYNC, None if desync is None else desync.to_data())

    def on_frame(self, image: np.ndarray) -> Any:
        """One camera frame: a stable diff is judged and acted on; returns it.

        The pixels are read outside the hub's lock; the judging and recording inside it, so a
        tablet action cannot land between the state the referee judged and the record."""
        self.counts.frames += 1
        first = self.tracker.stable is None or self._reread
        reading = self.parts.reader.read(image)
        self._watch_blind(getattr(reading, "blind", ()))
        before = self.tracker.stable
        diff = self.tracker.feed(reading)
        if diff is None:
            if self._reread and self.tracker.stable is not before:
                self._reread = False  # the table agreed again, as it stood: trusted again
            return None
        with self.hub.lock:
            self.counts.stable_states += 1
            self.stable_at = self.clock()
            self._frame = image
            if self.hub.paused:
                self._unseen = True  # judged against the record once the game goes on
            elif first or self._unseen or self.referee.desync is not None:
                self._unseen = self._reread = False
                self._check_table(first)
            else:
                self._rule(self.referee.on_diff(self.state, diff), "camera")
        return diff

    def camera_back(self) -> None:
        """The camera is back after it stopped: the table is read again and compared with
        the record before it is trusted, as at the start (pieces moved while nobody looked
        are a desync, not a move)."""
        with self.hub.lock:
            self._reread = True

    def _watch_blind(self, blind: Any) -> None:
        """Tell the screens where the camera cannot see (a saturated reflection: the tags
        there are hidden, not gone), once `BLIND_FRAMES` frames agree; readers that cannot
        tell have no `blind` and say nothing."""
        zones = tuple(sorted({zone for area in blind for zone in area.zones}))
        seen, frames = self._blind
        self._blind = (zones, frames + 1 if zones == seen else 1)
        if self._blind[1] == BLIND_FRAMES:
            self.hub.camera_blind(zones)

    def card_owner(self, code: str) -> str | None:
        """Whose card `code` is now, by the game's referee (the hub asks before a code typed
        on a phone goes on)."""
        with self.hub.lock:
            return self.referee.card_owner(self.state, code)

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
            who = exc.action.role if exc.action is not None else None  # the answering side
            self._alert(Alert(exc.rule, exc.message, exc.legal, who), table=False)
            return
        self.counts.actions += 1
        self._show("accepted")

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
            self.tracker.settle(self.referee.expected(self.state))
            if self.tracker.stable is not None and (self.referee.desync is not None
                                                    or self._unseen):
                self._unseen = False
                self._check_table(first=False)
            if self.referee.desync is None and self._held:
                self._release()

    def judge_again(self, diff: Any) -> None:
        """The last change the camera reported, judged again against the record as it is now
        (a filmed game's review: what happened off the film, a card or a secret choice, was
        entered since); its alert, if it raised one, goes."""
        with self.hub.lock:
            if self.referee.desync is not None:
                self.referee.desync = None
                self.hub.clear_alert()
            self._rule(self.referee.on_diff(self.state, diff), "camera")
            self._keep_desync()

    def forget_inputs(self) -> None:
        """The action the table's inputs were for was entered on the tablet: the cards that
        waited and the held inputs go with it."""
        with self.hub.lock:
            self.referee.forget_inputs()
            self._held = []

    def _check_table(self, first: bool) -> None:
        """Compare the stable table with the record: in order (again), or the alert. A
        desync kept from before a restart is cleared by the first table in order; a table
        still out of order keeps its alert on the screens (an action accepted on the tablet
        meanwhile clears the screens' alert, not the table's disorder)."""
        was_out = self.referee.desync is not None
        if self.referee.table_matches(self.state, self.tracker.stable):
            if not first or was_out:
                log.info("the table matches the record again")
                self.hub.clear_alert()
                self._show("accepted")
                self._release()
            self._keep_desync()
            return
        if first and not was_out:
            self._alert(Alert(self.hub.session.game.rules.game_type.setup_rule or "set-up",
                              "the pieces on the table do not stand where the record has "
                              "them: place them as the record shows"))
            return
        desync = self.referee.desync
        if desync is not None and self.hub.alert is None:  # an action on the tablet took it off
            self.hub.raise_alert(desync)
        self._show("illegal")

    def _rule(self, rulings: list[Ruling], source: str) -> None:
        """`source`: the sensor that showed it, as the record names it (camera, ...)."""
        for ruling in rulings:
            if isinstance(ruling, Proposal):
                self._play(ruling, source)
            elif isinstance(ruling, Question):
                self.counts.questions += 1
                self.counts.asked[ruling.cause.kind] += 1
                self.counts.asked_at[len(self.hub.session.entries)] += 1
                self.hub.ask(ruling.text, ruling.options, ruling.cause)
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
        if proposal.notice:  # a sure reading played at once: shown, with a tap to take back
            self.hub.notify(proposal.notice, self.hub.session.entries[-1].seq)
        self._show("accepted")

    def _alert(self, alert: Alert, table: bool = True) -> None:
        """On the tablet (the message for the acting side and the referee only), the red
        light and the buzzer. Only what the table shows puts the session in desync: a card
        or a button refused changes nothing on the board."""
        self.counts.alerts += 1
        if table:
            self.referee.desync = alert
            self._keep_desync()
        self.hub.raise_alert(alert)  # no role: Alert.for_role shows it to the referee only
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
