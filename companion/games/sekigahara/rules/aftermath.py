"""8.7 casualties, 8.8 retreat, 8.9.4 the end of a siege, 8.10 replenishing the hands."""

from __future__ import annotations

from companion.engine.core import Action, IllegalAction, Sentence
from companion.games.sekigahara.rules.cards import draw
from companion.games.sekigahara.rules.combat import CASTLE_CAPACITY
from companion.games.sekigahara.rules.context import Batch, Context, other
from companion.games.sekigahara.rules.locations import blocks_of, units_at, update_control
from companion.games.sekigahara.rules.names import block_name, listed, side_name, side_said
from companion.games.sekigahara.rules.offers import refusal
from companion.games.sekigahara.rules.overrun import overrun
from companion.games.sekigahara.rules.state import Battle, SekigaharaState
from companion.games.sekigahara.rules.victory import HIDEYORI, check_instant_victory

__all__ = [
    "IMPACT_PER_LOSS", "casualties_due", "decide_casualties", "decide_retreat", "loss_order",
    "resolve", "retreat_places", "retreating", "settle", "staying_in_castle",
]

IMPACT_PER_LOSS = 7  # 8.7.1, 8.9.4


def resolve(ctx: Context, batch: Batch) -> None:
    """Both sides are done deploying: the winner, and the losses each side must take."""
    battle = batch.state.battle
    assert battle is not None
    att, dfn = battle.attacker, battle.defender
    impact = {att: battle.impact(att), dfn: battle.impact(dfn)}
    if battle.siege:  # 8.9.4 B: only the defender is hurt
        losses = {att: 0, dfn: impact[att] // IMPACT_PER_LOSS}
        winner = None
    else:  # 8.7.1: one per 7 received, and the loser one more; the defender wins ties
        winner = att if impact[att] > impact[dfn] else dfn
        losses = {att: impact[dfn] // IMPACT_PER_LOSS + (winner != att),
                  dfn: impact[att] // IMPACT_PER_LOSS + (winner != dfn)}
    batch.emit("BattleWon", at=battle.at, winner=winner, impact=impact, losses=losses,
               rule="8.9.4" if battle.siege else "8.7.1")


def loss_order(ctx: Context, state: SekigaharaState, side: str) -> list[list[str]]:
    """The order a side loses blocks in (8.7.2): defectors, deployed, then the rest; in a siege
    the units inside, Hideyori last (9.1)."""
    battle = state.battle
    assert battle is not None
    if battle.siege:
        inside = [u for u in battle.inside if u in state.disks or u in
                  blocks_of(ctx, state, battle.at, side)]
        return [[u for u in inside if u != HIDEYORI], [u for u in inside if u == HIDEYORI]]
    mine = blocks_of(ctx, state, battle.at, side)
    defected = [d.block for d in battle.deployments if d.owner == side and d.side != side]
    deployed = [d.block for d in battle.deployments if d.owner == side and d.side == side]
    rest = [b for b in mine if b not in defected and b not in deployed]
    return [[b for b in defected if b in mine], [b for b in deployed if b in mine], rest]


def casualties_due(ctx: Context, state: SekigaharaState) -> tuple[str, int] | None:
    """The side that must take losses next (attacker first, 8.7.2), and how many."""
    battle = state.battle
    if battle is None or battle.stage != "casualties":
        return None
    for side in (battle.attacker, battle.defender):
        owed = battle.losses.get(side, 0)
        available = sum(len(t) for t in loss_order(ctx, state, side))
        if owed and available:
            return side, min(owed, available)
    return None


def _forced(tiers: list[list[str]], count: int) -> list[str] | None:
    """The only possible choice of `count` losses, or None if the player has a choice."""
    chosen: list[str] = []
    for tier in tiers:
        if count - len(chosen) >= len(tier):
            chosen += tier
        elif count > len(chosen):
            return None
    return chosen


def _check_order(tiers: list[list[str]], picked: list[str]) -> str | None:
    for index, tier in enumerate(tiers):
        later = [u for t in tiers[index + 1:] for u in t]
        if any(u in picked for u in later) and not set(tier) <= set(picked):
            return (Sentence("losses come first from blocks that changed sides, then deployed "
                             "blocks, then the others (8.7.2)") if len(tiers) == 3
                    else Sentence("Toyotomi Hideyori is the last unit lost in Osaka (9.1)"))
    return None


def decide_casualties(ctx: Context, batch: Batch, action: Action) -> None:
    due = casualties_due(ctx, batch.state)
    if due is None or due[0] != action.role:
        raise IllegalAction("8.7.2", Sentence("{side} has no losses to choose now",
                                              side=side_said(action.role)))
    side, count = due
    picked = action.args.get("blocks")
    tiers = loss_order(ctx, batch.state, side)
    allowed = {u for t in tiers for u in t}
    rule = "8.9.4" if batch.state.battle and batch.state.battle.siege else "8.7.2"
    if not isinstance(picked, tuple) or len(picked) != count or len(set(picked)) != count \
            or not set(picked) <= allowed:
        units = listed([block_name(ctx.kit, u) for u in sorted(allowed)])
        raise IllegalAction(rule, Sentence("{side} loses {count} different unit(s) of: {units}",
                                           side=side_name(side), count=count, units=units))
    problem = _check_order(tiers, list(picked))
    if problem:
        raise IllegalAction("9.1" if "Hideyori" in problem else rule, problem)
    take_losses(ctx, batch, side, [str(u) for u in picked])


def take_losses(ctx: Context, batch: Batch, side: str, units: list[str]) -> None:
    """Lost blocks are revealed and leave the game for good (8.7.3); disks are destroyed."""
    blocks = [u for u in units if u in ctx.owner]
    disks = [u for u in units if u not in ctx.owner]
    batch.emit("CasualtiesTaken", side=side, blocks=blocks, disks=disks, rule="8.7.3")


def settle(ctx: Context, batch: Batch) -> bool:
    """Move a finished battle on: forced losses, then retreat or the siege's end, then 8.10.

    Returns False when a player must choose (losses or where to retreat).
    """
    battle = batch.state.battle
    assert battle is not None
    due = casualties_due(ctx, batch.state)
    if due is not None:
        forced = _forced(loss_order(ctx, batch.state, due[0]), due[1])
        if forced is None:
            return False
        take_losses(ctx, batch, due[0], forced)
        return True
    if battle.stage == "casualties":
        _after_casualties(ctx, batch, battle)
        return True
    if battle.stage == "retreat":
        return False
    return False


def _after_casualties(ctx: Context, batch: Batch, battle: Battle) -> None:
    fallen = [b for b, at in batch.state.positions.items() if at == "eliminated"]
    lost_disks = [d.id for d in ctx.kit.disks if d.id not in batch.state.disks]
    check_instant_victory(ctx, batch, fallen, lost_disks)  # 2.1: both at once, Ishida wins
    if batch.state.outcome is not None:
        return
    if battle.siege:
        _end_siege(ctx, batch, battle)
        return
    loser = other(battle.winner or battle.defender)
    if blocks_of(ctx, batch.state, battle.at, loser):
        batch.emit("RetreatDue", side=loser, rule="8.8.1")
    else:
        finish(ctx, batch)


def _end_siege(ctx: Context, batch: Batch, battle: Battle) -> None:
    """8.9.4 D-E: all inside lost, the castle falls; else both sides stay, the owner besieged."""
    if units_at(ctx, batch.state, battle.at, battle.defender):
        batch.emit("SiegeContinues", at=battle.at, side=battle.defender, rule="8.9.4")
    else:
        batch.emit("CastleFell", at=battle.at, side=battle.attacker, rule="8.9.4")
    finish(ctx, batch)


def retreat_places(ctx: Context, state: SekigaharaState) -> tuple[list[str], int]:
    """Where the loser may retreat (8.8.2, 8.8.3), and how many may stay in the castle (8.8.4)."""
    battle = state.battle
    assert battle is not None and battle.winner is not None
    loser = other(battle.winner)
    around = list(ctx.kit.neighbours[battle.at])
    if battle.entered_from is not None:  # 8.8.5: a fight a retreat caused
        came = [battle.entered_from]
    else:
        came = [frm for to, frm in state.movement.entries
                if to == battle.at and battle.attacker == state.active and frm in around]
    if loser == battle.attacker:
        places = sorted(set(came)) or around
    else:
        clear = [p for p in around if not units_at(ctx, state, p, battle.attacker)
                 and p not in came]
        places = clear or around
    in_castle = CASTLE_CAPACITY if (battle.at in ctx.castle
                                    and battle.castle_holder == loser) else 0
    return places, in_castle


def decide_retreat(ctx: Context, batch: Batch, action: Action) -> None:
    """8.8: every surviving block of the loser goes to one place; up to two may stay in the
    castle its side held before the fight."""
    battle = batch.state.battle
    if battle is None or battle.stage != "retreat" or action.role == battle.winner:
        raise IllegalAction("8.8.1", "no retreat is due from this side")
    side = action.role
    places, room = retreat_places(ctx, batch.state)
    survivors = blocks_of(ctx, batch.state, battle.at, side)
    stay = staying_in_castle(action)
    if not set(stay) <= set(survivors) or len(stay) > room:
        raise IllegalAction("8.8.4", Sentence("up to {count} block(s) may stay in the castle",
                                              count=room))
    going = retreating(ctx, batch.state, side, stay)
    to = action.args.get("to")
    if going and to not in places:
        kept = {"castle": stay} if stay else {}
        raise refusal("8.8.2" if side == battle.attacker else "8.8.3",
                      Sentence("retreat to one of: {places}",
                               places=listed([ctx.name(p) for p in places])),
                      [(ctx.name(p), Action(side, "retreat", {"to": p, **kept}))
                       for p in places])
    if stay:
        batch.emit("SiegeContinues", at=battle.at, side=side, rule="8.8.4")
    if going:
        _retreat(ctx, batch, side, str(to), going, battle.at)
    finish(ctx, batch)


def retreating(ctx: Context, state: SekigaharaState, side: str, stay: list[str]) -> list[str]:
    """8.8.1: the loser's survivors of the battle that leave it, all but those that `stay` in
    the castle (8.8.4)."""
    battle = state.battle
    assert battle is not None
    return [b for b in blocks_of(ctx, state, battle.at, side) if b not in stay]


def staying_in_castle(action: Action) -> list[str]:
    """The blocks a retreat leaves in the castle (`castle`, 8.8.4); IllegalAction if it is not
    a list of block ids. The retreat and its words both read it here."""
    castle = action.args.get("castle") or ()
    if not isinstance(castle, tuple) or not all(isinstance(b, str) for b in castle):
        raise IllegalAction("8.8.4", Sentence("name the blocks that stay in the castle, got "
                                              "{blocks!r}", blocks=castle))
    return list(castle)


def _retreat(ctx: Context, batch: Batch, side: str, to: str, blocks: list[str],
             at: str) -> None:
    enemy_only = bool(units_at(ctx, batch.state, to, other(side))) \
        and not units_at(ctx, batch.state, to, side)  # joining a besieged disk is no new fight
    stayed = [b for b in blocks_of(ctx, batch.state, at, side) if b not in blocks]
    batch.emit("Retreated", side=side, **{"from": at}, to=to, blocks=blocks, stayed=stayed,
               rule="8.8.1")
    # 7.4.1, the note in 8.7.1, 8.8.5: after a retreat an overrun may happen either way: the
    # retreating blocks sweep away a quarter as many, or four times as many sweep them away.
    if not overrun(ctx, batch, to, side):
        overrun(ctx, batch, to, other(side))
    stands = bool(units_at(ctx, batch.state, to, side))
    update_control(ctx, batch, side, [to] if stands else [], [at, to])
    if enemy_only and stands and units_at(ctx, batch.state, to, other(side)):
        batch.emit("BattleFollows", at=to, attacker=side, **{"from": at}, rule="8.8.5")


def finish(ctx: Context, batch: Batch) -> None:
    """8.10: each side draws the cards it played, plus 1 per 2 blocks lost in a battle; after
    a siege the defender draws 1 per block lost. Then the battle is over (8.2.1)."""
    battle = batch.state.battle
    assert battle is not None
    for side in (battle.attacker, battle.defender):
        lost = battle.lost.get(side, 0)
        bonus = (lost if side == battle.defender else 0) if battle.siege else lost // 2
        draw(ctx, batch, side, len(battle.played.get(side, ())) + bonus, "after battle")
    if battle.at in ctx.castle:
        update_control(ctx, batch, None, [], [battle.at])
    if battle.at in batch.state.besieged and not all(
            units_at(ctx, batch.state, battle.at, s) for s in (battle.attacker, battle.defender)):
        batch.emit("SiegeLifted", at=battle.at, rule="8.9.4")
    batch.emit("BattleEnded", at=battle.at, rule="8.10")
