"""Skirmish: the engine core's reference game (rules in docs/skirmish.md).

Two sides, four hidden blocks each, seven locations, one die per side in battle. It is small
enough to fuzz exhaustively and has what the real games have: a map, hidden pieces, chance,
rule-numbered errors and per-role views. It also gives the shipped sample record its game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import MappingProxyType
from typing import Any

from companion.engine.core import (
    CHANCE,
    Action,
    Event,
    GameType,
    Option,
    Outcome,
    PhaseTable,
    Rules,
    register,
)
from companion.games.skirmish.kit import SkirmishKit
from companion.games.skirmish.rules.battle import decide_roll, legal_rolls
from companion.games.skirmish.rules.movement import decide_move, decide_pass, legal_moves
from companion.games.skirmish.rules.state import SkirmishState, evolve
from companion.games.skirmish.rules.views import view

__all__ = ["SkirmishRules", "SkirmishState"]


Decider = Callable[[SkirmishKit, SkirmishState, Action, int], Sequence[Event]]
PHASES: PhaseTable[Decider] = PhaseTable({"battle": {"roll": decide_roll},
                     "turn": {"move": decide_move, "pass": decide_pass}},
                    {"battle": "S4", "turn": "S2.1"}, default_rule="S2.1",
                    takes={"roll": ("attacker", "defender"), "move": ("block", "to"),
                           "pass": ()})
"""A turn's verbs (S2.1); the dice a battle rolls (S4) are chance's. Each verb's arguments
are named, so that one the game does not define is refused, never recorded."""


@register
class SkirmishRules(Rules[SkirmishState, SkirmishKit]):
    game_type = GameType(
        name="skirmish", title="Skirmish", kit="skirmish", min_players=2, max_players=2,
        chance=True, hidden_information=True, rulebook="docs/skirmish.md",
        turn_rule="S2.1", end_rule="S5",
        options=(Option("turns", 40, minimum=1,
                        help="how many turns in all before S5.3 decides"),),
    )

    @property
    def roles(self) -> tuple[str, ...]:
        return tuple(self.kit.armies)

    def initial_state(self) -> SkirmishState:
        """S1.1: every block in its camp; S1.2: the first side listed moves first."""
        positions = {u.id: army.home for army in self.kit.armies.values() for u in army.blocks}
        owner = {u.id: side for side, army in self.kit.armies.items() for u in army.blocks}
        return SkirmishState(MappingProxyType(positions), MappingProxyType(owner),
                             active=self.roles[0], turn=1)

    def to_move(self, state: SkirmishState) -> tuple[str, ...]:
        if state.outcome is not None:
            return ()
        return (CHANCE,) if state.battle is not None else (state.active,)

    def legal_actions(self, state: SkirmishState, role: str) -> Sequence[Action]:
        if role not in self.to_move(state):
            return []
        if role == CHANCE:
            return legal_rolls()
        return [*legal_moves(self.kit, state, role), Action(role, "pass")]

    def decide(self, state: SkirmishState, action: Action) -> Sequence[Event]:
        turns = int(self.options["turns"])
        phase = "battle" if action.role == CHANCE else "turn"
        return PHASES.dispatch(phase, action)(self.kit, state, action, turns)

    def evolve(self, state: SkirmishState, event: Event) -> SkirmishState:
        return evolve(state, event)

    def view(self, state: SkirmishState, role: str) -> dict[str, Any]:
        return view(self.kit, state, role)

    def outcome(self, state: SkirmishState) -> Outcome | None:
        return state.outcome
