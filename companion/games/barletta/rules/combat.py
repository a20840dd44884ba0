"""H Combattimento: a melee from the attack to its last consequence.

The steps, in order (H1's list, with H4 and H5 placed where docs/barletta.md says): the dice on
the melee table (both knights, the attacker alone in the opening charge: I2), the hits and
wounds (H1.3, H1.4), the unhorsing tests (H3), deaths (H5), the retreat or the charge's ride
through (H2, I2.1), the surrender test (H4), the attacker's advance (H2.4). Each die is a chance
action, so a table enters what it rolled."""

from __future__ import annotations

from companion.engine.core import Action, IllegalAction, Sentence
from companion.games.barletta import hexes
from companion.games.barletta.kit import Cell, column_name
from companion.games.barletta.rules.context import Batch, dice, name
from companion.games.barletta.rules.state import Combat
from companion.games.barletta.rules.victory import check_field

__all__ = ["begin", "column_shift", "decide_melee", "decide_surrender", "decide_unhorse",
           "defender_rolls", "roll_modifier", "take_hits"]

GRAJANO = "d_aste"
"""M1: Claude Grajan d'Aste (Grajano d'Asti)."""


def clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def begin(batch: Batch, attacker: str, defender: str, charge: bool) -> None:
    """The attack is declared: M2 first (an Italian facing a knight on foot dismounts), then the
    combat waits for its dice."""
    state = batch.state
    if batch.options.get("italian_courtesy"):
        for me, foe in ((attacker, defender), (defender, attacker)):
            if batch.side(me) == "italians" and state.knights[me].mounted \
                    and not state.knights[foe].mounted:
                batch.emit("KnightDismounted", knight=me, rule="M2", in_combat=False)
    batch.emit("CombatBegan", attacker=attacker, defender=defender, side=batch.side(attacker),
               origin=state.knights[attacker].where, target=state.knights[defender].where,
               charge=charge)


def column_shift(batch: Batch, me: str, foe: str, attacking: bool) -> int:
    """H1.1 for the knight `me` rolling against `foe`: VC against VC, one right per knight that
    attacked the defender earlier this turn (the attacker's roll only), mounted against on foot,
    wounds; capped at 5L and 5R."""
    a, b = batch.state.knights[me], batch.state.knights[foe]
    shift = batch.vc(me) - batch.vc(foe)
    if attacking:
        shift += len(set(b.attacked_by[:-1]) - {me})
    if a.mounted and not b.mounted:
        shift += 1
    elif b.mounted and not a.mounted:
        shift -= 1
    shift += b.wounds - a.wounds
    return clamp(shift, -5, 5)


def roll_modifier(batch: Batch, me: str, foe: str) -> int:
    """H1.2: +1 per hit the opponent has, -1 per own hit, at most 5 either way."""
    return clamp(batch.state.knights[foe].hits - batch.state.knights[me].hits, -5, 5)


def _read(batch: Batch, me: str, foe: str, rolled: tuple[int, ...], attacking: bool
          ) -> tuple[Cell, dict[str, object]]:
    shift = column_shift(batch, me, foe, attacking)
    modifier = roll_modifier(batch, me, foe)
    roll = clamp(sum(rolled) + modifier, 2, 12)
    cell = batch.kit.cell(shift, roll)
    return cell, {"knight": me, "dice": list(rolled), "column": column_name(shift),
                  "modifier": modifier, "roll": roll,
                  "result": batch.kit.melee.columns[column_name(shift)][roll - 2]}


def take_hits(batch: Batch, knight: str, count: int) -> None:
    """H1.3, H1.4: hits added; each time they reach the VC they become a wound (example 5)."""
    if count <= 0:
        return
    current = batch.state.knights[knight]
    hits, wounds, value = current.hits + count, current.wounds, batch.vc(knight)
    while hits >= value:
        hits -= value
        wounds += 1
    batch.emit("HitsTaken", knight=knight, received=count, hits=hits, wounds=wounds)


def _combat(batch: Batch, rule: str) -> Combat:
    combat = batch.state.combat
    if combat is None:
        raise IllegalAction(rule, "no combat is being resolved")
    return combat


def defender_rolls(combat: Combat) -> bool:
    """H1: the defender rolls its two dice too, except against the opening charge (I2). The
    melee and its words ("Charge: the attacker rolls ...") both ask here."""
    return not combat.charge


def decide_melee(batch: Batch, action: Action) -> None:
    """H1: the attacker's two dice (and the defender's, except in the opening charge: I2)."""
    combat = _combat(batch, "H1")
    if combat.step != "melee":
        raise IllegalAction("H1", "the melee dice are already rolled")
    wanted = {"attacker", "defender"} if defender_rolls(combat) else {"attacker"}
    if set(action.args) != wanted:
        raise IllegalAction("I2" if combat.charge else "H1", Sentence(
            "the melee dice are given as: {fields}", fields=", ".join(sorted(wanted))))
    att, dfn = combat.attacker, combat.defender
    cell, said = _read(batch, att, dfn, dice(action.args["attacker"], 2, "H1"), True)
    hits = {att: cell.own, dfn: cell.other}
    marks = {att: cell.own_d, dfn: cell.other_d}
    rolls = [said]
    if defender_rolls(combat):
        other, said = _read(batch, dfn, att, dice(action.args["defender"], 2, "H1"), False)
        hits = {att: hits[att] + other.other, dfn: hits[dfn] + other.own}
        marks = {att: marks[att] or other.other_d, dfn: marks[dfn] or other.own_d}
        rolls.append(said)
    batch.emit("MeleeRolled", rolls=rolls, hits=hits, unhorsing=[k for k in marks if marks[k]])
    for knight in (att, dfn):
        take_hits(batch, knight, hits[knight])
    tests = [k for k in (att, dfn) if batch.state.knights[k].mounted
             and (hits[k] or marks[k]) and batch.state.knights[k].wounds < batch.vc(k)]
    _next_test(batch, tests)


def _next_test(batch: Batch, tests: list[str]) -> None:
    if tests:
        batch.emit("CombatStepReached", step="unhorse", tests=tests)
    else:
        _after_unhorsing(batch)


def _pending(batch: Batch, action: Action, step: str, rule: str) -> tuple[Combat, str, int]:
    combat = _combat(batch, rule)
    if combat.step != step or not combat.tests:
        raise IllegalAction(rule, "that test is not due now")
    knight = combat.tests[0]
    if set(action.args) != {"knight", "die"} or action.args["knight"] != knight:
        raise IllegalAction(rule, Sentence("the test due is {knight}'s: one die",
                                           knight=name(batch.kit, knight)))
    return combat, knight, dice((action.args["die"],), 1, rule)[0]


def decide_unhorse(batch: Batch, action: Action) -> None:
    """H3.1: one die plus the knight's hits and wounds; above its VC it is unhorsed and takes a
    hit (example 7)."""
    combat, knight, die = _pending(batch, action, "unhorse", "H3.1")
    current = batch.state.knights[knight]
    total = die + current.hits + current.wounds
    unhorsed = total > batch.vc(knight)
    batch.emit("UnhorsingTested", knight=knight, die=die, total=total, unhorsed=unhorsed)
    if unhorsed:
        batch.emit("KnightUnhorsed", knight=knight, rule="H3.1")
        take_hits(batch, knight, 1)
    rest = [k for k in combat.tests[1:] if batch.state.knights[k].wounds < batch.vc(k)]
    _next_test(batch, rest)


def _alive(batch: Batch, knight: str) -> bool:
    k = batch.state.knights[knight]
    return not k.out and k.wounds < batch.vc(knight)


def _deaths(batch: Batch) -> None:
    """H5: wounds reaching the VC kill; the killer takes the dead knight's hex. A defender
    that retreated and then died (M1: d'Aste's wound instead of surrendering) leaves its
    attacker one move: the advance into the hex attacked (H2.4, `_finish`), not a move to
    the retreat hex and then another back."""
    combat = batch.state.combat
    assert combat is not None
    pair = (combat.attacker, combat.defender)
    dead = [k for k in pair if not batch.state.knights[k].out
            and batch.state.knights[k].wounds >= batch.vc(k)]
    for knight in dead:
        killer = pair[1 - pair.index(knight)]
        where = batch.state.knights[knight].where
        takes = killer not in dead and batch.state.knights[killer].on_field \
            and not _advances(batch, killer)
        batch.emit("KnightKilled", knight=knight, side=batch.side(knight), by=killer,
                   to=where if takes else "", rule="H5")


def _advances(batch: Batch, knight: str) -> bool:
    """H2.4: whether `knight` is the attacker that will advance into the hex its defender
    retreated from (not when unhorsed in this combat: H3.1)."""
    combat = batch.state.combat
    assert combat is not None
    return combat.retreated and knight == combat.attacker and knight not in combat.unhorsed


def _after_unhorsing(batch: Batch) -> None:
    combat = batch.state.combat
    assert combat is not None
    _deaths(batch)
    att, dfn = combat.attacker, combat.defender
    if _alive(batch, att) and _alive(batch, dfn) and not _ride_through(batch):
        _retreat(batch)
    _surrender_due(batch)


def _ride_through(batch: Batch) -> bool:
    """I2.1: in the opening charge, an attacker still mounted that unhorsed its opponent goes
    to the hex behind it (and the unhorsed knight stays: example 7). Where that hex is taken
    or off the field, the ordinary retreat and advance apply."""
    combat = batch.state.combat
    assert combat is not None
    att, dfn = combat.attacker, combat.defender
    if not combat.charge or dfn not in combat.unhorsed or att in combat.unhorsed \
            or not batch.state.knights[att].mounted:
        return False
    spot = hexes.behind(combat.origin, combat.target)
    if spot is None or spot not in batch.kit.field or batch.state.at(spot):
        return False
    batch.emit("KnightAdvanced", knight=att, to=spot, rule="I2.1")
    return True


def _retreat(batch: Batch) -> None:
    """H2: the defender that took more hits retreats one hex away from the attack (H2.1);
    blocked, it takes a hit instead (H2.2); pushed off the field, it surrenders (H2.3)."""
    combat = batch.state.combat
    assert combat is not None
    att, dfn = combat.attacker, combat.defender
    if combat.received.get(dfn, 0) <= combat.received.get(att, 0):
        return
    spot = hexes.behind(batch.state.knights[att].where, batch.state.knights[dfn].where)
    if spot is None or spot not in batch.kit.field:
        batch.emit("KnightCaptured", knight=dfn, side=batch.side(dfn), by=att, rule="H2.3")
    elif batch.state.at(spot):
        batch.emit("RetreatBlocked", knight=dfn, at=spot, rule="H2.2")
        take_hits(batch, dfn, 1)
        _deaths(batch)
    else:
        batch.emit("KnightRetreated", knight=dfn, to=spot, rule="H2.1")


def _surrender_due(batch: Batch) -> None:
    """H4: a knight that received a wound, or was wounded and received hits, tests; when both
    do, the one that received more hits in this combat (neither on a tie)."""
    combat = batch.state.combat
    assert combat is not None
    pair = (combat.attacker, combat.defender)
    due = [k for k in pair if _alive(batch, k) and _alive(batch, pair[1 - pair.index(k)])
           and (k in combat.wounded or (k in combat.was_wounded and combat.received.get(k)))]
    if len(due) == 2:
        a, b = (combat.received.get(k, 0) for k in due)
        due = [] if a == b else [due[0] if a > b else due[1]]
    if due:
        batch.emit("CombatStepReached", step="surrender", tests=due)
    else:
        _finish(batch)


def decide_surrender(batch: Batch, action: Action) -> None:
    """H4.1: one die plus the knight's wounds and the Surrended table's modifier (H4.3,
    example 6); above its VC it surrenders, never on an unmodified 1. M1: d'Aste takes a wound
    instead."""
    combat, knight, die = _pending(batch, action, "surrender", "H4.1")
    side = batch.side(knight)
    modifier = batch.kit.surrender_modifier(side, batch.out_of_action(side))
    total = die + batch.state.knights[knight].wounds + modifier
    yields = die != 1 and total > batch.vc(knight)
    batch.emit("SurrenderTested", knight=knight, die=die, modifier=modifier, total=total,
               surrendered=yields)
    captor = combat.defender if knight == combat.attacker else combat.attacker
    if yields and knight == GRAJANO and batch.options.get("grajano"):
        current = batch.state.knights[knight]
        batch.emit("HitsTaken", knight=knight, received=0, hits=current.hits,
                   wounds=current.wounds + 1, rule="M1")
        _deaths(batch)
    elif yields:
        batch.emit("KnightCaptured", knight=knight, side=side, by=captor, rule="H4.2")
    _finish(batch)


def _finish(batch: Batch) -> None:
    """H2.4: the attacker always advances into the hex its defender retreated from, unless it
    was unhorsed (H3.1); then the combat is over and L2 is checked."""
    combat = batch.state.combat
    assert combat is not None
    att = batch.state.knights[combat.attacker]
    if _advances(batch, combat.attacker) and att.on_field \
            and batch.state.at(combat.target) is None:
        batch.emit("KnightAdvanced", knight=combat.attacker, to=combat.target, rule="H2.4")
    batch.emit("CombatEnded", attacker=combat.attacker, defender=combat.defender)
    check_field(batch)

