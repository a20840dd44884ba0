"""Skirmish state and how each event changes it (docs/skirmish.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from companion.engine.core import Event, Outcome

__all__ = ["Battle", "SkirmishState", "evolve"]


@dataclass(frozen=True)
class Battle:
    """A battle waiting for its dice (S4.1)."""

    at: str
    attacker: str
    defender: str


@dataclass(frozen=True)
class SkirmishState:
    positions: Mapping[str, str]
    """Block id -> location, for blocks still on the map."""
    owner: Mapping[str, str]
    """Block id -> side, for every block (eliminated ones too)."""
    active: str
    turn: int
    eliminated: tuple[str, ...] = ()
    revealed: frozenset[str] = frozenset()
    battle: Battle | None = None
    outcome: Outcome | None = None

    def blocks_at(self, location: str, side: str) -> list[str]:
        return sorted(b for b, at in self.positions.items()
                      if at == location and self.owner[b] == side)


def _moved(state: SkirmishState, event: Event) -> SkirmishState:
    block = event.data["block"]
    positions = MappingProxyType({**state.positions, block: event.data["to"]})
    return replace(state, positions=positions, revealed=state.revealed - {block})  # S4.6


def _battle_began(state: SkirmishState, event: Event) -> SkirmishState:
    d = event.data
    return replace(state, battle=Battle(d["at"], d["attacker"], d["defender"]))


def _revealed(state: SkirmishState, event: Event) -> SkirmishState:
    return replace(state, revealed=state.revealed | set(event.data["blocks"]))


def _eliminated(state: SkirmishState, event: Event) -> SkirmishState:
    block = event.data["block"]
    positions = MappingProxyType({b: at for b, at in state.positions.items() if b != block})
    return replace(state, positions=positions, eliminated=(*state.eliminated, block))


def _battle_ended(state: SkirmishState, event: Event) -> SkirmishState:
    return replace(state, battle=None)


def _turn_ended(state: SkirmishState, event: Event) -> SkirmishState:
    return replace(state, active=event.data["next"], turn=event.data["turn"])


def _game_ended(state: SkirmishState, event: Event) -> SkirmishState:
    d = event.data
    return replace(state, outcome=Outcome(d["termination"], d["winner"], d["rule"]))


def _nothing(state: SkirmishState, event: Event) -> SkirmishState:
    return state


_EVOLVE = {
    "BlockMoved": _moved,
    "BattleBegan": _battle_began,
    "DiceRolled": _nothing,
    "BlocksRevealed": _revealed,
    "BlockEliminated": _eliminated,
    "BattleEnded": _battle_ended,
    "TurnPassed": _nothing,
    "TurnEnded": _turn_ended,
    "GameEnded": _game_ended,
}


def evolve(state: SkirmishState, event: Event) -> SkirmishState:
    """The state after `event`; KeyError for an event type Skirmish never produces."""
    return _EVOLVE[event.type](state, event)
