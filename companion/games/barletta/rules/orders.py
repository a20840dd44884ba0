"""E Ordini, F Movimento, G Ammassamento: activating a knight (1 order point, D1.1) with a
Move order (E1.1: movement, then at most one attack) or a Reorganization order (E1.2), or
spending a pass instead (D2).

Movement (F): 5 movement points mounted, 3 on foot, 1 per hex; declaring an attack costs 1
(F1); from the own camp a knight enters by a hex its camp or shield touches, which costs 1 (F2).
One knight per hex, never through another (G); no facing (G1), no zones of control (G2), so
only the distance around the knights counts."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import NoReturn

from companion.engine.core import Action, IllegalAction, Sentence
from companion.games.barletta.kit import BarlettaKit
from companion.games.barletta.rules.combat import begin
from companion.games.barletta.rules.context import Batch, enemy, knight_arg, name
from companion.games.barletta.rules.state import CAMP, BState
from companion.games.barletta.rules.turn import next_activation

__all__ = ["MAX_ATTACKS", "attack_targets", "decide_move", "decide_pass", "decide_reorganize",
           "movement_points", "reach", "stays_put"]

MAX_ATTACKS = 5
"""E1.1: at most five attacks per side per turn (the Attack markers)."""


def movement_points(mounted: bool) -> int:
    """F: 5 mounted, 3 on foot."""
    return 5 if mounted else 3


def reach(kit: BarlettaKit, state: BState, knight: str) -> Mapping[str, int]:
    """Each hex the knight can end its move on, with its cost in movement points (its own
    position costs 0). From the camp: the entry hexes cost 1 (F2)."""
    current = state.knights[knight]
    budget = movement_points(current.mounted)
    taken = frozenset(state.occupied)
    key = (current.where, kit.side_of[knight], budget, taken)
    cache = kit_cache(kit)
    if key not in cache:
        if len(cache) > 4096:
            cache.clear()
        cache[key] = _walk(kit, *key)
    return cache[key]


_CACHES: dict[int, tuple[BarlettaKit, dict[tuple[str, str, int, frozenset[str]],
                                           Mapping[str, int]]]] = {}


def kit_cache(kit: BarlettaKit) -> dict[tuple[str, str, int, frozenset[str]], Mapping[str, int]]:
    """The walks already made on this kit (kits are immutable and few)."""
    held = _CACHES.get(id(kit))
    if held is None or held[0] is not kit:
        held = (kit, {})
        _CACHES[id(kit)] = held
    return held[1]


def _walk(kit: BarlettaKit, start: str, side: str, budget: int, taken: frozenset[str]
          ) -> Mapping[str, int]:
    cost: dict[str, int] = {start: 0}
    frontier: deque[str] = deque()
    if start == CAMP:
        for spot in kit.entries(side):
            if spot not in taken:
                cost[spot] = 1
                frontier.append(spot)
    else:
        frontier.append(start)
    while frontier:
        here = frontier.popleft()
        if cost[here] >= budget:
            continue
        for spot in kit.neighbours.get(here, ()):
            if spot not in cost and spot not in taken:
                cost[spot] = cost[here] + 1
                frontier.append(spot)
    return cost


def attack_targets(batch: Batch, knight: str, spot: str) -> list[str]:
    """The enemy knights adjacent to `spot` this knight may attack (H: one attacked this turn
    and not yet activated may attack only a knight that attacked it)."""
    if spot == CAMP:
        return []
    state = batch.state
    side = batch.side(knight)
    found = []
    for near in batch.kit.neighbours.get(spot, ()):
        other = state.at(near)
        if other is None or batch.side(other) == side:
            continue
        attackers = state.knights[knight].attacked_by
        if attackers and other not in attackers:
            continue
        found.append(other)
    return sorted(found)


def _activate(batch: Batch, knight_value: object, side: str, rule: str) -> str:
    knight = knight_arg(batch, knight_value, side, rule)
    if batch.state.knights[knight].ordered:
        raise IllegalAction("E", Sentence("{knight} has already received an order this turn",
                                          knight=name(batch.kit, knight)))
    if batch.state.order_points.get(side, 0) <= 0:
        raise IllegalAction("D1.1", "no order points left this turn")
    return knight


def stays_put(state: BState, knight: str, to: object) -> bool:
    """E1.1: a Move order to the hex the knight stands on moves it nowhere (it may still
    attack from there). The order and its words ("stays at 14") both ask here."""
    return to == state.knights[knight].where


def decide_move(batch: Batch, action: Action) -> None:
    """E1.1, F, G, H: a Move order, then at most one attack from where the knight stops."""
    side = action.role
    knight = _activate(batch, action.args.get("knight"), side, "E1.1")
    current = batch.state.knights[knight]
    spot = action.args.get("to")
    costs = reach(batch.kit, batch.state, knight)
    if not isinstance(spot, str) or spot not in costs:
        _unreachable(batch, knight, spot)
    target = action.args.get("attack")
    if "attack" in action.args:
        _check_attack(batch, knight, spot, costs[spot], target)
    batch.emit("KnightOrdered", knight=knight, side=side, order="move", rule="E1.1")
    if not stays_put(batch.state, knight, spot):
        batch.emit("KnightMoved", knight=knight, **{"from": current.where}, to=spot,
                   cost=costs[spot])
    if "attack" in action.args:
        assert isinstance(target, str)
        begin(batch, knight, target, charge=False)
    else:
        next_activation(batch, side)


def _spot_said(spot: object) -> str:
    """Where a move was sent, as a refusal says it: a hex by its number, the camp in words,
    "that hex" for what names neither."""
    if spot == CAMP:
        return Sentence("the camp")
    return spot if isinstance(spot, str) and spot.isdigit() else Sentence("that hex")


def _unreachable(batch: Batch, knight: str, spot: object) -> NoReturn:
    """Why the move cannot stop on `spot`, with the rule that forbids it: a hex taken by
    another knight, or one reached only through others (G); a hex the camp does not open onto
    (F2: only the own camp's and shield's hexes); too far (F)."""
    state, kit = batch.state, batch.kit
    current = state.knights[knight]
    points = movement_points(current.mounted)
    other = state.at(spot) if isinstance(spot, str) else None
    if other is not None and other != knight:
        raise IllegalAction("G", Sentence("hex {hex} is taken by {other}: one knight per hex",
                                          hex=str(spot), other=name(kit, other)))
    if isinstance(spot, str) and spot in _walk(kit, current.where, kit.side_of[knight], points,
                                               frozenset()):
        raise IllegalAction("G", Sentence("{knight} cannot reach {hex}: no knight passes "
                                          "through a hex another knight holds",
                                          knight=name(kit, knight), hex=spot))
    side = kit.side_of[knight]
    if current.where == CAMP and spot in kit.entries(enemy(side)):
        raise IllegalAction("F2", Sentence("{knight} enters from its own camp or shield hexes, "
                                           "not the enemy's", knight=name(kit, knight)))
    raise IllegalAction("F", Sentence("{knight} cannot reach {hex}: {points} movement points, "
                                      "1 a hex", knight=name(kit, knight),
                                      hex=_spot_said(spot), points=points))


def _check_attack(batch: Batch, knight: str, spot: str, cost: int, target: object) -> None:
    side = batch.side(knight)
    if batch.state.attacks.get(side, 0) >= MAX_ATTACKS:
        raise IllegalAction("E1.1", "your side has made its five attacks this turn")
    if cost + 1 > movement_points(batch.state.knights[knight].mounted):
        raise IllegalAction("F1", Sentence("{knight} has no movement point left to attack",
                                           knight=name(batch.kit, knight)))
    if target not in attack_targets(batch, knight, spot):
        attackers = batch.state.knights[knight].attacked_by
        if attackers and isinstance(target, str) and target in batch.kit.by_id \
                and batch.side(target) == enemy(side):
            raise IllegalAction("H", Sentence(
                "{knight} was attacked this turn: it may attack only {attackers}",
                knight=name(batch.kit, knight),
                attackers=", ".join(name(batch.kit, a) for a in attackers)))
        raise IllegalAction("E1.1", Sentence("{knight} can attack only an enemy knight next to "
                                             "{hex}", knight=name(batch.kit, knight),
                                             hex=spot))


def decide_reorganize(batch: Batch, action: Action) -> None:
    """E1.2: a Reorganization order, for a knight on foot or with hits that was not attacked
    this turn."""
    side = action.role
    knight = _activate(batch, action.args.get("knight"), side, "E1.2")
    current = batch.state.knights[knight]
    if current.mounted and not current.hits:
        raise IllegalAction("E1.2", Sentence("{knight} is mounted and has no hits: nothing to "
                                             "reorganize", knight=name(batch.kit, knight)))
    if current.attacked_by:
        raise IllegalAction("E1.2", Sentence("{knight} was attacked this turn: no "
                                             "reorganization", knight=name(batch.kit, knight)))
    batch.emit("KnightOrdered", knight=knight, side=side, order="reorganize", rule="E1.2")
    next_activation(batch, side)


def decide_pass(batch: Batch, action: Action) -> None:
    """D2: a pass instead of an order."""
    side = action.role
    if batch.state.passes.get(side, 0) <= 0:
        raise IllegalAction("D2", "no passes left: one for every two knights out of the fight")
    batch.emit("PassUsed", side=side, rule="D2")
    next_activation(batch, side)
