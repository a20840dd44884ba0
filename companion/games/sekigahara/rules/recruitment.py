"""7.2 Recruitment: bringing blocks from the recruitment box onto the map.

Two ways (7.2): A, any or all blocks of one daimyo to a location printed with that daimyo's
mon, shown to the opponent; B, a single block of any daimyo to any friendly recruitment
location, not shown. At most once per turn, in place of a group move under minimal or limited
movement and in addition to them under total movement. Recruited blocks may not move this turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.engine.core import Action, IllegalAction, Sentence
from companion.games.sekigahara.rules.context import Batch, Context, other
from companion.games.sekigahara.rules.locations import units_at, update_control
from companion.games.sekigahara.rules.movement import allowance_left, level_word
from companion.games.sekigahara.rules.names import (
    at_place,
    block_name,
    clan_name,
    clauses,
    side_name,
)
from companion.games.sekigahara.rules.offers import Offer, refusal
from companion.games.sekigahara.rules.overrun import overrun
from companion.games.sekigahara.rules.state import SekigaharaState

__all__ = ["decide_recruit", "recruitment_locations", "shown_to_opponent"]


def recruitment_locations(ctx: Context, side: str) -> list[str]:
    """Locations printed with the mon of a daimyo of `side` (7.2)."""
    return sorted({loc for clan, locs in ctx.recruits_at.items()
                   if ctx.clan_side.get(clan) == side for loc in locs})


def shown_to_opponent(blocks: Sequence[str]) -> bool:
    """7.2: several blocks come in by way A, shown to the opponent; a single block by way B,
    face down. The recruitment and its words both ask here which way it was."""
    return len(blocks) > 1


def decide_recruit(ctx: Context, batch: Batch, action: Action) -> None:
    side, state = action.role, batch.state
    blocks, to = _read(ctx, state, action)
    shown = _choose_way(ctx, side, blocks, to)
    if units_at(ctx, state, to, other(side)) and not units_at(ctx, state, to, side):
        raise IllegalAction("7.2", Sentence(
            "recruiting into {place} would start a fight from the recruitment box: only a fight "
            "begun by blocks on the map may be supported this way", place=ctx.name(to)))
    batch.emit("BlocksRecruited", side=side, to=to, blocks=blocks, shown=shown,
               way="A" if shown else "B", rule="7.2")
    overrun(ctx, batch, to, side)  # 7.4.1: recruitment can overrun
    update_control(ctx, batch, side, [to], [to])


def _read(ctx: Context, state: SekigaharaState, action: Action) -> tuple[list[str], str]:
    side, mp = action.role, state.movement
    if mp.level in (None, "none"):
        raise IllegalAction("7.2", "recruitment is part of minimal, limited or total movement: "
                            "choose one first")
    if mp.recruited:
        raise IllegalAction("7.2", "only one recruitment per turn")
    left = allowance_left(mp)
    if left is not None and left <= 0:
        raise IllegalAction("7.1", Sentence("{level} movement has no move left to trade for a "
                                            "recruitment", level=level_word(str(mp.level))))
    blocks, to = action.args.get("blocks"), action.args.get("to")
    box = ctx.recruitment_box[side]
    if not isinstance(blocks, tuple) or not blocks or len(set(blocks)) != len(blocks):
        raise IllegalAction("7.2", "name the blocks to recruit from the recruitment box")
    strays = [str(b) for b in blocks
              if state.positions.get(str(b)) != box or ctx.owner.get(str(b)) != side]
    if strays:
        own = [b for b in strays if ctx.owner.get(b) == side]  # never place an enemy block
        where = clauses([Sentence("{block} stands {where}", block=block_name(ctx.kit, b),
                                  where=at_place(ctx.kit, state.positions[b], side=side))
                         for b in own])
        raise IllegalAction("7.2", Sentence(
            "only blocks in the {side} recruitment box are recruited: {where}",
            side=side_name(side),
            where=where) if where else Sentence(
            "only blocks in the {side} recruitment box are recruited", side=side_name(side)))
    if not ctx.is_location(to):
        raise IllegalAction("7.2", Sentence("recruit to a location"))
    return [str(b) for b in blocks], str(to)


def _choose_way(ctx: Context, side: str, blocks: list[str], to: str) -> bool:
    """Way A (shown) or B (hidden); IllegalAction naming the legal places if neither fits."""
    clans = {ctx.kit.block[b].clan for b in blocks}
    if not shown_to_opponent(blocks):
        places = recruitment_locations(ctx, side)
        if to not in places:
            raise refusal("7.2", Sentence("{place} is not a {side} recruitment location",
                                          place=ctx.name(to), side=side_name(side)),
                          _elsewhere(ctx, side, blocks, places))
        return False
    if len(clans) > 1:
        raise IllegalAction("7.2", "several blocks are recruited together only if they all "
                            "belong to one daimyo (way A); otherwise recruit a single block")
    clan = next(iter(clans))
    places = sorted(ctx.recruits_at.get(clan, ()))
    if to not in places:
        raise refusal("7.2", Sentence("{clan} blocks are recruited together only where the "
                                      "{clan} mon is printed", clan=clan_name(clan)),
                      _elsewhere(ctx, side, blocks, places))
    return True


def _elsewhere(ctx: Context, side: str, blocks: list[str], places: list[str]) -> list[Offer]:
    """The same recruitment to each of `places` (decide keeps those it accepts: not into a
    place held by the enemy alone)."""
    return [(ctx.name(p), Action(side, "recruit", {"blocks": blocks, "to": p})) for p in places]
