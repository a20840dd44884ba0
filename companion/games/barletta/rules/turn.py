"""C Svolgimento and D Capacità di Comando: the five turns after the opening charge, the roll
for the initiative (C1, also I1's), order points (D1) and passes (D2), the alternation of
activations (C1, E), and the end of a turn: reorganizations (E1.2, E1.3), then the next turn
or the end of the game (C, L1)."""

from __future__ import annotations

from companion.engine.core import Action, IllegalAction, Sentence
from companion.games.barletta.kit import SIDES
from companion.games.barletta.rules.context import Batch, dice, enemy, knight_arg, name
from companion.games.barletta.rules.state import CAMP
from companion.games.barletta.rules.victory import final

__all__ = ["TURNS", "can_act", "decide_choose", "decide_command", "decide_initiative",
           "decide_recover", "decide_remount", "decide_remount_roll", "next_activation",
           "order_points"]

TURNS = 5
"""C: the joust lasts five turns after the opening charge."""


def decide_initiative(batch: Batch, action: Action) -> None:
    """C1, I1: both roll two dice; the higher has the initiative (a tie is rolled again)."""
    rule = "I1" if batch.state.phase == "setup" else "C1"
    if set(action.args) != set(SIDES):
        raise IllegalAction(rule, Sentence("the initiative dice are given for {sides}",
                                           sides=", ".join(SIDES)))
    rolled = {s: dice(action.args[s], 2, rule) for s in SIDES}
    totals = {s: sum(v) for s, v in rolled.items()}
    winner = "" if totals[SIDES[0]] == totals[SIDES[1]] else max(totals, key=lambda s:
                                                                  totals[s])
    batch.emit("InitiativeRolled", dice={s: list(v) for s, v in rolled.items()},
               winner=winner, rule=rule)


def decide_choose(batch: Batch, action: Action) -> None:
    """C1: the initiative's winner decides whether to play first or second."""
    first = action.role if action.verb == "go_first" else enemy(action.role)
    batch.emit("OrderOfPlayChosen", first=first, rule="C1")


def order_points(batch: Batch, side: str, knight: str) -> tuple[int, int]:
    """D1, D2: the VC of the chosen knight minus 1 per 2 knights out of action, and 1 pass per
    2 knights out of action (fractions do not count: examples 1 and 2)."""
    lost = batch.out_of_action(side)
    return max(0, batch.vc(knight) - lost // 2), lost // 2


def decide_command(batch: Batch, action: Action) -> None:
    """D1: each side names the knight whose VC gives its order points this turn (normally the
    highest), the first player first."""
    side = action.role
    knight = knight_arg(batch, action.args.get("knight"), side, "D1")
    points, passes = order_points(batch, side, knight)
    other = enemy(side)
    done = other in batch.state.commanders
    batch.emit("CommandTaken", side=side, knight=knight, order_points=points, passes=passes,
               next=batch.state.first if done else other, phase="orders" if done else "command",
               rule="D1")
    if done:
        first = batch.state.first
        for candidate in (first, enemy(first)):
            if can_act(batch, candidate):
                batch.emit("ActivationPassed", side=candidate)
                return
        end_turn(batch)


def can_act(batch: Batch, side: str) -> bool:
    """C1: a side acts while it can give an order (an order point and a knight without one this
    turn) or spend a pass."""
    if batch.state.passes.get(side, 0) > 0:
        return True
    if batch.state.order_points.get(side, 0) <= 0:
        return False
    return any(not k.ordered and not k.out and k.where
               for n, k in batch.state.knights.items() if batch.side(n) == side)


def next_activation(batch: Batch, after: str) -> None:
    """C1: the sides alternate; one that can no longer act lets the other go on; when neither
    can, the turn ends."""
    for side in (enemy(after), after):
        if can_act(batch, side):
            batch.emit("ActivationPassed", side=side)
            return
    end_turn(batch)


def end_turn(batch: Batch) -> None:
    """E1.2, E1.3: the knights with a Reorganization marker, then those in their own camp that
    received no order this turn (free), the first player's first."""
    first = batch.state.first or SIDES[0]
    queue = []
    for side in (first, enemy(first)):
        for knight in batch.kit.knights[side]:
            current = batch.state.knights[knight.id]
            if current.out:
                continue
            if current.reorganizing:
                queue.append([knight.id, False])
            elif current.where == CAMP and not current.ordered:
                queue.append([knight.id, True])
    batch.emit("TurnEnded", turn=batch.state.turn, queue=queue)
    _reorganize(batch)


def _in_camp(batch: Batch, knight: str) -> bool:
    """E1.3: a knight in its own camp remounts without a roll, whether its Reorganization is
    the free one or an order paid for (E1.2's remount says «vedi anche E1.3»: the camp, not
    the order, makes the remount sure; a paid order is never worse than none)."""
    return batch.state.knights[knight].where == CAMP


def _options(batch: Batch, knight: str) -> tuple[bool, bool]:
    current = batch.state.knights[knight]
    return current.hits > 0, not current.mounted


def _reorganize(batch: Batch) -> None:
    """E1.2: each knight in the queue recovers up to 2 hits or tries to remount, never both;
    where only one helps it is done at once, where both could the owner chooses; in its own
    camp the remount needs no roll (E1.3)."""
    queue = list(batch.state.queue)
    while queue:
        knight, _ = queue[0]
        recover, remount = _options(batch, knight)
        if recover and remount:
            batch.emit("Reorganizing", queue=[list(q) for q in queue], side=batch.side(knight))
            return
        if remount and not _in_camp(batch, knight):
            batch.emit("Reorganizing", queue=[list(q) for q in queue], remount=knight)
            return
        if remount:
            batch.emit("KnightRemounted", knight=knight, rule="E1.3")
        elif recover:
            _recover(batch, knight)
        queue.pop(0)
    batch.emit("Reorganizing", queue=[])
    if batch.state.turn >= TURNS:
        final(batch)
    else:
        batch.emit("TurnBegan", turn=batch.state.turn + 1)


def _recover(batch: Batch, knight: str) -> None:
    hits = batch.state.knights[knight].hits
    batch.emit("HitsRecovered", knight=knight, recovered=min(2, hits), hits=max(0, hits - 2),
               rule="E1.2")


def _head(batch: Batch, action: Action) -> tuple[str, bool]:
    if not batch.state.queue or batch.state.remounting:
        raise IllegalAction("E1.2", "no reorganization is waiting for a choice")
    knight, free = batch.state.queue[0]
    if action.args.get("knight") != knight or set(action.args) != {"knight"}:
        raise IllegalAction("E1.2", Sentence("{knight} reorganizes now",
                                             knight=name(batch.kit, knight)))
    return knight, free


def _pop(batch: Batch) -> None:
    batch.emit("Reorganizing", queue=[list(q) for q in batch.state.queue[1:]])
    _reorganize(batch)


def decide_recover(batch: Batch, action: Action) -> None:
    """E1.2: remove up to 2 hits (wounds never go)."""
    knight, _ = _head(batch, action)
    _recover(batch, knight)
    _pop(batch)


def decide_remount(batch: Batch, action: Action) -> None:
    """E1.2: try to remount (a die), or at once in the own camp (E1.3)."""
    knight, _ = _head(batch, action)
    if _in_camp(batch, knight):
        batch.emit("KnightRemounted", knight=knight, rule="E1.3")
        _pop(batch)
    else:
        batch.emit("Reorganizing", queue=[list(q) for q in batch.state.queue], remount=knight)


def decide_remount_roll(batch: Batch, action: Action) -> None:
    """E1.2: a die minus the knight's hits and wounds; 2 to 6 remounts (example 3)."""
    knight = batch.state.remounting
    if not knight:
        raise IllegalAction("E1.2", "no remount roll is due")
    if set(action.args) != {"knight", "die"} or action.args["knight"] != knight:
        raise IllegalAction("E1.2", Sentence("the test due is {knight}'s: one die",
                                             knight=name(batch.kit, knight)))
    die = dice((action.args["die"],), 1, "E1.2")[0]
    current = batch.state.knights[knight]
    total = die - current.hits - current.wounds
    batch.emit("RemountTested", knight=knight, die=die, total=total, remounted=total >= 2)
    if total >= 2:
        batch.emit("KnightRemounted", knight=knight, rule="E1.2")
    _pop(batch)
