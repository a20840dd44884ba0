"""Referee a filmed game (`companion review VIDEO --game GAME`, issue 33).

A film of a whole game (a phone on a stand, any file OpenCV reads) goes frame by frame through
the same pipeline as a live camera: the game's table reader and tracker, its table referee,
the generic table session, the engine and the SQLite record. The stored game is a new game in
the store, marked as reviewed from its film (the table-state key `review`).

What a film cannot show is asked of the person reviewing it, never guessed:

- the referee's own questions (several actions fit what the table shows, a choice the rules
  leave to a player, a doubt of the camera), with the options it gives;
- "what happened here?" when the film shows a table the record cannot explain (the referee's
  alert): a card scanned, a button pressed, a secret choice made on a phone or cards dealt face
  down happened off the film. The options are the legal actions; each answer is played and the
  table is compared with the record again, until they agree (then the film is trusted again);
- "anything more?" when the film ends before the game does.

A question stops the reading: every later action depends on its answer. It is kept with the
frame that raised it (a JPEG under the user's data folder) and its number; `answers` (from
`--answers FILE.json`: number -> option index or action text) answer it, and reading goes on
from the last still table before it. The same holds for a review stopped on purpose
(`max_frames`) or by an interruption: the stored game keeps where to go on from, and reviewing
the same film again continues there.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.engine import REFEREE, Action, IllegalAction, say
from companion.games import AnyGame, game
from companion.i18n import DEFAULT, LANGUAGES
from companion.record import replay
from companion.record.session import Session
from companion.record.store import Store
from companion.table import TableSetup
from companion.table.session import TableSession
from companion.userdata import data_dir
from companion.vision.sources import quiet_opencv
from companion.web.hub import Hub
from companion.web.replays import sentences_in

__all__ = ["CHANGE", "END", "FILM_ENDED", "KEY", "NOTHING", "OFF_FILM", "REFEREE_QUESTION",
           "Answerer", "Asked", "ReviewOptions", "ReviewReport", "review", "reviews_folder"]

log = logging.getLogger(__name__)

KEY = "review"
"""The table-state key of a reviewed game: its film, where to go on, its questions."""
END = "end"
"""The answer to "anything more?" when nothing more was played after the film ends."""
NOTHING = "none"
"""The answer to "what happened off the film?" when nothing did (the change the film shows
is all there was)."""
SOURCE = "tablet"
"""The record's source of an action a reviewer entered: a person's, on a screen (the record
knows no other; the game is marked as reviewed from its film)."""
AGAIN = 4
"""How many actions one change the film showed may be read as, once what happened off the
film before it is entered."""
REFEREE_QUESTION, OFF_FILM, CHANGE, FILM_ENDED = ("referee", "off film", "change",
                                                   "film ended")


@dataclass(frozen=True)
class ReviewOptions:
    film: Path
    game: str
    db: Path | None = None
    """The game store (the user's own by default)."""
    answers: Mapping[str, int | str] = field(default_factory=dict)
    """Question number -> the chosen option's index, or its action's text (`END` for
    "nothing more" when the film has ended)."""
    max_frames: int | None = None
    """Stop after reading this many frames in this run (go on from there next time)."""


@dataclass(frozen=True)
class Asked:
    """A question the review put: its number, the frame that raised it and the options."""

    number: int
    kind: str
    """`REFEREE_QUESTION`, `OFF_FILM` or `FILM_ENDED`."""
    frame: int
    text: str
    options: tuple[Action, ...]
    words: tuple[str, ...]
    """The options as the referee's screen says them."""
    image: str = ""
    """The frame (JPEG) that raised it; "" when the film had ended."""
    recorded: int = 0
    """Actions in the record when it was asked (the answer is the next)."""
    said: Mapping[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    """The text and the words in each other language (`companion.i18n.LANGUAGES`)."""

    def to_data(self) -> dict[str, Any]:
        return {"number": self.number, "kind": self.kind, "frame": self.frame,
                "recorded": self.recorded,
                "text": self.text, "options": [a.text() for a in self.options],
                "words": list(self.words), "image": self.image,
                "said": {lang: {"text": text, "words": list(words)}
                         for lang, (text, words) in self.said.items()}}


Answerer = Callable[[Asked], int | str | None]
"""Answers a question: an option's index, an action's text, `END`; None leaves it waiting."""


@dataclass
class ReviewReport:
    film: str = ""
    game: str = ""
    game_id: int = 0
    db: str = ""
    frames: int = 0
    """Frames in the film (as its header says; 0 when it does not)."""
    frames_read: int = 0
    """Frames read in this run."""
    next_frame: int = 0
    """Where reading goes on next time."""
    actions: int = 0
    """Actions in the record."""
    read: int = 0
    """Actions read from the film by the referee in this run (the rest were answered)."""
    questions: int = 0
    """Questions put so far (all runs)."""
    answered: int = 0
    """Questions answered in this run."""
    pending: dict[str, Any] | None = None
    """The question waiting for an answer, if any."""
    alerts: list[dict[str, Any]] = field(default_factory=list)
    """Alerts raised in this run, each with its frame."""
    finished: bool = False
    """The film is read to its end and nothing waits."""
    record_verified: bool = False
    fps: float = 0.0
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def reviews_folder(game_id: int) -> Path:
    """Where a reviewed game's question frames are kept (the user's data folder)."""
    return data_dir() / "reviews" / f"game-{game_id}"


def review(options: ReviewOptions, answerer: Answerer | None = None,
           progress: Callable[[int, int], None] = lambda _done, _total: None) -> ReviewReport:
    """Read `options.film` (from where its last review stopped) into its stored game; the
    questions are answered by `answerer` (then by `options.answers`) or left waiting."""
    quiet_opencv()
    spec = game(options.game)
    film = options.film.resolve()
    capture = cv2.VideoCapture(str(film))
    if not capture.isOpened():
        raise OSError(f"OpenCV cannot read the video {film}")
    store = Store(options.db)
    try:
        reviewer = _Reviewer(spec, store, film, _answers(options.answers, answerer))
        try:
            reviewer.read(capture, options.max_frames, progress)
        finally:
            reviewer.keep()
        return reviewer.report()
    finally:
        capture.release()
        store.close()


def _answers(given: Mapping[str, int | str], answerer: Answerer | None) -> Answerer:
    def answer(asked: Asked) -> int | str | None:
        chosen = answerer(asked) if answerer is not None else None
        return given.get(str(asked.number)) if chosen is None else chosen
    return answer


class _Reviewer:
    """One review run: the stored game, its table session, and where the film is."""

    def __init__(self, spec: AnyGame, store: Store, film: Path, answer: Answerer) -> None:
        self.spec, self.store, self.film, self.answer = spec, store, film, answer
        found = _reviewed_game(store, spec.name, film)
        if found is None:
            rules = spec.rules(_kit(spec), None)
            session = Session.start(store, spec.name, players=dict.fromkeys(rules.roles,
                                                                            "filmed"))
            self.kept: dict[str, Any] = {"film": str(film), "frame": 0, "asked": 0}
            store.put_table_state(session.game_id, KEY, self.kept)
        else:
            session = Session.resume(store, found)
            self.kept = store.table_state(found)[KEY]
        self.hub = Hub(session)
        setup = spec.need_simulator().setup() if spec.simulator is not None else TableSetup()
        self.table = TableSession(self.hub, spec.need_table()(session.game.rules, setup))
        pending = self.kept.get("pending") or {}
        self.resumed: str | None = pending.get("kind") if pending.get("kind") in (
            OFF_FILM, CHANGE) else None
        """A question about what happened off the film waited: the change that raised it is
        seen again (the tracker is shown the table before it first)."""
        if self.resumed is None:
            self.table.resume()  # a desync kept: the table is still out of order
        self.frame = int(self.kept.get("frame", 0))
        self.before_change = int(self.kept.get("before", self.frame))
        """Where the still table before the last change begins (its first agreeing frame)."""
        self.resume_at = self.before_change if self.resumed else self.frame
        self.agree = int(getattr(self.table.tracker, "agree", 3))
        self.frames_read = self.read_actions = self.answered = 0
        self.alerts: list[dict[str, Any]] = []
        self.total = 0
        self.seconds = 0.0
        self.waiting: Asked | None = None
        self.last_diff: Any = None
        """The last change the camera reported (judged again once what happened off the
        film before it is entered)."""
        self.unexplained = False
        """The referee said nothing of the last change the film showed: what made it a move
        happened off the film (the game's set-up drawn by the companion, a card scanned), or
        nothing did (`NOTHING`)."""
        self.first_table = True
        """The next stable table is the first of this run (compared with the record, not a
        change)."""

    # --- reading ------------------------------------------------------------------------------

    def read(self, capture: cv2.VideoCapture, max_frames: int | None,
             progress: Callable[[int, int], None]) -> None:
        self.total = int(capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        if self.kept.get("done"):
            return  # reviewed to its end already
        if self.kept.get("ended"):
            self._film_ended()
            return
        start = self.before_change if self.resumed else self.frame
        for _ in range(start):  # decoded, not sought: exact whatever the container
            if not capture.grab():
                break
        if self.resumed:
            self._show_table_before(capture, self.frame - start)
        if not self._questions(None):  # one left waiting last time, answered now?
            return
        while max_frames is None or self.frames_read < max_frames:
            ok, image = capture.read()
            if not ok:
                self.kept["ended"] = True
                self._film_ended()
                return
            self._frame(image)
            progress(self.frame, self.total)
            if not self._questions(image):
                return

    def _frame(self, image: np.ndarray) -> None:
        """One frame through the table session; a new stable table is where reading would go
        on from (its first agreeing frame); an alert is kept with its frame; a change the
        referee says nothing about while the table and the record disagree is unexplained
        (something happened off the film)."""
        started = time.perf_counter()
        counts = self.table.counts
        before = (counts.actions, counts.alerts, counts.questions)
        diff = self.table.on_frame(image)
        self.read_actions += counts.actions - before[0]
        if counts.alerts > before[1] and self.hub.alert is not None:
            alert = self.hub.alert
            self.alerts.append({"frame": self.frame, "rule": alert.rule,
                                "message": str(alert.message),
                                "image": self._save(image, f"alert-frame-{self.frame}")})
        if diff is not None:
            self.before_change, self.resume_at = (self.resume_at,
                                                  max(0, self.frame - self.agree + 1))
            self.last_diff = diff
            self.unexplained = (counts.actions, counts.alerts, counts.questions) == before \
                and not self.first_table
            self.first_table = False
        if counts.actions > before[0]:
            self.table.settle()
        self.frame += 1
        self.frames_read += 1
        self.seconds += time.perf_counter() - started

    def _show_table_before(self, capture: cv2.VideoCapture, frames: int) -> None:
        """The tracker (only) sees the still table before the change a waiting question is
        about, so that the change is reported again once the question is answered."""
        for _ in range(frames):
            ok, image = capture.read()
            if not ok:
                break
            self.table.tracker.feed(self.table.parts.reader.read(image))
        self.first_table = self.table.tracker.stable is None

    def _table_matches(self) -> bool:
        table = self.table
        return table.tracker.stable is not None \
            and table.referee.table_matches(table.state, table.tracker.stable)

    def _questions(self, image: np.ndarray | None) -> bool:
        """Ask what waits (the referee's question, or what happened off the film while the
        table and the record disagree) until nothing does; False when one is left
        unanswered (reading stops)."""
        while True:
            asked = self._next_question(image)
            if asked is None:
                return True
            if not self._apply(asked, self.answer(asked)):
                self.waiting = asked
                return False

    def _next_question(self, image: np.ndarray | None) -> Asked | None:
        hub, game_now = self.hub, self.hub.session.game
        if game_now.outcome is not None:
            return None
        if hub.question is not None:
            text, options = hub.question
            return self._ask(REFEREE_QUESTION, text, options, image)
        if self.resumed is not None:
            return self._ask(self.resumed, str(self.kept.get("pending", {}).get("text", "")),
                             tuple(game_now.legal_actions()), image)
        if self.table.referee.desync is not None:
            return self._ask(OFF_FILM, "The film shows a table the record cannot explain: "
                             "what happened before this frame that the film does not show "
                             "(a card, a button, a secret choice)?",
                             tuple(game_now.legal_actions()), image)
        if self.unexplained:
            return self._ask(CHANGE, "The referee read nothing from this change: did "
                             "something happen before it that the film does not show (a "
                             "card, a button, a secret choice, the set-up drawn)? none: "
                             "nothing did", tuple(game_now.legal_actions()), image)
        return None

    def _film_ended(self) -> None:
        """The film is over: what was played after it (off film) until the reviewer says
        nothing more was, or the game is over."""
        while self.hub.session.game.outcome is None:
            asked = self._next_question(None) or self._ask(
                FILM_ENDED, "The film has ended: what was played after it? (end: nothing)",
                tuple(self.hub.session.game.legal_actions()), None)
            chosen = self.answer(asked)
            if chosen == END:  # whatever waits: nothing more was played
                self.kept["done"] = True
                self._number(asked)
                return
            if not self._apply(asked, chosen):
                self.waiting = asked
                return
        self.kept["done"] = True

    def _ask(self, kind: str, text: str, options: tuple[Action, ...],
             image: np.ndarray | None) -> Asked:
        """The question numbered (the same number again while it waits across runs), said in
        every language (`text` a `Sentence` or a constant message of a catalog)."""
        number = int(self.kept.get("asked", 0)) + 1
        state, rules = self.hub.session.game.state, self.hub.session.game.rules
        words = tuple(str(rules.say(state, a, REFEREE)) for a in options)
        said = {lang: (say(text, sentences_in(rules, lang, "companion.review")),
                       tuple(str(rules.say(state, a, REFEREE, lang)) for a in options))
                for lang in LANGUAGES if lang != DEFAULT}
        frame = self.frame - 1 if image is not None else self.frame
        saved = self._save(image, f"question-{number}-frame-{frame}") if image is not None \
            else str(self.kept.get("pending", {}).get("image", ""))
        return Asked(number, kind, frame, str(text), options, words, saved,
                     len(self.hub.session.entries), said)

    def _number(self, asked: Asked) -> None:
        self.kept["asked"] = asked.number
        self.kept.pop("pending", None)
        self.resumed = None

    def _apply(self, asked: Asked, chosen: int | str | None) -> bool:
        """Play the chosen option (the referee's question answered, or an action that
        happened off the film); False when there is no answer yet or it does not fit."""
        game_now = self.hub.session.game
        if chosen == NOTHING and asked.kind == CHANGE:
            self._number(asked)
            self.unexplained = False
            return True
        action = _chosen(asked, chosen)
        if action is None or (action not in asked.options
                              and not game_now.rules.accepts(game_now.state, action)):
            return False
        try:
            if action in asked.options and asked.kind == REFEREE_QUESTION:
                self.hub.answer(REFEREE, asked.options.index(action), source=SOURCE)
            else:  # none of the referee's options: what the reviewer saw happen instead
                self.hub.drop_question()
                self.hub.act(REFEREE, action, SOURCE)
                self.table.forget_inputs()
        except (IllegalAction, PermissionError) as exc:
            log.warning("answer %s to question %d refused: %s", chosen, asked.number, exc)
            return False
        self._number(asked)
        self.answered += 1
        self.table.recheck()
        if asked.kind != FILM_ENDED and (asked.kind != REFEREE_QUESTION
                                         or action not in asked.options):
            self._explain()
        self.table.settle()
        return True

    def _explain(self) -> None:
        """After an action that happened off the film: the table is the record's (then it
        is trusted again), or the last change is judged again against the record as it is
        now (a roll read once the button that started it is entered)."""
        self.unexplained = False
        if (self.table.referee.desync is None and self._table_matches()) \
                or self.last_diff is None:
            return
        counts = self.table.counts
        for _ in range(AGAIN):  # a roll read, then its dice from the same change
            before = (counts.actions, counts.alerts, counts.questions)
            self.table.judge_again(self.last_diff)
            self.read_actions += counts.actions - before[0]
            if (counts.actions, counts.alerts, counts.questions) == before:
                self.unexplained = not self._table_matches()
                return
            if counts.actions == before[0] or self._table_matches():
                return
            self.table.settle()
            if self.hub.question is not None:
                return

    def _save(self, image: np.ndarray, name: str) -> str:
        folder = reviews_folder(self.hub.session.game_id)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.jpg"
        cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        return str(path)

    # --- keeping and reporting ------------------------------------------------------------

    def keep(self) -> None:
        """Where to go on next time (the last still table's first frame) and the question
        that waits, in the store."""
        if self.resumed is None:  # else: still where it was, the question still waiting
            self.kept["frame"] = self.frame if self.kept.get("ended") else self.resume_at
            self.kept["before"] = self.before_change
        if self.waiting is not None:
            self.kept["pending"] = self.waiting.to_data()
        seen = {alert["frame"]: alert for alert in [*self.kept.get("alerts", []), *self.alerts]}
        self.kept["alerts"] = [seen[frame] for frame in sorted(seen)]  # each with its frame
        self.store.put_table_state(self.hub.session.game_id, KEY, self.kept)

    def report(self) -> ReviewReport:
        session = self.hub.session
        record = self.store.load(session.game_id)
        pending = self.kept.get("pending") if self.waiting is not None else None
        return ReviewReport(
            film=str(self.film), game=self.spec.name, game_id=session.game_id,
            db=str(self.store.path), frames=self.total, frames_read=self.frames_read,
            next_frame=int(self.kept["frame"]), actions=len(session.entries),
            read=self.read_actions, questions=int(self.kept.get("asked", 0))
            + (1 if pending else 0), answered=self.answered, pending=pending,
            alerts=self.alerts, finished=bool(self.kept.get("done")) and pending is None,
            record_verified=replay(record).ok,
            fps=round(self.frames_read / max(self.seconds, 1e-9), 2),
            seconds=round(self.seconds, 1))


def _chosen(asked: Asked, chosen: int | str | None) -> Action | None:
    """The option an answer names: its index (as a number or digits) or its action's text
    (any action the rules accept: chance's draws are not listed, and the referee's options
    may all be wrong)."""
    if chosen is None or chosen == END:
        return None
    if isinstance(chosen, int) or chosen.strip().isdigit():
        index = int(chosen)
        return asked.options[index] if 0 <= index < len(asked.options) else None
    try:
        action = Action.from_text(chosen)
    except ValueError:
        return None
    return action


def _reviewed_game(store: Store, name: str, film: Path) -> int | None:
    """The stored game reviewed from `film` (its newest), if any."""
    for row in store.games():
        if row.game == name and store.table_state(row.id).get(KEY, {}).get("film") == str(film):
            return row.id
    return None


def _kit(spec: AnyGame) -> Any:
    from companion.kits import load_kit

    return load_kit(spec.kit)
