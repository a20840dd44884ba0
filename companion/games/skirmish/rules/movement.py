"""S3 movement: one block along one road, or a pass."""

from __future__ import annotations

from companion.engine.core import Action, Event, IllegalAction, Sentence
from companion.games.skirmish.kit import SkirmishKit
from companion.games.skirmish.rules.state import SkirmishState
from companion.games.skirmish.rules.turns import end_of_turn, game_ended, opponent

__all__ = ["block_said", "decide_move", "decide_pass", "legal_moves", "place_said", "side_said"]


def side_said(side: object) -> Sentence:
    """A side as a refusal names it ("Red", "Rosso"); "that side" for what names neither."""
    return Sentence(side.capitalize() if side in ("red", "blue") else "that side")


def place_said(kit: SkirmishKit, place: object) -> Sentence:
    """A place by its name on the map ("Red Camp", "Hill"); "that place" for what names none
    (a refusal never quotes an id or a value as it was sent)."""
    return Sentence(next((loc.name for loc in kit.locations if loc.id == place), "that place"))


def block_said(block: object) -> Sentence:
    """A block by its side and letter ("Red block A"); "that block" for what names none."""
    side, _, letter = str(block).partition("_")
    if side not in ("red", "blue") or len(letter) != 1 or not letter.isalpha():
        return Sentence("that block")
    return Sentence("{side} block {letter}", side=side_said(side), letter=letter.upper())


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
        raise IllegalAction("S2.1", Sentence("{side} has no such block to move",
                                             side=side_said(side)),
                            legal=[a.text() for a in legal_moves(kit, state, side)])
    if block not in state.positions:
        raise IllegalAction("S4.5", Sentence("{block} was eliminated and cannot move",
                                             block=block_said(block)))
    at = state.positions[str(block)]
    if to not in kit.neighbours[at]:
        raise IllegalAction("S3.1", Sentence("no road leads from {place} to {to}",
                                             place=place_said(kit, at), to=place_said(kit, to)),
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
