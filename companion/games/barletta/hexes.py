"""The hex grid of the field, as the rulebook numbers it: column and row, `1807` (column 18,
row 07). Columns run across the field, each a vertical file of hexes; even columns sit half a
hex lower than odd ones, so hex 2407's neighbours are 2406 and 2408 in its own column and
2307, 2308, 2507, 2508 beside it (fitted to the rulebook's example 4: the Italian shield's
hex 2214 touches exactly 2114, 2213 and 2314). Adjacency is computed here, never typed.

Pure arithmetic: no kit, no state."""

from __future__ import annotations

import re

__all__ = ["axial", "behind", "hex_id", "is_hex_id", "neighbours", "parse", "step"]

HEX = re.compile(r"^\d{4}$")


def is_hex_id(text: object) -> bool:
    return isinstance(text, str) and bool(HEX.match(text))


def hex_id(column: int, row: int) -> str:
    return f"{column:02d}{row:02d}"


def parse(hex_: str) -> tuple[int, int]:
    """`"1807"` -> (18, 7)."""
    return int(hex_[:2]), int(hex_[2:])


def axial(hex_: str) -> tuple[int, int]:
    """Axial coordinates (q, r) of a hex: neighbours differ by one of six fixed steps."""
    column, row = parse(hex_)
    return column, row - (column + (column & 1)) // 2


def from_axial(q: int, r: int) -> str:
    return hex_id(q, r + (q + (q & 1)) // 2)


DIRECTIONS = ((0, -1), (0, 1), (1, -1), (1, 0), (-1, 0), (-1, 1))


def neighbours(hex_: str) -> tuple[str, ...]:
    """The six hexes around `hex_` (on the field or not), sorted; none off the numbering."""
    q, r = axial(hex_)
    found = []
    for dq, dr in DIRECTIONS:
        column = q + dq
        row = r + dr + (column + (column & 1)) // 2
        if 0 <= column <= 99 and 0 <= row <= 99:
            found.append(hex_id(column, row))
    return tuple(sorted(found))


def step(origin: str, through: str) -> str | None:
    """The hex beyond `through` seen from `origin` (adjacent to it): where a knight attacked
    from `origin` retreats (H2.1), and the hex behind a knight charged from `origin` (I2.1).
    None off the numbering."""
    (q0, r0), (q1, r1) = axial(origin), axial(through)
    q, r = 2 * q1 - q0, 2 * r1 - r0
    row = r + (q + (q & 1)) // 2
    if not (0 <= q <= 99 and 0 <= row <= 99):
        return None
    return hex_id(q, row)


def behind(attacker: str, defender: str) -> str | None:
    """The hex opposite the attacker's across the defender (H2.1, I2.1)."""
    return step(attacker, defender)
