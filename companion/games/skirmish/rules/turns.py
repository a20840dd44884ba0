"""S2 turns and S5 victory: what happens when a turn ends."""

from __future__ import annotations

from companion.engine.core import Event
from companion.games.skirmish.kit import SkirmishKit
from companion.games.skirmish.rules.state import SkirmishState

__all__ = ["end_of_turn", "game_ended", "opponent"]


def opponent(kit: SkirmishKit, side: str) -> str:
    return next(s for s in kit.armies if s != side)


def game_ended(termination: str, winner: str | None, rule: str) -> Event:
    return Event("GameEnded", {"termination": termination, "winner": winner, "rule": rule})


def end_of_turn(kit: SkirmishKit, state: SkirmishState, turns: int) -> list[Event]:
    """Pass the turn to the other side (S2.1), or end the game after the last turn (S5.3)."""
    if state.turn >= turns:
        counts = {side: sum(1 for b in state.positions if state.owner[b] == side)
                  for side in kit.armies}
        best = max(counts.values())
        leaders = [side for side, n in counts.items() if n == best]
        winner = leaders[0] if len(leaders) == 1 else None
        return [game_ended("last turn played", winner, "S5.3")]
    return [Event("TurnEnded", {"next": opponent(kit, state.active), "turn": state.turn + 1})]
