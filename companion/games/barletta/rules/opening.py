"""I Primo scontro: the deployment along the melee line (I1) and the opening charge (I2)."""

from __future__ import annotations

from companion.engine.core import Action, IllegalAction, Sentence
from companion.games.barletta.rules.combat import begin
from companion.games.barletta.rules.context import Batch, enemy, knight_arg, name

__all__ = ["chargers", "decide_charge", "decide_deploy", "next_charge", "unplaced"]


def unplaced(batch: Batch, side: str) -> list[str]:
    return [k.id for k in batch.kit.knights[side] if not batch.state.knights[k.id].where
            and not batch.state.knights[k.id].out]


def decide_deploy(batch: Batch, action: Action) -> None:
    """I1: the initiative's winner places one knight on its side of the melee line, then the
    sides place two at a time, alternately, until all 26 face each other."""
    side = action.role
    knight = knight_arg(batch, action.args.get("knight"), side, "I1")
    if batch.state.knights[knight].where:
        raise IllegalAction("I1", Sentence("{knight} is already on the field",
                                           knight=name(batch.kit, knight)))
    spot = action.args.get("hex")
    line = batch.kit.sides[side].melee_line
    if spot not in line:
        raise IllegalAction("I1", Sentence("your knights deploy on your melee line, {first} to "
                                           "{last}", first=line[0], last=line[-1]))
    if batch.state.at(str(spot)):
        raise IllegalAction("G", Sentence("hex {hex} is taken: one knight per hex",
                                          hex=str(spot)))
    left = batch.state.placing - 1
    nxt, phase = side, "deploy"
    if left == 0:
        other = enemy(side)
        mine = len(unplaced(batch, side)) - 1
        theirs = len(unplaced(batch, other))
        if theirs:
            nxt, left = other, min(2, theirs)
        elif mine:
            left = min(2, mine)
        else:
            phase = "charge"
    batch.emit("KnightDeployed", knight=knight, hex=spot, next=nxt, placing=left, phase=phase)
    if phase == "charge":
        next_charge(batch, enemy(batch.state.initiative))


def chargers(batch: Batch, side: str) -> list[str]:
    """I2: the side's knights that have not fought, with an enemy knight in front of them."""
    found = []
    for knight in batch.kit.knights[side]:
        current = batch.state.knights[knight.id]
        if current.fought or not current.on_field:
            continue
        front = batch.kit.front(side, current.where)
        facing = batch.state.at(front) if front else None
        if facing is not None and batch.side(facing) != side:
            found.append(knight.id)
    return found


def next_charge(batch: Batch, after: str) -> None:
    """I2: the other side charges next; a side with no knight left to charge lets the other go
    on; when neither has one, the opening charge is over and turn 1 begins (C)."""
    for side in (enemy(after), after):
        if chargers(batch, side):
            batch.emit("ChargeTurn", side=side)
            return
    batch.emit("ChargeEnded")
    batch.emit("TurnBegan", turn=1)


def decide_charge(batch: Batch, action: Action) -> None:
    """I2: a knight that has not fought charges the enemy knight in front of it."""
    side = action.role
    knight = knight_arg(batch, action.args.get("knight"), side, "I2")
    if knight not in chargers(batch, side):
        raise IllegalAction("I2", Sentence("{knight} cannot charge: it has fought already or "
                                           "has no enemy in front of it",
                                           knight=name(batch.kit, knight)))
    where = batch.state.knights[knight].where
    front = batch.kit.front(side, where)
    assert front is not None
    target = batch.state.at(front)
    assert target is not None
    begin(batch, knight, target, charge=True)
