"""8.1 Combat: declaring each fight, choosing to stay in a castle, and the fights' clock.

After all movement the active side declares combat at every location where both sides have
units, one at a time, each fought to the end before the next (8.1). At a castle the side that
holds it chooses, at the declaration and not before, to stay inside (at most two blocks; a
siege, 8.9) or to fight outside (a battle, 8.2).
"""

from __future__ import annotations

from companion.engine.core import Action, IllegalAction, Sentence
from companion.games.sekigahara.kit import SIDES
from companion.games.sekigahara.rules.context import Batch, Context, other
from companion.games.sekigahara.rules.locations import blocks_of, disks_of, units_at
from companion.games.sekigahara.rules.mori import OSAKA, mori_order, mori_to_battle
from companion.games.sekigahara.rules.names import side_name, side_said
from companion.games.sekigahara.rules.offers import refusal
from companion.games.sekigahara.rules.state import SekigaharaState

__all__ = [
    "CASTLE_CAPACITY", "battles_due", "decide_castle", "decide_declare", "fight_place",
    "fights_waiting", "start_fight",
]

CASTLE_CAPACITY = 2  # 8.9.1


def battles_due(ctx: Context, state: SekigaharaState) -> list[str]:
    """Locations where both sides have units (8.1), less those left quiet this phase (8.9.2)."""
    return [loc.id for loc in ctx.kit.locations
            if loc.id not in state.quiet
            and all(units_at(ctx, state, loc.id, side) for side in SIDES)]


def fight_place(state: SekigaharaState) -> str | None:
    """Where the fight under way stands: the battle's location, or the castle whose holder is
    choosing to stay inside or fight outside (8.9.2); None between fights."""
    if state.battle is not None:
        return state.battle.at
    return state.castle_choice[0] if state.castle_choice is not None else None


def fights_waiting(ctx: Context, state: SekigaharaState) -> bool:
    return bool(state.battle or state.castle_choice or state.follow_up
                or battles_due(ctx, state))


def decide_declare(ctx: Context, batch: Batch, action: Action) -> None:
    """8.1: the active side picks the next location where combat is due."""
    at = action.args.get("at")
    due = battles_due(ctx, batch.state)
    if batch.state.battle or batch.state.castle_choice:
        raise IllegalAction("8.1", "finish the fight in progress first")
    if at not in due:
        raise refusal("8.1", Sentence("no combat is due at {place}", place=ctx.name(str(at))),
                      [(ctx.name(loc), Action(action.role, "declare", {"at": loc}))
                       for loc in due])
    start_fight(ctx, batch, str(at), action.role)


def start_fight(ctx: Context, batch: Batch, at: str, attacker: str,
                entered_from: str | None = None) -> None:
    """Declare combat at `at`: Mori join at Osaka (9.3), then a castle choice or the fight.

    `entered_from` is where a retreat that caused this fight came from (8.8.5).
    """
    batch.emit("CombatDeclared", at=at, attacker=attacker, defender=other(attacker),
               entered_from=entered_from, rule="8.1")
    if at == OSAKA and attacker == "tokugawa" and mori_order(ctx, batch.state):
        mori_to_battle(ctx, batch)  # 9.3: the Mori box joins at the declaration
        if not all(units_at(ctx, batch.state, at, side) for side in SIDES):
            return  # the Mori arrival overran the attackers (7.4)
    holder = batch.state.castles.get(at) if at in ctx.castle else None
    if holder is None:
        _begin(ctx, batch, at, attacker, siege=False, holder=None)
        return
    blocks = blocks_of(ctx, batch.state, at, holder)
    if not blocks and holder == attacker:  # disks are always inside (8.9.3): no fight now
        batch.emit("CombatSkipped", at=at, rule="8.9.2")
    elif not blocks:
        _begin(ctx, batch, at, attacker, siege=True, holder=holder)
    elif len(blocks) > CASTLE_CAPACITY:  # 8.9.2: more than two must fight outside
        _begin(ctx, batch, at, attacker, siege=False, holder=holder)
    else:
        batch.emit("CastleChoiceDue", at=at, side=holder, attacker=attacker, rule="8.9.2")


def decide_castle(ctx: Context, batch: Batch, action: Action) -> None:
    """8.9.2: the castle's holder stays inside (a siege) or fights outside (a battle)."""
    if batch.state.castle_choice is None:
        raise IllegalAction("8.9.2", "no castle choice is due now")
    at, attacker = batch.state.castle_choice
    side, holder = action.role, batch.state.castles.get(at)
    if side != holder:
        raise IllegalAction("8.9.2", Sentence(
            "{holder} holds {place} castle, so {holder} decides whether to stay inside, not "
            "{side}", holder=side_said(holder), place=ctx.name(at), side=side_name(side)))
    inside = action.args.get("inside")
    if not isinstance(inside, bool):
        raise IllegalAction("8.9.2", "say whether to stay inside the castle: inside true/false")
    batch.emit("CastleChoiceMade", at=at, side=side, inside=inside, rule="8.9.2")
    if not inside:
        _begin(ctx, batch, at, attacker, siege=False, holder=side)
    elif side == attacker:  # 8.9.2: the active side stays in its castle: no combat here now
        batch.emit("CombatSkipped", at=at, rule="8.9.2")
    else:
        _begin(ctx, batch, at, attacker, siege=True, holder=side)


def _begin(ctx: Context, batch: Batch, at: str, attacker: str, *, siege: bool,
           holder: str | None) -> None:
    defender = other(attacker)
    inside = (blocks_of(ctx, batch.state, at, defender) + disks_of(ctx, batch.state, at, defender)
              if siege else [])
    batch.emit("BattleBegan", at=at, attacker=attacker, defender=defender, siege=siege,
               inside=inside, castle_holder=holder, entered_from=batch.state.entered_from,
               rule="8.9" if siege else "8.2")
