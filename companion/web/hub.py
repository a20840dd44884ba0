"""The live table: one recorded game session, who may see and do what, and live updates.

The hub is the web layer's only way into the game. It applies actions through the recording
session (so an action is acknowledged only once durable), turns the engine's per-role views into
what each connected screen receives, and pushes a fresh view to every subscriber after each
change. A subscriber only ever receives the view of its own role.
"""

from __future__ import annotations

import queue
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from companion.engine import PUBLIC, REFEREE, Action, Alert, IllegalAction
from companion.inputs.events import CardScanned
from companion.record.session import Session, UndoRefused
from companion.web.about import GameAbout, describe

__all__ = ["Alert", "Hub", "Tokens"]


@dataclass
class Tokens:
    """Per-role bearer tokens: the referee's, and one per paired player device (revocable)."""

    roles: dict[str, str] = field(default_factory=dict)

    def issue(self, role: str) -> str:
        token = secrets.token_urlsafe(24)
        self.roles[token] = role
        return token

    def revoke(self, role: str) -> int:
        gone = [t for t, r in self.roles.items() if r == role]
        for token in gone:
            del self.roles[token]
        return len(gone)

    def role(self, token: str | None) -> str:
        """The token's role; the public role without a (valid) token."""
        return self.roles.get(token or "", PUBLIC)


class Hub:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.tokens = Tokens()
        self._lock = threading.RLock()
        self._subscribers: list[tuple[str, queue.Queue[dict[str, Any]]]] = []
        self.alert: Alert | None = None
        self.version = 0
        self.paused = False
        self.question: tuple[str, tuple[Action, ...]] | None = None
        """A question from the referee (several actions fit what the table shows)."""
        self.highlighted = 0
        """The option the table's confirm button would choose."""
        self.inputs: list[CardScanned] = []
        """Card codes typed on a screen (the scanners' fallback), newest last."""
        self.inputs_to: Callable[[CardScanned], None] | None = None
        """Where typed codes go as input events (the live table's queue), if anywhere."""
        self._offers: dict[str, tuple[str, str]] = {}
        """Role -> (token, url) of a phone pairing shown on the table display until used."""
        self.about: GameAbout = describe(session.game.rules, session.header.players)
        """The game as the page shell needs it: name, title, roles, its screen module."""

    @property
    def lock(self) -> threading.RLock:
        """Held by whoever judges the state and then acts on it (the table session), so no
        other change lands in between."""
        return self._lock

    @property
    def roles(self) -> tuple[str, ...]:
        return self.session.game.rules.roles

    def view(self, role: str) -> dict[str, Any]:
        """Everything a screen of `role` shows: the engine's view plus the table's extras."""
        with self._lock:
            game = self.session.game
            view = game.view(role)
            legal = game.legal_actions(role) if role in game.to_move() else []
            if role == REFEREE:
                legal = game.legal_actions()
            return {
                "version": self.version, "game_id": self.session.game_id,
                "game": self.about,
                "view": view,
                "to_move": list(game.to_move()),
                "legal": [a.text() for a in legal],
                "alert": None if self.alert is None else self.alert.for_role(role),
                "actions": len(self.session.entries),
                "pairing": self.pairing if role == PUBLIC else {},
                "paused": self.paused,
                "question": self._question_for(role),
                "inputs": [{"code": e.code, "reader": e.reader} for e in self.inputs]
                if role == REFEREE else [],
            }

    def act(self, role: str, action: Action, source: str,
            snapshot: bytes | None = None) -> list[dict[str, Any]]:
        """Apply an action for `role` (the referee may act for anyone); record (with the
        camera's frame that showed it, if any); notify.

        Raises IllegalAction (remembered for the legality panel) or PermissionError.
        """
        if role not in (action.role, REFEREE):
            raise PermissionError(f"the {role} device cannot act for {action.role}")
        if self.paused and role != REFEREE:
            raise PermissionError("the referee has paused the game")
        with self._lock:
            try:
                events = self.session.play(action, source, snapshot=snapshot)
            except IllegalAction as exc:
                self.alert = Alert(exc.rule, exc.message, exc.legal, action.role)
                self._changed()
                raise
            self.alert = None
            self._changed()
            return [e.to_json() for e in events]

    def raise_alert(self, alert: Alert) -> None:
        """The table shows something illegal (the referee's alert): on every screen, each
        role seeing what `Alert.for_role` allows."""
        with self._lock:
            self.alert = alert
            self._changed()

    def clear_alert(self) -> None:
        with self._lock:
            if self.alert is not None:
                self.alert = None
                self._changed()

    def ask(self, text: str, options: tuple[Action, ...]) -> None:
        """Put a question on the screens: the acting side answers with a tap, or at the
        table with the buttons (next phase moves the highlight, confirm answers)."""
        with self._lock:
            self.question = (text, options)
            self.highlighted = 0
            self._changed()

    def highlight_next(self) -> None:
        """The table's next-phase button while a question waits: the next option."""
        with self._lock:
            if self.question is not None:
                self.highlighted = (self.highlighted + 1) % len(self.question[1])
                self._changed()

    def drop_question(self) -> None:
        """The game has moved past the question (answered some other way)."""
        with self._lock:
            if self.question is not None:
                self.question = None
                self._changed()

    def answer(self, role: str, choice: int, source: str = "tablet") -> list[dict[str, Any]]:
        """The chosen option is applied like any action; the question is then closed."""
        with self._lock:
            if self.question is None:
                raise PermissionError("no question is waiting for an answer")
            options = self.question[1]
            if not 0 <= choice < len(options):
                raise PermissionError(f"choose one of the {len(options)} options")
            events = self.act(role, options[choice], source)
            self.question = None
            self._changed()
            return events

    def _question_for(self, role: str) -> dict[str, Any] | None:
        """The options may name the acting side's hidden blocks: only it and the referee
        see them; everyone else sees that a question waits."""
        if self.question is None:
            return None
        text, options = self.question
        owner = options[0].role if options else None
        shown = role in (owner, REFEREE)
        return {"text": text, "by": owner,
                "options": [a.text() for a in options] if shown else [],
                "highlighted": self.highlighted if shown else None}

    def scanned(self, code: str, role: str) -> CardScanned:
        """A card code typed into a screen: an input event like any scanner's (6)."""
        with self._lock:
            event = CardScanned(code, f"tablet:{role}", time.monotonic())
            self.inputs = [*self.inputs[-19:], event]
            self._changed()
        if self.inputs_to is not None:
            self.inputs_to(event)
        return event

    def pause(self, paused: bool) -> None:
        """The referee stops (or restarts) the players' and sensors' actions."""
        with self._lock:
            self.paused = paused
            self._changed()

    def undo(self, by: str) -> None:
        with self._lock:
            try:
                self.session.undo(by=by)
            except UndoRefused:
                raise
            self._changed()

    def correct(self, args: dict[str, Any], by: str, note: str) -> None:
        with self._lock:
            self.session.correct(args, by=by, note=note)
            self._changed()

    def _changed(self) -> None:
        self.version += 1
        for role, inbox in list(self._subscribers):
            inbox.put(self.view(role))

    def subscribe(self, role: str) -> Iterator[dict[str, Any]]:
        """Views for `role`, the current one first, then one after every change."""
        inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        entry = (role, inbox)
        with self._lock:
            self._subscribers.append(entry)
            inbox.put(self.view(role))
        try:
            while True:
                try:
                    yield inbox.get(timeout=15)
                except queue.Empty:
                    yield {}  # a keep-alive, so dead connections are noticed
        finally:
            with self._lock:
                self._subscribers.remove(entry)

    @property
    def pairing(self) -> dict[str, str]:
        """Role -> the pairing link on offer (the table display shows it as a QR code)."""
        return {role: url for role, (_, url) in self._offers.items()}

    def offer_pairing(self, role: str, base_url: str) -> str:
        """A fresh token for `role`, offered on the table display until a phone uses it."""
        with self._lock:
            token = self.tokens.issue(role)
            url = f"{base_url}/play#token={token}"
            self._offers[role] = (token, url)
            self._changed()
            return url

    def pairing_used(self, token: str) -> None:
        """A phone has fetched its view: take its QR code off the table display."""
        with self._lock:
            used = [r for r, (t, _) in self._offers.items() if t == token]
            for r in used:
                del self._offers[r]
            if used:
                self._changed()

    @property
    def subscribers(self) -> int:
        return len(self._subscribers)
