"""Random play over any registered game: the fuzzer that finds crashes, dead ends and runaways.

As Rally the Troops' fuzzer does, it picks uniformly among the legal actions of whoever may act,
lets chance act through the game's own seeded sampler, and stops at the end of the game or after
`max_actions`. A state where someone should act but nobody can is a dead end, reported as such.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.engine.core.errors import EngineError
from companion.engine.core.game import Game, chance_rng
from companion.engine.core.rules import CHANCE

__all__ = ["DeadEnd", "Playout", "random_playout"]


class DeadEnd(EngineError):
    """The game is not over, yet nobody has a legal action: a rules bug."""


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
        choices = game.legal_actions()
        if not choices:
            raise DeadEnd(f"after {step} actions nobody can act: waiting for {roles}, "
                          f"no legal actions")
        game.apply(rng.choice(choices))
    return Playout(game, game.outcome is not None)
