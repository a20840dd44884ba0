"""Random play over any registered game: the fuzzer that finds crashes, dead ends and runaways.

As Rally the Troops' fuzzer does, it picks uniformly among the legal actions of whoever may act,
lets chance act through the game's own seeded sampler, and stops at the end of the game or after
`max_actions`. A state where someone should act but nobody can is a dead end, reported as such.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from companion.engine.core.errors import EngineError
from companion.engine.core.game import Game, chance_rng
from companion.engine.core.rules import CHANCE
from companion.engine.core.values import Action

__all__ = ["DeadEnd", "Playout", "pick_action", "random_playout"]


class DeadEnd(EngineError):
    """The game is not over, yet nobody has a legal action: a rules bug."""


def pick_action(game: Game[Any], roles: tuple[str, ...], rng: random.Random) -> Action | None:
    """A random legal action of a random role among those who may act."""
    for role in rng.sample(roles, len(roles)):
        action = game.rules.random_action(game.state, role, rng)
        if action is not None:
            return action
    return None


@dataclass(frozen=True)
class Playout:
    game: Game[Any]
    finished: bool

    @property
    def actions(self) -> int:
        return len(self.game.history)


def random_playout(game: Game[Any], max_actions: int = 10_000) -> Playout:
    """Play `game` on at random from where it stands (seeded by `game.seed`)."""
    while game.outcome is None and len(game.history) < max_actions:
        step = len(game.history)
        roles = game.to_move()
        if CHANCE in roles:
            game.play_chance()
            continue
        rng = chance_rng(game.seed, -1 - step)  # the players' choices: a stream apart from chance
        action = pick_action(game, roles, rng)
        if action is None:
            raise DeadEnd(f"after {step} actions nobody can act: waiting for {roles}, "
                          f"no legal actions")
        game.apply(action)
    return Playout(game, game.outcome is not None)
