"""Chance entered by hand: what a referee picks when the table's own bag, deck or dice decided.

At a real table the companion does not roll or draw: the players do, and the camera reads the
result. With no camera (the tablet alone), the referee enters what was drawn. A game says what
each pending chance step is as a `Pick`: the fields of the chance action to fill in, each with
what can be drawn (the bag's blocks, the deck's cards, a die's faces), so that a screen offers
pickers rather than a text field, and the action it sends is one `decide` judges like any other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.engine.core.values import Action

__all__ = ["Pick", "PickField"]


@dataclass(frozen=True)
class PickField:
    """One argument of a chance action, chosen from `options` ((value, words) pairs).

    - `count` values (a list), distinct unless `repeat` (dice may repeat, bag draws do not);
    - with `keys` ((key, words) pairs), a mapping from each key to one option instead (the
      castles' values dealt onto the regions), distinct unless `repeat`;
    - `single`: one value, not a list (who plays first).
    """

    name: str
    label: str
    options: tuple[tuple[Any, str], ...]
    count: int = 1
    repeat: bool = False
    keys: tuple[tuple[str, str], ...] = ()
    single: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "count": self.count,
                "repeat": self.repeat, "single": self.single,
                "options": [{"value": v, "words": w} for v, w in self.options],
                "keys": [{"key": k, "words": w} for k, w in self.keys]}


@dataclass(frozen=True)
class Pick:
    """A pending chance step, as a referee enters it: `Action(CHANCE, verb, {**fixed, field:
    chosen...})`, described in words (`title`, e.g. "Ishida draws 4 blocks for Osaka")."""

    verb: str
    title: str
    fields: tuple[PickField, ...]
    fixed: Mapping[str, Any] = field(default_factory=dict)

    def action(self, chosen: Mapping[str, Any]) -> Action:
        """The chance action with the chosen values (judged by the rules like any other)."""
        return Action("chance", self.verb, {**self.fixed, **{
            f.name: chosen[f.name] for f in self.fields if f.name in chosen}})

    def to_json(self) -> dict[str, Any]:
        return {"verb": self.verb, "title": self.title, "fixed": dict(self.fixed),
                "fields": [f.to_json() for f in self.fields]}


def options(values: Sequence[Any], words: Mapping[Any, str] | None = None
            ) -> tuple[tuple[Any, str], ...]:
    """(value, words) pairs, words defaulting to the value itself."""
    return tuple((v, (words or {}).get(v, str(v))) for v in values)
