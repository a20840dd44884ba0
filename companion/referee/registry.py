"""Which block a tag is on and which card a code names: the only place vision meets pieces."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from companion.inputs.labels import card_from_code
from companion.kits.sekigahara import SekigaharaKit

__all__ = ["TableRegistry"]

FIRST_BLOCK_TAG = 10


@dataclass(frozen=True)
class TableRegistry:
    blocks: Mapping[int, str]
    """Tag id -> block id."""
    cards: Mapping[str, str]
    """Card code (RFID UID) -> card id; printed labels name their card themselves."""

    @classmethod
    def in_kit_order(cls, kit: SekigaharaKit) -> TableRegistry:
        """Tags 10, 11, ... on the kit's blocks in order: the simulated table's set."""
        return cls({FIRST_BLOCK_TAG + n: b.id for n, b in enumerate(kit.blocks)}, {})

    def block(self, tag: int) -> str | None:
        return self.blocks.get(tag)

    @cached_property
    def tags(self) -> Mapping[str, int]:
        """Block id -> tag id: where the simulated table puts each block's tag."""
        return {block: tag for tag, block in self.blocks.items()}

    def card(self, code: str) -> str | None:
        return card_from_code(code) or self.cards.get(code)
