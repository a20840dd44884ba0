"""Which piece a tag is on and which card a code names: the only place vision meets pieces."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from companion.inputs.labels import card_from_code

__all__ = ["FIRST_PIECE_TAG", "TableRegistry"]

FIRST_PIECE_TAG = 10
"""Tags 0-3 are the board's corner markers; pieces' tags start here."""


@dataclass(frozen=True)
class TableRegistry:
    blocks: Mapping[int, str]
    """Tag id -> piece id (a Sekigahara block, a Barletta knight)."""
    cards: Mapping[str, str]
    """Card code (RFID UID) -> card id; printed labels name their card themselves."""

    @classmethod
    def in_kit_order(cls, pieces: Iterable[str]) -> TableRegistry:
        """Tags 10, 11, ... on the pieces in the kit's order: the simulated table's set."""
        return cls({FIRST_PIECE_TAG + n: p for n, p in enumerate(pieces)}, {})

    def block(self, tag: int) -> str | None:
        return self.blocks.get(tag)

    @cached_property
    def tags(self) -> Mapping[str, int]:
        """Piece id -> tag id: where the simulated table puts each piece's tag."""
        return {block: tag for tag, block in self.blocks.items()}

    def card(self, code: str) -> str | None:
        return card_from_code(code) or self.cards.get(code)
