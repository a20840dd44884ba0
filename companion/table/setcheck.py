"""The set check, as a chess e-board's set-up check: each piece held under the camera and each
card read by the reader is named on the referee's screen; what has not been seen yet is listed;
a tag read on two pieces in the same frame (two blocks carrying one id) is flagged.

It runs before a game (or whenever the referee starts it): while it runs, the camera's frames
and the reader's codes go to it and not to the game. The names it shows are the pieces' true
identities, so only the referee's view carries it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from companion.table.registry import TableRegistry

__all__ = ["SetCheck"]

RECENT = 8
"""How many of the pieces named last the screen lists."""


@dataclass
class SetCheck:
    """What the set check has seen of one registered set."""

    registry: TableRegistry
    name: Callable[[str], str]
    """A piece's or a card's id in words, as the players know it."""
    seen_tags: set[int] = field(default_factory=set)
    seen_cards: set[str] = field(default_factory=set)
    doubled: set[int] = field(default_factory=set)
    unknown: set[str] = field(default_factory=set)
    recent: list[str] = field(default_factory=list)

    def saw(self, tags: Iterable[int]) -> bool:
        """One frame's tag reads (an id read twice in it is two pieces with one tag); returns
        whether anything new was seen."""
        counts = Counter(tags)
        before = (len(self.seen_tags), len(self.doubled), len(self.unknown))
        for tag, times in counts.items():
            piece = self.registry.block(tag)
            if piece is None:
                self.unknown.add(f"tag {tag}")
                continue
            if times > 1:
                self.doubled.add(tag)
            if tag not in self.seen_tags:
                self.seen_tags.add(tag)
                self._named(f"tag {tag}: {self.name(piece)}")
        return (len(self.seen_tags), len(self.doubled), len(self.unknown)) != before

    def scanned(self, code: str) -> None:
        """A card at the reader (or a label shown to the camera's card area)."""
        card = self.registry.card(code)
        if card is None:
            self.unknown.add(f"code {code}")
            return
        self.seen_cards.add(card)
        self._named(f"{self.name(card)}")

    def _named(self, words: str) -> None:
        self.recent = [words, *self.recent][:RECENT]

    def report(self, cards: Iterable[str] = ()) -> dict[str, Any]:
        """For the referee's screen: counts, the last named, what is unseen, what is wrong."""
        unseen_blocks = [self.name(block) for tag, block in sorted(self.registry.blocks.items())
                         if tag not in self.seen_tags]
        every_card = sorted(set(cards) | set(self.registry.cards.values()))
        unseen_cards = [self.name(c) for c in every_card if c not in self.seen_cards]
        return {
            "blocks_seen": len(self.seen_tags), "blocks": len(self.registry.blocks),
            "cards_seen": len(self.seen_cards), "cards": len(every_card),
            "recent": list(self.recent),
            "unseen_blocks": _grouped(unseen_blocks), "unseen_cards": _grouped(unseen_cards),
            "doubled": [f"tag {t}: {self.name(self.registry.blocks[t])}"
                        for t in sorted(self.doubled)],
            "unknown": sorted(self.unknown)[:20],
        }


def _grouped(names: list[str]) -> list[str]:
    """"Mōri 3 (2)" for two unseen blocks of one face: a short list to read."""
    counts = Counter(names)
    return [f"{n} ({k})" if k > 1 else n for n, k in sorted(counts.items())]
