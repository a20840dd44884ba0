"""Counts and dice read from synthetic frames scored against the renderer's truth: the tallies
the vision benchmarks of counted tables share (`companion bench vision`).

Counts are scored cell by cell (a zone and a kind: exact or wrong, no partial credit, since the
referee takes a count as it is), dice as multisets (dice have no identity in the tray). Each
wrong cell or die is tallied with what was true and what was read: the commonest errors say
where the reader goes wrong.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

__all__ = ["score_counts", "score_dice", "share"]


def score_counts(truth: Mapping[str, Mapping[str, int]], read: Mapping[str, Mapping[str, int]],
                 errors: Counter[tuple[str, int, int]]) -> tuple[int, int, int, int]:
    """Exact (zone, kind) counts: (right, cells, right among occupied, occupied); each wrong
    cell is tallied in `errors` as (kind, true count, count read: -1 when not read)."""
    right = cells = right_occupied = occupied = 0
    for zone, kinds in truth.items():
        for kind, count in kinds.items():
            seen = read.get(zone, {}).get(kind)
            cells += 1
            right += seen == count
            occupied += count > 0
            right_occupied += count > 0 and seen == count
            if seen != count:
                errors[(kind, count, -1 if seen is None else seen)] += 1
    return right, cells, right_occupied, occupied


def score_dice(truth: tuple[int | None, ...], read: tuple[int | None, ...],
               errors: Counter[tuple[int | None, int | None]]) -> int:
    """Dice read right, as multisets (dice have no identity): a covered die read as None is
    right; each miss is tallied in `errors` as (true face, face read)."""
    left, seen = Counter(truth), Counter(read)
    right = sum(min(n, seen[face]) for face, n in left.items())
    missed = sorted((left - seen).elements(), key=_order)
    extra = sorted((seen - left).elements(), key=_order)
    for pair in zip(missed, extra, strict=False):
        errors[pair] += 1
    return right


def _order(face: int | None) -> int:
    return 7 if face is None else face


def share(part: int, whole: int) -> float:
    """`part` of `whole` to five places (0 of nothing is 0)."""
    return round(part / max(whole, 1), 5)
