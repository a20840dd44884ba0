"""Stored games for the replay viewer, replayed once and kept as positions.

A replay viewer scrubs back and forth; replaying the record from its start for each step cost
0.2-0.74 s a request and let a few clients slow the live table down. States are immutable
values, so keeping every position of a game costs a reference each: a game is replayed once per
length of its record (a record only grows, an undo included, so its length tells a changed
record apart) and each step is then a lookup. `ReplayCache.stored` asks the store only for that
length (one row) before it reads and checks a whole record, so a step of a long game costs a
lookup and the view, never a load (`companion bench web`: `replay_step_ms_p95`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.engine import REFEREE, Event, Game, say
from companion.engine.core.wording import worded
from companion.i18n import Translate, translator
from companion.record.format import Entry, Record
from companion.record.replay import UNDO, Replayer
from companion.record.store import Store

__all__ = ["Positions", "ReplayCache", "game_package", "outcome_said", "sentences_in"]


@dataclass(frozen=True)
class Positions:
    """Every position of one stored game: after 0, 1, ... of its record's lines."""

    record: Record
    steps: tuple[tuple[int, Any], ...]
    """(lines replayed, state) after each prefix of the record; a line the rules refuse
    stops the replay there, as `replay` does."""
    rules: Any
    finished: bool
    said: dict[tuple[int, str, str], str] = field(default_factory=dict, compare=False,
                                                  repr=False)
    """Each line in words, once per (line, viewer, language): the move list is said once."""

    @property
    def total(self) -> int:
        return len(self.record.entries)

    def before(self, seq: int) -> Any:
        """The state in which record line `seq` (1-based) was taken."""
        return self.steps[seq - 1][1]

    @property
    def undone(self) -> frozenset[int]:
        """The lines a later undo line took back (they stay in the record, marked)."""
        return frozenset(int(e.action.args.get("seq", 0)) for e in self.record.entries
                         if e.action.role == REFEREE and e.action.verb == UNDO)

    def words(self, seq: int, viewer: str, lang: str) -> str:
        """Line `seq` said by the rules as `viewer` may know it, in `lang` (`line_words`, as
        the live game log says it)."""
        return line_words(self.rules, self.record.entries, self.before, seq, viewer, lang,
                          self.said)

    def at(self, lines: int | None) -> tuple[int, Game[Any]]:
        """(lines replayed, the game there) after the first `lines` lines (None: all)."""
        index = self.total if lines is None else max(0, min(lines, self.total))
        applied, state = self.steps[index]
        return applied, Game.from_state(self.rules, state)


def say_safely(rules: Any, state: Any, action: Any, viewer: str, lang: str) -> str:
    """The game's words for an action; where a game's `say` cannot word a recorded action
    (an old record's verb, a correction it does not expect), the engine's generic words, which
    name no hidden piece either, with the failure logged (`engine.core.wording`: raised under
    COMPANION_STRICT, as in the tests)."""
    from companion.engine.core.rules import Rules

    return worded(lambda: str(rules.say_recorded(state, action, viewer, lang)),
                  lambda: str(Rules.say(rules, state, action, viewer, lang)),
                  f"{action.role} {action.verb}")


def line_words(rules: Any, entries: Sequence[Entry], before: Callable[[int], Any], seq: int,
               viewer: str, lang: str, said: dict[tuple[int, str, str], str]) -> str:
    """Record line `seq` (1-based) in words as `viewer` may know it, in `lang`, said in the
    position `before(seq)` it was taken in; an undo line says the line it took back ("Taken
    back: ..."). Kept in `said`, once per line, viewer and language: the live game log and
    the replay's move list both say lines this way."""
    key = (seq, viewer, lang)
    if key not in said:
        entry = entries[seq - 1]
        if entry.action.role == REFEREE and entry.action.verb == UNDO:
            target = int(entry.action.args.get("seq", 0))
            undone = line_words(rules, entries, before, target, viewer, lang, said) \
                if 0 < target < seq else str(target)
            said[key] = translator(lang, "companion.web")("Taken back: {action}").format(
                action=undone)
        else:
            said[key] = say_safely(rules, before(seq), entry.action, viewer, lang)
    return said[key]


def game_package(rules: Any) -> str:
    """The package of a game's rules (`companion.games.NAME`), whose catalogs say its words."""
    return ".".join(type(rules).__module__.split(".")[:3])


def sentences_in(rules: Any, lang: str, *also: str) -> Translate:
    """What says the rules' sentences (refusals, fixes, questions, a game's end) in `lang`:
    the game's catalogs, then those of the packages `also` names (a tool's own questions),
    then the engine's, then the shell's."""
    return translator(lang, game_package(rules), *also, "companion.engine", "companion.web")


def outcome_said(game: Game[Any], lang: str) -> dict[str, Any] | None:
    """How the game ended, its reason said in `lang` (the rules write it as a `Sentence`; a
    game's catalog, the engine's and the shell's say it again); None while it goes on."""
    outcome = game.outcome
    if outcome is None:
        return None
    return {**outcome.to_json(),
            "termination": say(outcome.termination, sentences_in(game.rules, lang))}


def rule_of(events: Sequence[Event]) -> str:
    """The rule an entry's events cite, if any (a battle's, a correction's)."""
    for event in events:
        rule = event.data.get("rule")
        if isinstance(rule, str):
            return rule
    return ""


def positions_of(record: Record) -> Positions:
    replayer = Replayer(record.header, record.path)
    steps: list[tuple[int, Any]] = [(0, replayer.game.state)]
    applied, stopped = 0, False
    for entry in record.entries:
        if not stopped:
            stopped = replayer.feed(entry) is not None
            applied += not stopped
        steps.append((applied, replayer.game.state))
    return Positions(record, tuple(steps), replayer.game.rules,
                     replayer.game.outcome is not None)


class ReplayCache:
    """The positions of the last few stored games asked for."""

    def __init__(self, games: int = 8) -> None:
        self._games: OrderedDict[tuple[int, int], Positions] = OrderedDict()
        self._size = games
        self._lock = threading.Lock()

    def stored(self, store: Store, game_id: int) -> Positions:
        """The positions of stored game `game_id`: read from `store` only when its length
        changed since it was last replayed (StoreError or RecordError when it cannot be read)."""
        return self._get((game_id, store.game(game_id).entries), lambda: store.load(game_id))

    def positions(self, game_id: int, record: Record) -> Positions:
        return self._get((game_id, len(record.entries)), lambda: record)

    def _get(self, key: tuple[int, int], load: Callable[[], Record]) -> Positions:
        with self._lock:
            known = self._games.get(key)
            if known is not None:
                self._games.move_to_end(key)
                return known
        found = positions_of(load())
        with self._lock:
            self._games[key] = found
            while len(self._games) > self._size:
                self._games.popitem(last=False)
        return found
