"""4 Locations: who controls resource locations and castles, and who stands where."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from companion.games.sekigahara.kit import SIDES
from companion.games.sekigahara.rules.context import Batch, Context
from companion.games.sekigahara.rules.state import SekigaharaState

__all__ = [
    "blocks_of", "castle_controller", "count_control", "disks_of", "units_at", "update_control",
]


def blocks_of(ctx: Context, state: SekigaharaState, where: str, side: str) -> list[str]:
    return state.blocks_at(where, side, ctx.owner)


def disks_of(ctx: Context, state: SekigaharaState, where: str, side: str) -> list[str]:
    return sorted(d.id for d in ctx.kit.disks if d.side == side and state.disks.get(d.id) == where)


def units_at(ctx: Context, state: SekigaharaState, where: str, side: str) -> list[str]:
    """A side's units at a location: its blocks and its disks (3.4)."""
    return blocks_of(ctx, state, where, side) + disks_of(ctx, state, where, side)


def castle_controller(ctx: Context, state: SekigaharaState, where: str) -> str:
    """4.3: the side with units there when the other has none; its allegiance when empty.

    When both sides have units there (a siege), the castle stays with whoever was there first
    (8.9.1). A disk counts as a unit: Hideyori alone keeps Osaka castle for Ishida.
    """
    present = [side for side in SIDES if units_at(ctx, state, where, side)]
    if len(present) == 1:
        return present[0]
    if not present:
        return ctx.castle[where]
    return state.castles.get(where, ctx.castle[where])


def update_control(ctx: Context, batch: Batch, side: str | None, entered: Iterable[str],
                   touched: Iterable[str]) -> None:
    """Emit the control changes after blocks moved: `side` entered or passed through `entered`
    (4.2: the last side to move a block into or through a resource location controls it), and
    block presence changed at `touched` (4.3)."""
    for where in dict.fromkeys(entered):
        if side and where in ctx.resources and batch.state.resources.get(where) != side:
            batch.emit("ResourceControlChanged", location=where, side=side, rule="4.2")
    for where in dict.fromkeys(touched):
        if where in ctx.castle:
            holder = castle_controller(ctx, batch.state, where)
            if batch.state.castles.get(where) != holder:
                batch.emit("CastleControlChanged", location=where, side=holder, rule="4.3")


def count_control(ctx: Context, state: SekigaharaState,
                  what: Literal["castles", "resources"]) -> dict[str, int]:
    held = state.castles if what == "castles" else state.resources
    return {side: sum(1 for s in held.values() if s == side) for side in SIDES}
