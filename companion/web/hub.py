"""The live table: one recorded game session, who may see and do what, and live updates.

The hub is the web layer's only way into the game. It applies actions through the recording
session (so an action is acknowledged only once durable), turns the engine's per-role views into
what each connected screen receives, and pushes a fresh view to every subscriber after each
change. A subscriber only ever receives the view of its own role.
"""

from __future__ import annotations

import asyncio
import hashlib
import queue
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from companion.engine import CHANCE, PUBLIC, REFEREE, Action, Alert, Cause, IllegalAction, say
from companion.engine.core.sentence import Sentence, from_data, to_data
from companion.i18n import DEFAULT
from companion.inputs.events import CardScanned
from companion.record.session import Session, UndoRefused
from companion.web.about import GameAbout, describe
from companion.web.gamelog import GameLog
from companion.web.replays import outcome_said, sentences_in

__all__ = ["NOT_YOUR_CARD", "PAUSED", "Alert", "Hub", "PairingGone", "Tokens", "source_of"]

NOT_YOUR_CARD = "this screen sends only its own side's cards, when they can be played"
"""The one refusal of a code typed on a phone that is not its side's to play now: the same
words whatever the code, so that trying codes tells nothing about the other side's cards."""
PAUSED = "The game is paused by the referee"
"""The one answer to a change a phone attempts while the referee has paused the game."""
PAIRING_TTL = 600.0
"""Seconds a pairing offer stays valid: a photographed QR code is no use later."""
CODE_LETTERS = "ACDEFHJKMNPRTUVWXY34679"
"""Letters of a pairing's confirmation code: none that look alike on a phone's screen."""


def source_of(role: str) -> str:
    """The record's `source` for an action sent from a screen: set by the server from the
    credential, never from the request (a phone cannot claim to be the camera)."""
    return "tablet" if role == REFEREE else "phone"


class PairingGone(LookupError):
    """A pairing secret that is unknown, used already, revoked by a newer offer, or expired."""


@dataclass
class Offer:
    """A phone pairing on offer for a role: a one-time secret in a QR code on the referee's
    screen; claimed by a phone (which then shows a short code), confirmed by the referee."""

    role: str
    secret: str
    url: str
    created: float
    digits: str = ""
    """Six digits a player may type on the phone instead of scanning the QR code."""
    device: str | None = None
    """The token issued to the phone that claimed the secret (not valid until confirmed)."""
    code: str | None = None
    """The code the claiming phone shows, which the referee confirms."""


def digest(token: str) -> str:
    """What is kept of a phone's token: its SHA-256 (a token is 24 random bytes, so its digest
    cannot be turned back into it, and a copied database pairs no phone)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Tokens:
    """Per-role bearer tokens: the referee's and the tests' (in memory), and the paired phones
    (kept as digests in the game's database, so a restart keeps them; revocable)."""

    roles: dict[str, str] = field(default_factory=dict)
    paired: dict[str, str] = field(default_factory=dict)
    """Paired phones: token digest -> role."""
    keep: Callable[[str, str], None] | None = None
    """Store a paired phone's digest and role (the game's database)."""
    forget: Callable[[str], object] | None = None
    """Remove a role's paired phones from the database."""

    def issue(self, role: str) -> str:
        token = secrets.token_urlsafe(24)
        self.roles[token] = role
        return token

    def pair(self, token: str, role: str) -> None:
        """A phone confirmed for `role`: kept (as a digest) across restarts."""
        self.paired[digest(token)] = role
        if self.keep is not None:
            self.keep(digest(token), role)

    def revoke(self, role: str) -> int:
        gone = [t for t, r in self.roles.items() if r == role]
        for token in gone:
            del self.roles[token]
        phones = [d for d, r in self.paired.items() if r == role]
        for key in phones:
            del self.paired[key]
        if phones and self.forget is not None:
            self.forget(role)
        return len(gone) + len(phones)

    def role(self, token: str | None) -> str:
        """The token's role; the public role without a (valid) token."""
        if not token:
            return PUBLIC
        return self.roles.get(token) or self.paired.get(digest(token), PUBLIC)


Subscriber = tuple[str, str, Callable[[dict[str, Any]], None]]
"""A live screen: its role, its language, and how a fresh view reaches it."""


class Hub:
    def __init__(self, session: Session) -> None:
        self.session = session
        store, game_id = session.store, session.game_id
        self.tokens = Tokens(
            paired=store.devices(game_id),
            keep=lambda key, role: store.pair_device(game_id, key, role, session.clock()),
            forget=lambda role: store.revoke_devices(game_id, role))
        self._lock = threading.RLock()
        self._subscribers: list[Subscriber] = []
        self.alert: Alert | None = None
        self.version = 0
        self.paused = False
        self.question: tuple[str, tuple[Action, ...]] | None = None
        """A question from the referee (several actions fit what the table shows)."""
        self.notice: tuple[str, int] | None = None
        """A reading played at once (`Proposal.notice`) and its record line: shown big, with
        one tap to take it back, while it is still the last action in force (issue 36)."""
        self.question_cause: Cause | None = None
        """Why the waiting question is asked (a player's choice, a camera's doubt, a
        confirmation); None for a question put without one (a test's, an older store's)."""
        self.highlighted = 0
        """The option the table's confirm button would choose."""
        self.inputs: list[CardScanned] = []
        """Card codes typed on a screen (the scanners' fallback), newest last."""
        self.inputs_to: Callable[[CardScanned], None] | None = None
        """Where typed codes go as input events (the live table's queue), if anywhere."""
        self.card_owner: Callable[[str], str | None] | None = None
        """Who may play a card code now (the live table's referee): a phone's typed code goes
        on only if it is its own side's. None: no table reads cards."""
        self._offers: dict[str, Offer] = {}
        """Role -> the phone pairing on offer (shown on the referee's screen until confirmed)."""
        self.clock: Callable[[], float] = time.monotonic
        self.about: GameAbout = describe(session.game.rules, session.header.players)
        """The game as the page shell needs it: name, title, roles, its screen module."""
        self.log = GameLog(session)
        """Every recorded action in words, per role and language (the screens' game log)."""
        self.undo_request: tuple[str, int] | None = None
        """A player's request to take back its last action (role, the action's seq), for the
        referee to allow when a draw or a reveal since means the phone may not do it alone."""
        self._snapshots: set[int] = store.snapshot_seqs(game_id)
        kept = store.table_state(game_id)
        self.paused = bool(kept.get("paused", False))
        """The referee's pause, kept across a restart."""
        self._alternatives: tuple[Action, ...] = ()
        """The actions behind the alert's `legal` words, said again in each screen's language."""
        self._restore_question(kept.get("question"))
        self.new_set_check: Callable[[], Any] | None = None
        """Makes a set check of the physical set the live table reads (set by the live table:
        the web layer does not know the table's parts); None without a live table."""
        self.blind: tuple[str, ...] = ()
        """Zones the camera cannot see (a lamp's reflection saturates it there), as the live
        table last said; every screen says which, so the players move the lamp (#19)."""
        self.devices: dict[str, str] = {}
        """The table's devices that have stopped (the camera, the card reader) and why, as the
        live table last said: every screen shows a banner while one is listed."""
        self.set_check: Any = None
        """The set check while it runs (`companion.table.setcheck.SetCheck`): the camera and
        the reader feed it, not the game."""

    @property
    def lock(self) -> threading.RLock:
        """Held by whoever judges the state and then acts on it (the table session), so no
        other change lands in between."""
        return self._lock

    @property
    def roles(self) -> tuple[str, ...]:
        return self.session.game.rules.roles

    def view(self, role: str, lang: str = DEFAULT) -> dict[str, Any]:
        """Everything a screen of `role` shows, in `lang`: the engine's view plus the table's
        extras, every action in words (`Rules.say`), never raw action text to display."""
        with self._lock:
            game = self.session.game
            view = game.view(role)
            if isinstance(view, dict) and view.get("outcome"):  # its reason in `lang`
                view = {**view, "outcome": outcome_said(game, lang)}
            legal = game.legal_actions(role) if role in game.to_move() else []
            if role == REFEREE:
                legal = game.legal_actions()
            return {
                "version": self.version, "game_id": self.session.game_id,
                "game": self.about, "lang": lang,
                "view": view,
                "to_move": list(game.to_move()),
                "legal": [a.text() for a in legal],
                "choices": self._choices(legal, role, lang),
                "alert": self._alert_for(role, lang),
                "actions": len(self.session.entries),
                "pairing": self.pairing if role == REFEREE else {},
                "paused": self.paused,
                "question": self._question_for(role, lang),
                "notice": self._notice_for(role, lang),
                "inputs": [{"code": e.code, "reader": e.reader} for e in self.inputs]
                if role == REFEREE else [],
                "last": self.log.last(role, lang),
                "log": self.log.lines(role, lang,
                                      self._snapshots if role == REFEREE else set()),
                "undo_request": self._undo_request_for(role, lang),
                "picks": [p.to_json() for p in game.rules.picks(game.state, lang)]
                if role == REFEREE and CHANCE in game.to_move() else [],
                "set_check": self._set_check_for(role, lang),
                "blind": self._blind_places(),
                "stopped": [{"device": d, "reason": r if role == REFEREE else ""}
                            for d, r in self.devices.items()],  # why: a path, the referee's
            }

    def _blind_places(self) -> list[str]:
        """The places the camera cannot see, by their names on the map (public: the map is)."""
        names = {str(loc.id): str(loc.name) for loc in
                 getattr(self.session.game.rules.kit, "locations", ())}
        return [names.get(zone, zone.replace("_", " ")) for zone in self.blind]

    def camera_blind(self, zones: tuple[str, ...]) -> None:
        """The live table says where its camera cannot see now (nowhere: `()`)."""
        with self._lock:
            if zones != self.blind:
                self.blind = zones
                self._changed()

    def device_stopped(self, device: str, reason: str | None) -> None:
        """The live table says `device` has stopped (`reason`) or is back (None): every
        screen follows, and the record keeps a note of it (the table state's `stops`)."""
        with self._lock:
            if reason is None:
                self.devices.pop(device, None)
            else:
                self.devices[device] = reason
            store, game_id = self.session.store, self.session.game_id
            notes = list(store.table_state(game_id).get("stops", []))[-99:]
            notes.append({"device": device, "at": self.session.clock(),
                          "stopped": reason} if reason else
                         {"device": device, "at": self.session.clock(), "back": True})
            store.put_table_state(game_id, "stops", notes)
            self._changed()

    def _set_check_for(self, role: str, lang: str) -> dict[str, Any] | None:
        """The referee's set check: what it has named and what it misses (true identities:
        the referee's screen only). `available` says whether a table reads a set at all."""
        if role != REFEREE:
            return None
        if self.set_check is None:
            return {"available": self.new_set_check is not None, "running": False}
        kit_cards = [str(c.id) for c in getattr(self.session.game.rules.kit, "cards", ())]
        return {"available": True, "running": True, **self.set_check.report(kit_cards)}

    def start_set_check(self, running: bool) -> None:
        """The referee starts (or ends) the set check; the game waits meanwhile."""
        with self._lock:
            if running and self.new_set_check is None:
                raise PermissionError("no camera or reader reads a set here: the set check "
                                      "needs serve --camera")
            self.set_check = self.new_set_check() if running and self.new_set_check else None
            self._changed()

    def set_check_changed(self) -> None:
        """The live table fed the set check something new: the referee's screen follows."""
        with self._lock:
            self._changed()

    def _choices(self, legal: list[Action], role: str, lang: str) -> list[dict[str, Any]]:
        """The caller's legal actions, each in words: what its buttons and board show. The
        raw text goes with each, to be sent back, never shown."""
        game = self.session.game
        say = game.rules.say
        return [{"id": n, "text": a.text(), "role": a.role, "verb": a.verb,
                 "args": a.to_json()["args"], "words": say(game.state, a, role, lang)}
                for n, a in enumerate(legal)]

    def _alert_for(self, role: str, lang: str) -> dict[str, Any] | None:
        """The alert as `role` may read it, with the rule's summary in `lang`, a title and
        always a line saying what to do. The chance role is never named as the offender: a
        wrong draw or roll says which entry was wrong and that the referee enters it again."""
        if self.alert is None:
            return None
        shown = self.alert.for_role(role)
        rules = self.session.game.rules
        translate = sentences_in(rules, lang)
        actor = self.alert.role
        shown["title"] = "Entered wrongly" if actor == CHANCE else "Not allowed"
        if role not in (actor or REFEREE, REFEREE):
            shown["message"] = self._public_message(actor, lang)
        shown["message"] = say(shown["message"], translate)
        shown["summary"] = rules.rule_summary(self.alert.rule, lang)
        if shown["legal"] and len(self._alternatives) == len(self.alert.legal):
            state = self.session.game.state
            shown["legal"] = [rules.say(state, a, role, lang) for a in self._alternatives]
        else:  # words without actions behind them (level names, a table alert's choices)
            shown["legal"] = [say(word, translate) for word in shown["legal"]]
        shown["fix"] = say(shown.get("fix") or self._default_fix(actor, role), translate)
        shown["title"] = say(shown["title"], translate)
        return shown

    def _entry(self, lang: str) -> str:
        """The chance step waiting to be entered, as the referee's pickers title it ("Ishida
        draws 2 blocks for Osaka", "Roll for the initiative"); a plain phrase without one."""
        game = self.session.game
        picks = game.rules.picks(game.state, lang) if CHANCE in game.to_move() else []
        return picks[0].title if picks else ""

    def _public_message(self, actor: str | None, lang: str) -> Sentence:
        """What everyone but the acting side reads of a refusal: who, in the players' words
        (the message may name the actor's hidden pieces); for a wrong draw or roll, which
        entry, never the chance role."""
        if actor == CHANCE:
            entry = self._entry(lang)
            if entry:
                return Sentence("What was entered does not fit the rules: {entry}",
                                entry=entry)
            return Sentence("What was entered for a draw or a die roll does not fit the rules")
        if actor is None or actor == REFEREE:
            return Sentence("The table shows something the rules do not allow")
        return Sentence("{side}: this move is not allowed", side=Sentence(actor.capitalize()))

    @staticmethod
    def _default_fix(actor: str | None, viewer: str) -> Sentence:
        """What to do when the rules gave no fix of their own: every alert says one."""
        if actor == CHANCE:
            return Sentence("The referee enters it again, as it lies on the table")
        if actor is None or actor == REFEREE:
            return Sentence("Put the pieces back as the rule says, then go on")
        if viewer in (actor, REFEREE):
            return Sentence("Choose another move: the rule above says what is allowed")
        return Sentence("{side} chooses another move", side=Sentence(actor.capitalize()))

    def _undo_request_for(self, role: str, lang: str) -> dict[str, Any] | None:
        """A player's waiting undo request: the referee sees what it would take back."""
        if self.undo_request is None or role not in (REFEREE, self.undo_request[0]):
            return None
        who, seq = self.undo_request
        return {"role": who, "seq": seq, "words": self.log.words(seq, role, lang)}

    def act(self, role: str, action: Action, source: str,
            snapshot: bytes | None = None) -> list[dict[str, Any]]:
        """Apply an action for `role` (the referee may act for anyone); record (with the
        camera's frame that showed it, if any); notify.

        Raises IllegalAction (remembered for the legality panel) or PermissionError.
        """
        if role not in (action.role, REFEREE):
            raise PermissionError(f"the {role} device cannot act for {action.role}")
        if self.paused and role != REFEREE:
            raise PermissionError(PAUSED)
        with self._lock:
            before, lines = self.session.game.state, len(self.session.entries)
            try:
                events = self.session.play(action, source, snapshot=snapshot)
            except IllegalAction as exc:
                self.alert = self._refusal(exc, action)
                self._changed()
                raise
            finally:
                self.log.recorded(before, lines)
            if snapshot is not None:
                self._snapshots.add(self.session.entries[-1].seq)
            self.alert = None
            self.undo_request = None
            self._changed()
            return [e.to_json() for e in events]

    def _refusal(self, exc: IllegalAction, action: Action) -> Alert:
        """A refused action as the legality panel shows it: the rule and message, and the
        legal actions in words (said again in each screen's language where the refusal
        names the actions behind them)."""
        self._alternatives = exc.alternatives
        return Alert(exc.rule, exc.message, exc.legal, action.role,
                     fix="Choose one of the legal actions" if exc.legal else "")

    def raise_alert(self, alert: Alert) -> None:
        """The table shows something illegal (the referee's alert): on every screen, each
        role seeing what `Alert.for_role` allows."""
        with self._lock:
            self.alert = alert
            self._alternatives = ()
            self._changed()

    def clear_alert(self) -> None:
        with self._lock:
            if self.alert is not None:
                self.alert = None
                self._changed()

    def ask(self, text: str, options: tuple[Action, ...], cause: Cause | None = None) -> None:
        """Put a question on the screens: the acting side answers with a tap, or at the
        table with the buttons (next phase moves the highlight, confirm answers). It is kept
        in the database, so a restart asks it again."""
        with self._lock:
            self.question, self.question_cause = (text, options), cause
            self.highlighted = 0
            self._keep_question()
            self._changed()

    def _keep_question(self) -> None:
        kept = None if self.question is None else {
            "text": to_data(self.question[0]), "options": [a.text() for a in self.question[1]],
            "cause": self.question_cause.to_data() if self.question_cause else None}
        self.session.store.put_table_state(self.session.game_id, "question", kept)

    def _restore_question(self, kept: Any) -> None:
        """The question waiting when the server stopped, if its options are all still legal
        (the game has not moved on since)."""
        if not isinstance(kept, dict):
            return
        try:
            options = tuple(Action.from_text(str(text)) for text in kept.get("options", []))
        except ValueError:
            return
        game = self.session.game
        if options and all(game.rules.accepts(game.state, a) for a in options):
            self.question = (from_data(kept.get("text", "")), options)
            self.question_cause = Cause.from_data(kept.get("cause"))

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
                self._keep_question()
                self._changed()

    def answer(self, role: str, choice: int, source: str = "tablet") -> list[dict[str, Any]]:
        """The chosen option is applied like any action; the question is then closed."""
        with self._lock:
            if self.question is None:
                raise PermissionError("no question is waiting for an answer")
            asked, options = self.question, self.question[1]
            if not 0 <= choice < len(options):
                raise PermissionError(f"choose one of the {len(options)} options")
            # Closed before the action is applied: the views the action sends to every open
            # stream must not word the question's options in the position after it (a Rumble
            # Nation deployment cannot be said once its dice are used); put back if refused.
            self.question = None
            try:
                events = self.act(role, options[choice], source)
            except Exception:
                self.question = asked
                raise
            self._keep_question()
            self._changed()
            return events

    def notify(self, text: str, seq: int) -> None:
        """Show what the referee played at once from a sure reading (line `seq`), with one
        tap to take it back: confirmation by not objecting, not a question (issue 36)."""
        with self._lock:
            self.notice = (text, seq)
            self._changed()

    def _notice_for(self, role: str, lang: str) -> dict[str, Any] | None:
        """The notice while its line is the last in force; `take_back` for the credentials
        that may tap it (the referee and every paired player, not the shared display)."""
        last = self.session.last_in_force
        if self.notice is None or last is None or last.seq != self.notice[1]:
            return None
        translate = sentences_in(self.session.game.rules, lang)
        return {"text": say(self.notice[0], translate), "seq": self.notice[1],
                "take_back": role != PUBLIC and (role == REFEREE or not self.paused)}

    def take_back(self, role: str, seq: int) -> None:
        """One tap takes back a reading the referee played at once (a misread tray): by the
        referee or any paired player, while line `seq` is still the last in force, which
        also means that nothing was drawn or revealed since. PermissionError for the shared
        display or a paused game; UndoRefused once the game has moved on."""
        if role == PUBLIC:
            raise PermissionError("the table display cannot take an action back")
        with self._lock:
            if self.paused and role != REFEREE:
                raise PermissionError(PAUSED)
            last = self.session.last_in_force
            if self.notice is None or self.notice[1] != seq or last is None or last.seq != seq:
                raise UndoRefused("the game has moved on since that reading: ask the referee "
                                  "to correct it")
            self._undo_by(role)
            self.notice = None

    def _undo_by(self, role: str) -> None:
        """The last action in force taken back, recorded as `role`'s from its device; the
        log and every screen told."""
        before, lines = self.session.game.state, len(self.session.entries)
        try:
            self.session.undo(by=role, source=source_of(role))
        finally:
            self.log.recorded(before, lines)
        self.undo_request = None
        self._changed()

    def _question_for(self, role: str, lang: str) -> dict[str, Any] | None:
        """The options may name the acting side's hidden blocks: only it and the referee
        see them; everyone else sees that a question waits."""
        if self.question is None:
            return None
        text, options = self.question
        game = self.session.game
        owner = options[0].role if options else None
        shown = role in (owner, REFEREE)
        translate = sentences_in(game.rules, lang)
        cause = self.question_cause
        return {"text": say(text, translate), "by": owner,
                "why": say(cause.said(), translate) if cause else "",
                "cause": cause.kind if cause else None,
                "options": [a.text() for a in options] if shown else [],
                "words": [game.rules.say(game.state, a, role, lang) for a in options]
                if shown else [],
                "highlighted": self.highlighted if shown else None}

    def scanned(self, code: str, role: str) -> CardScanned:
        """A card code typed into a screen: an input event like any scanner's (6). A phone
        sends only its own side's cards: any other code (unknown, the opponent's, none the
        table reads) is refused with `NOT_YOUR_CARD`, the same words whatever it is."""
        with self._lock:
            if role != REFEREE:
                owner = self.card_owner(code) if self.card_owner is not None else None
                if owner is None or owner != role:
                    raise PermissionError(NOT_YOUR_CARD)
            event = CardScanned(code, f"tablet:{role}", time.monotonic())
            self.inputs = [*self.inputs[-19:], event]
            self._changed()
        if self.inputs_to is not None:
            self.inputs_to(event)
        return event

    def pause(self, paused: bool) -> None:
        """The referee stops (or restarts) the players' and sensors' actions."""
        with self._lock:
            self.session.store.put_table_state(self.session.game_id, "paused", paused or None)
            self.paused = paused
            self._changed()

    def undo(self, role: str) -> None:
        """Take back the last action in force. A player takes back only its own, and not
        while the referee has paused the game; the referee takes back anyone's. Who undid it
        and from where is the credential's, never the request's. Raises PermissionError, or
        UndoRefused when a draw or a reveal since forbids it."""
        with self._lock:
            if role != REFEREE:
                if self.paused:
                    raise PermissionError(PAUSED)
                last = self.session.last_in_force
                if last is None or last.action.role != role:
                    raise PermissionError("a phone takes back only its own last action: "
                                          "ask the referee")
            self._undo_by(role)

    def ask_undo(self, role: str) -> bool:
        """A player asks to take back its own last action: done at once where the phone may
        do it alone (nothing drawn or revealed since), else put to the referee (True)."""
        with self._lock:
            try:
                self.undo(role)
                return False
            except UndoRefused:
                last = self.session.last_in_force
                if last is None or last.action.role != role:
                    raise
                self.undo_request = (role, last.seq)
                self._changed()
                return True

    def settle_undo_request(self, allow: bool) -> None:
        """The referee allows (takes the action back, by the referee's authority) or
        declines a player's undo request."""
        with self._lock:
            request = self.undo_request
            self.undo_request = None
            if request is None:
                raise PermissionError("no undo request is waiting")
            last = self.session.last_in_force
            if allow:
                if last is None or last.seq != request[1]:
                    self._changed()
                    raise PermissionError("the game has moved on since the request")
                self.undo(REFEREE)
            else:
                self._changed()

    def correct(self, args: dict[str, Any], by: str, note: str) -> None:
        with self._lock:
            before, lines = self.session.game.state, len(self.session.entries)
            try:
                self.session.correct(args, by=by, note=note)
            finally:
                self.log.recorded(before, lines)
            self._changed()

    def _changed(self) -> None:
        """A fresh view to every subscriber, each role's view in each language computed
        once."""
        self.version += 1
        views: dict[tuple[str, str], dict[str, Any]] = {}
        for role, lang, deliver in list(self._subscribers):
            if (role, lang) not in views:
                views[role, lang] = self.view(role, lang)
            deliver(views[role, lang])

    def _subscribe(self, role: str, deliver: Callable[[dict[str, Any]], None],
                   lang: str = DEFAULT) -> Subscriber:
        entry = (role, lang, deliver)
        with self._lock:
            self._subscribers.append(entry)
            deliver(self.view(role, lang))
        return entry

    def unsubscribe(self, entry: Subscriber) -> None:
        with self._lock:
            if entry in self._subscribers:
                self._subscribers.remove(entry)

    def subscribe(self, role: str, lang: str = DEFAULT) -> Iterator[dict[str, Any]]:
        """Views for `role`, the current one first, then one after every change (a thread
        waits on them: the tests and the broadcast publisher)."""
        inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        entry = self._subscribe(role, inbox.put, lang)
        try:
            while True:
                try:
                    yield inbox.get(timeout=15)
                except queue.Empty:
                    yield {}  # a keep-alive, so dead connections are noticed
        finally:
            self.unsubscribe(entry)

    def subscribe_async(self, role: str, loop: asyncio.AbstractEventLoop, lang: str = DEFAULT
                        ) -> tuple[Subscriber, asyncio.Queue[dict[str, Any]]]:
        """The same views for a coroutine on `loop` (the server's live streams): an idle
        stream holds a queue, not a thread. Call `unsubscribe` with the first item when done."""
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        def deliver(view: dict[str, Any]) -> None:
            loop.call_soon_threadsafe(inbox.put_nowait, view)

        return self._subscribe(role, deliver, lang), inbox

    @property
    def pairing(self) -> dict[str, dict[str, str | None]]:
        """Role -> the pairing on offer, for the referee's screen only: its link (drawn as a
        QR code) until a phone claims it, then the code that phone shows, to confirm."""
        self._expire_offers()
        return {role: {"url": None if offer.device else offer.url,
                       "digits": None if offer.device else offer.digits, "code": offer.code}
                for role, offer in self._offers.items()}

    def offer_pairing(self, role: str, base_url: str) -> str:
        """A one-time secret for `role`'s phone; a new offer revokes the one before (and a
        phone that claimed it but was not confirmed)."""
        with self._lock:
            self._drop_offer(role)
            for other in [r for r, o in self._offers.items() if o.device is None]:
                del self._offers[other]  # one QR code on screen at a time: no phone scans
                # another player's by mistake
            secret = secrets.token_urlsafe(18)
            url = f"{base_url}/play#pair={secret}"
            digits = f"{secrets.randbelow(10**6):06d}"
            self._offers[role] = Offer(role, secret, url, self.clock(), digits)
            self._changed()
            return url

    def claim_pairing(self, secret: str) -> tuple[str, str]:
        """A phone presents the secret from the QR code: it gets its device token (not yet
        valid) and a code to show the referee. A secret is claimed once."""
        with self._lock:
            self._expire_offers()
            typed = secret.replace(" ", "")
            offer = next((o for o in self._offers.values()
                          if secrets.compare_digest(o.secret, secret)
                          or (len(typed) == 6 and secrets.compare_digest(o.digits, typed))),
                         None)
            if offer is None or offer.device is not None:
                raise PairingGone("this pairing code was used, replaced or has expired: "
                                  "ask the referee for a new one")
            offer.device = secrets.token_urlsafe(24)
            offer.code = "".join(secrets.choice(CODE_LETTERS) for _ in range(4))
            self._changed()
            return offer.device, offer.code

    def confirm_pairing(self, role: str, code: str) -> None:
        """The referee confirms the code the phone shows: the phone now acts as `role`, and
        any phone paired for `role` before is revoked."""
        with self._lock:
            offer = self._offers.get(role)
            if offer is None or offer.device is None or offer.code is None \
                    or not secrets.compare_digest(offer.code, code.strip().upper()):
                raise PermissionError(f"no phone has claimed {role}'s pairing with that code")
            self.tokens.revoke(role)
            self.tokens.pair(offer.device, role)
            del self._offers[role]
            self._changed()

    def revoke(self, role: str) -> int:
        """Every phone of `role` loses its token, and its pairing on offer goes."""
        with self._lock:
            self._drop_offer(role)
            gone = self.tokens.revoke(role)
            self._changed()
            return gone

    def _drop_offer(self, role: str) -> None:
        self._offers.pop(role, None)

    def _expire_offers(self) -> None:
        now = self.clock()
        for role in [r for r, o in self._offers.items() if now - o.created > PAIRING_TTL]:
            del self._offers[role]

    @property
    def subscribers(self) -> int:
        return len(self._subscribers)
