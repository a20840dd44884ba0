"""7.4 Overrun: four times as many blocks sweep the enemy away, at once and at no cost."""

from __future__ import annotations

from collections.abc import Collection

from companion.games.sekigahara.rules.context import Batch, Context, other
from companion.games.sekigahara.rules.locations import blocks_of, castle_controller, units_at
from companion.games.sekigahara.rules.state import SekigaharaState
from companion.games.sekigahara.rules.victory import check_instant_victory

__all__ = ["OVERRUN_RATIO", "can_overrun", "overrun"]

OVERRUN_RATIO = 4  # 7.4.1


def can_overrun(ctx: Context, state: SekigaharaState, where: str, side: str,
                arriving: Collection[str] = ()) -> bool:
    """7.4.1, 7.4.3: at least four times the enemy's units, counting every friendly block there
    (those that moved before, a garrison in the castle) and `arriving`; never against units
    that control a castle."""
    enemy = units_at(ctx, state, where, other(side))
    if not enemy:
        return False
    if where in ctx.castle and castle_controller(ctx, state, where) == other(side):
        return False
    friendly = set(blocks_of(ctx, state, where, side)) | set(arriving)
    return len(friendly) >= OVERRUN_RATIO * len(enemy)


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
    return True
