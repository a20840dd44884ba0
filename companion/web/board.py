"""The board a game's screen draws: its kit's public component data, by part.

A kit holds only printed facts (the map's locations and links, tracks, the component lists),
the same for every role; where the pieces are and which cards are held is state, and reaches a
screen only through its role's view. So the board is one answer for everyone, and generic: every
screen receives the map (`locations`, `roads`, when the kit has them) and asks by name for any
other part of its kit it draws (`?parts=tracks`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic_core import to_jsonable_python

from companion.kits import Kit

__all__ = ["MAP", "UnknownPart", "board_data", "parts_asked"]

MAP = ("locations", "roads")
"""The parts every screen receives: the map's graph, as `companion.kits.board` defines it."""

MANIFEST = frozenset(Kit.model_fields)
"""The manifest's facts (id, game, version, ...): always sent, never a part."""


class UnknownPart(LookupError):
    """A screen asked for a part its kit does not have; the message lists the parts there are."""


def parts_asked(query: str | None) -> list[str]:
    """`tracks,boxes` -> the part names, in order, without blanks or repeats."""
    seen: list[str] = []
    for part in (query or "").split(","):
        if part.strip() and part.strip() not in seen:
            seen.append(part.strip())
    return seen


def board_data(kit: Kit, parts: Iterable[str] = ()) -> dict[str, Any]:
    """The kit's manifest facts, its map, and each part asked for, as JSON-ready data.

    Raises UnknownPart for a name that is not one of the kit's component parts (a manifest
    field or a computed property is not a part).
    """
    fields = [f for f in type(kit).model_fields if f not in MANIFEST]
    asked = list(parts)
    unknown = [p for p in asked if p not in fields]
    if unknown:
        raise UnknownPart(f"the {kit.id} kit has no part {unknown[0]!r} "
                          f"(parts: {', '.join(fields) or 'none'})")
    data: dict[str, Any] = {"kit": kit.id, "game": kit.game, "title": kit.title,
                            "version": kit.version}
    for part in (*MAP, *asked):
        data[part] = to_jsonable_python(getattr(kit, part, ()))
    return data
