"""7.4 Overrun: four times as many blocks sweep the enemy away, at once and at no cost; the
overrun side then refills its hand (8.10, docs/sekigahara.md)."""

from __future__ import annotations

from collections.abc import Collection

from companion.engine.core import Sentence
from companion.games.sekigahara.rules.cards import draw
from companion.games.sekigahara.rules.context import Batch, Context, other
from companion.games.sekigahara.rules.locations import blocks_of, castle_controller, units_at
from companion.games.sekigahara.rules.names import side_name
from companion.games.sekigahara.rules.state import SekigaharaState
from companion.games.sekigahara.rules.victory import check_instant_victory

__all__ = ["BLOCKS_PER_CARD", "OVERRUN_RATIO", "can_overrun", "overrun", "why_not_overrun"]

OVERRUN_RATIO = 4  # 7.4.1
BLOCKS_PER_CARD = 2  # 8.10: one card per two blocks lost, as after a battle


def can_overrun(ctx: Context, state: SekigaharaState, where: str, side: str,
                arriving: Collection[str] = ()) -> bool:
    """7.4.1, 7.4.3: at least four times the enemy's units, counting every friendly block there
    (those that moved before, a garrison in the castle) and `arriving`; never against units
    that control a castle."""
    enemy = units_at(ctx, state, where, other(side))
    if not enemy or _holds_castle(ctx, state, where, other(side)):
        return False
    friendly = set(blocks_of(ctx, state, where, side)) | set(arriving)
    return len(friendly) >= OVERRUN_RATIO * len(enemy)


def why_not_overrun(ctx: Context, state: SekigaharaState, where: str,
                    side: str) -> tuple[str, str]:
    """The rule and the words for why `side`, standing at `where`, does not overrun the enemy
    there: the enemy holds the castle (7.4.3), or `side` is not four times as many (7.4.1)."""
    foe = other(side)
    if _holds_castle(ctx, state, where, foe):
        return "7.4.3", Sentence("{side} holds {place} castle, and units holding a castle "
                                 "cannot be overrun", side=side_name(foe), place=ctx.name(where))
    mine, theirs = len(blocks_of(ctx, state, where, side)), len(units_at(ctx, state, where, foe))
    return "7.3.2", Sentence("{mine} {side} block(s) against {theirs} {foe} unit(s): an overrun "
                             "needs {needed}, four times as many (7.4.1)", mine=mine,
                             side=side_name(side), theirs=theirs, foe=side_name(foe),
                             needed=OVERRUN_RATIO * theirs)


def _holds_castle(ctx: Context, state: SekigaharaState, where: str, side: str) -> bool:
    return where in ctx.castle and castle_controller(ctx, state, where) == side


def overrun(ctx: Context, batch: Batch, where: str, side: str,
            arriving: Collection[str] = ()) -> bool:
    """Overrun the enemy at `where` if the numbers allow (7.4.2); True if it happened."""
    if not can_overrun(ctx, batch.state, where, side, arriving):
        return False
    foe = other(side)
    blocks = blocks_of(ctx, batch.state, where, foe)
    disks = [u for u in units_at(ctx, batch.state, where, foe) if u not in blocks]
    friendly = len(set(blocks_of(ctx, batch.state, where, side)) | set(arriving))
    batch.emit("Overrun", at=where, by=side, blocks=blocks, disks=disks,
               strength=friendly, rule="7.4")
    check_instant_victory(ctx, batch, blocks, disks)
    # 8.10: the hands are refilled "nach einem Überrennen" too: no card was played, so the
    # overrun side draws for its lost blocks, at a battle's rate (disks do not count).
    draw(ctx, batch, foe, len(blocks) // BLOCKS_PER_CARD, "after overrun")
    return True
