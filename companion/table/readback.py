"""How much of a scripted game a game's table referee reads back, verb by verb.

Each game's simulated player turns a scripted action into table inputs (`acting.py`); `feed`
gives them to the game's `TableReferee`, and `ReadBack.count` sorts the rulings: the scripted
action proposed (recovered), offered among a question's options (asked), or not (missed, with
what the referee said instead). `companion bench referee` reports the sums for any game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from companion.engine.core import CAUSES, Action, Proposal, Question, Ruling
from companion.table import TableReferee
from companion.table.acting import Press, Scan, TableInput

__all__ = ["MISSES_KEPT", "ReadBack", "feed"]

MISSES_KEPT = 10
"""Misses kept word for word, to show what the referee said instead."""


@dataclass
class ReadBack:
    """Verb by verb: actions the referee proposed, asked about (the script's among the
    options), missed (an alert, nothing or something else), or that nobody sees at the table
    (hidden: cards dealt face down, a set-up the companion draws)."""

    recovered: Counter[str] = field(default_factory=Counter)
    asked: Counter[str] = field(default_factory=Counter)
    causes: Counter[str] = field(default_factory=Counter)
    """The asked actions by the cause of their question (choice, doubt, confirmation)."""
    missed: Counter[str] = field(default_factory=Counter)
    hidden: Counter[str] = field(default_factory=Counter)
    first_misses: list[str] = field(default_factory=list)

    def count(self, action: Action, rulings: Iterable[Ruling]) -> None:
        """Where the scripted `action` stands among what the referee said for it."""
        said = list(rulings)
        if any(isinstance(r, Proposal) and r.action == action for r in said):
            self.recovered[action.verb] += 1
        elif asking := next((r for r in said if isinstance(r, Question)
                             and action in r.options), None):
            self.asked[action.verb] += 1
            self.causes[asking.cause.kind] += 1
        else:
            self.missed[action.verb] += 1
            if len(self.first_misses) < MISSES_KEPT:
                brief = "; ".join(_brief(r) for r in said) or "nothing"
                self.first_misses.append(f"{action.text()[:120]} -> {brief[:200]}")

    def add(self, other: ReadBack) -> None:
        """Count `other`'s game in too (the first misses up to MISSES_KEPT in all)."""
        for mine, theirs in ((self.recovered, other.recovered), (self.asked, other.asked),
                             (self.missed, other.missed), (self.hidden, other.hidden),
                             (self.causes, other.causes)):
            mine.update(theirs)
        self.first_misses += other.first_misses[:MISSES_KEPT - len(self.first_misses)]

    def summary(self) -> dict[str, Any]:
        total = sum((self.recovered + self.asked + self.missed).values())
        return {"actions": total, "recovered": sum(self.recovered.values()),
                "asked": sum(self.asked.values()), "missed": sum(self.missed.values()),
                "hidden": sum(self.hidden.values()), "asked_by_verb": dict(self.asked),
                "asked_by_cause": {cause: self.causes[cause] for cause in CAUSES},
                "missed_by_verb": dict(self.missed), "first_misses": self.first_misses}


def feed(referee: TableReferee, state: Any, inputs: Iterable[TableInput]) -> list[Ruling]:
    """Every input in turn to the referee, judged against `state`; all its rulings."""
    rulings: list[Ruling] = []
    for item in inputs:
        if isinstance(item, Scan):
            rulings += referee.on_card(state, item.code)
        elif isinstance(item, Press):
            rulings += referee.on_button(state, item.name)
        else:
            rulings += referee.on_diff(state, item.diff)
    return rulings


def _brief(ruling: Ruling) -> str:
    if isinstance(ruling, Proposal):
        return f"Proposal: {ruling.action.text()}"
    if isinstance(ruling, Question):
        return f"Question: {len(ruling.options)} options"
    return f"Alert: {ruling.rule} {ruling.message}"
