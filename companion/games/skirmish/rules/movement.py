"""S3 movement: one block along one road, or a pass."""

from __future__ import annotations

from companion.engine.core import Action, Event, IllegalAction, Sentence
from companion.games.skirmish.kit import SkirmishKit
from companion.games.skirmish.rules.state import SkirmishState
from companion.games.skirmish.rules.turns import end_of_turn, game_ended, opponent

__all__ = ["decide_move", "decide_pass", "legal_moves"]


def legal_moves(kit: SkirmishKit, state: SkirmishState, side: str) -> list[Action]:
    return [
        Action(side, "move", {"block": block, "to": to})
        for block, at in sorted(state.positions.items()) if state.owner[block] == side
        for to in kit.neighbours[at]
    ]


def decide_move(kit: SkirmishKit, state: SkirmishState, action: Action, turns: int) -> list[Event]:
    """Move a block (S3.1); entering enemy blocks starts a battle (S4.1)."""
    block, to = action.args.get("block"), action.args.get("to")
    side = action.role
    if state.owner.get(str(block)) != side:
        raise IllegalAction("S2.1", Sentence("{side} has no block '{block}' to move", side=side,
                                             block=block),
                            legal=[a.text() for a in legal_moves(kit, state, side)])
    if block not in state.positions:
        raise IllegalAction("S4.5", Sentence("block '{block}' was eliminated and cannot move",
                                             block=block))
    at = state.positions[str(block)]
    if to not in kit.neighbours[at]:
        raise IllegalAction("S3.1", Sentence("no road leads from {place} to '{to}'", place=at,
                                             to=to),
                            legal=[f"{side} move {block} to {n}" for n in kit.neighbours[at]])
    events = [Event("BlockMoved", {"block": block, "side": side, "from": at, "to": to})]
    enemy = opponent(kit, side)
    if state.blocks_at(str(to), enemy):
        return [*events, Event("BattleBegan", {"at": to, "attacker": side, "defender": enemy})]
    if to == kit.armies[enemy].home:
        return [*events, game_ended(Sentence("{side} took the enemy camp", side=side), side,
                                    "S5.1")]
    return events + end_of_turn(kit, state, turns)


def decide_pass(kit: SkirmishKit, state: SkirmishState, action: Action, turns: int) -> list[Event]:
    """A side may pass instead of moving (S2.1)."""
    return [Event("TurnPassed", {"side": action.role}), *end_of_turn(kit, state, turns)]
