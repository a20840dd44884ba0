"""S4 battle: a die each, strength plus die, defender wins ties, loser's blocks eliminated."""

from __future__ import annotations

from companion.engine.core import CHANCE, Action, Event, IllegalAction, Sentence
from companion.games.skirmish.kit import SkirmishKit
from companion.games.skirmish.rules.state import SkirmishState
from companion.games.skirmish.rules.turns import end_of_turn, game_ended

__all__ = ["decide_roll", "legal_rolls"]

DIE = range(1, 7)


def legal_rolls() -> list[Action]:
    return [Action(CHANCE, "roll", {"attacker": a, "defender": d}) for a in DIE for d in DIE]


def decide_roll(kit: SkirmishKit, state: SkirmishState, action: Action, turns: int) -> list[Event]:
    """Resolve the pending battle with the dice in `action` (S4.2-S4.5, S5.1, S5.2)."""
    battle = state.battle
    if battle is None:
        raise IllegalAction("S4.2", "no battle is waiting for dice")
    dice = {role: _die(action, role) for role in ("attacker", "defender")}
    fighters = {side: state.blocks_at(battle.at, side)
                for side in (battle.attacker, battle.defender)}
    totals = {
        battle.attacker: sum(kit.strength[b] for b in fighters[battle.attacker]) + dice["attacker"],
        battle.defender: sum(kit.strength[b] for b in fighters[battle.defender]) + dice["defender"],
    }
    winner = battle.attacker if totals[battle.attacker] > totals[battle.defender] \
        else battle.defender  # S4.4: ties go to the defender
    loser = battle.defender if winner == battle.attacker else battle.attacker
    revealed = sorted(fighters[battle.attacker] + fighters[battle.defender])
    events = [
        Event("DiceRolled", dict(dice)),
        Event("BlocksRevealed", {"blocks": revealed,
                                 "strengths": {b: kit.strength[b] for b in revealed}}),
        *[Event("BlockEliminated", {"block": b, "side": loser}) for b in fighters[loser]],
        Event("BattleEnded", {"at": battle.at, "winner": winner, "totals": totals}),
    ]
    return events + _after_battle(kit, state, battle.at, winner, loser, fighters, turns)


def _die(action: Action, role: str) -> int:
    value = action.args.get(role)
    if not isinstance(value, int) or isinstance(value, bool) or value not in DIE:
        raise IllegalAction("S4.2", Sentence("the {role}'s die must show 1-6",
                                             role=Sentence(role)))
    return value


def _after_battle(
    kit: SkirmishKit, state: SkirmishState, at: str, winner: str, loser: str,
    fighters: dict[str, list[str]], turns: int,
) -> list[Event]:
    left = [b for b, _ in state.positions.items()
            if state.owner[b] == loser and b not in fighters[loser]]
    if not left:
        return [game_ended(Sentence("{side} has no blocks left", side=loser), winner, "S5.2")]
    if at == kit.armies[loser].home:
        return [game_ended(Sentence("{side} took the enemy camp", side=winner), winner, "S5.1")]
    return end_of_turn(kit, state, turns)
