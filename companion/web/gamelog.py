"""The game log, as Board Game Arena keeps one: every recorded action in words, per viewer.

Each line is said by the game's rules (`Rules.say`) in the position where the action was taken,
as the screen's role may know it and in its language, so a phone never reads the other side's
hidden blocks in the log. The positions are kept as they are recorded (states are immutable
values: a reference each), so a new line costs one `say`, never a replay; a line once said for a
role and language is kept.
"""

from __future__ import annotations

from typing import Any

from companion.engine import REFEREE
from companion.engine.core.wording import worded
from companion.record.format import Entry
from companion.record.replay import UNDO
from companion.record.session import Session
from companion.web.replays import line_words, positions_of, rule_of

__all__ = ["LOG_LINES", "GameLog"]

LOG_LINES = 60
"""Lines of the log a screen receives (the newest); the replay viewer has the whole game."""


class GameLog:
    """The positions before each recorded line, and each line said once per role and language."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._before: list[Any] = []
        self._said: dict[tuple[int, str, str], str] = {}
        self._marks: dict[int, dict[str, Any]] = {}
        self._rebuild()

    def _rebuild(self) -> None:
        """The positions of a resumed game, from one replay of its record."""
        positions = positions_of(self.session.record())
        self._before = [state for _, state in positions.steps[:-1]]
        self._said.clear()
        self._marks.clear()

    def _sync(self) -> None:
        """Lines recorded past the hub (a test playing the session itself): replay once."""
        if len(self._before) != len(self.session.entries):
            self._rebuild()

    def recorded(self, before: Any, lines_before: int) -> None:
        """Lines were added to the record from the position `before`: keep it for each (an
        action adds one line; anything else, such as a store that had to resume, rebuilds)."""
        added = len(self.session.entries) - lines_before
        if added == 1 and len(self._before) == lines_before:
            self._before.append(before)
        elif added:
            self._rebuild()

    def words(self, seq: int, viewer: str, lang: str) -> str:
        """Record line `seq` (1-based) in words for `viewer`, in `lang` (said once, kept)."""
        self._sync()
        return line_words(self.session.game.rules, self.session.entries,
                          lambda line: self._before[line - 1], seq, viewer, lang, self._said)

    def marks(self, entry: Entry) -> dict[str, Any]:
        """What the board may mark for this line, for everyone (`Rules.marks`)."""
        index = entry.seq - 1
        if index not in self._marks:
            rules = self.session.game.rules
            self._marks[index] = worded(
                lambda: rules.marks(self._before[index], entry.action), dict,
                f"the marks of line {entry.seq}")
        return self._marks[index]

    def lines(self, viewer: str, lang: str, snapshots: set[int], *,
              limit: int = LOG_LINES) -> list[dict[str, Any]]:
        """The newest `limit` lines for a screen of `viewer`: words, who, from where, the rule
        a correction or refusal cites, and whether a later undo took the line back."""
        self._sync()
        rules = self.session.game.rules
        entries = self.session.entries
        undone = {int(e.action.args.get("seq", 0)) for e in entries
                  if e.action.role == REFEREE and e.action.verb == UNDO}
        lines = []
        for index in range(max(0, len(entries) - limit), len(entries)):
            entry = entries[index]
            rule = rule_of(entry.events)
            lines.append({
                "seq": entry.seq, "role": entry.action.role, "by": entry.by,
                "source": entry.source, "time": entry.time,
                "words": self.words(entry.seq, viewer, lang),
                "rule": rule, "summary": rules.rule_summary(rule, lang) if rule else "",
                "note": entry.note if viewer == REFEREE else None,
                "snapshot": entry.seq if entry.seq in snapshots else None,
                "undone": entry.seq in undone,
            })
        return lines

    def last(self, viewer: str, lang: str) -> dict[str, Any] | None:
        """The last action in force, in words and with its marks (the board's arrows)."""
        self._sync()
        entry = self.session.last_in_force
        if entry is None:
            return None
        return {"seq": entry.seq, "role": entry.action.role,
                "words": self.words(entry.seq, viewer, lang),
                "marks": self.marks(entry)}
