"""A Skirmish game of exactly as many actions as asked (the `long_game` capability): the
record benchmark replays it to time a long game (`companion bench record`). Skirmish's `turns`
option makes a game as long as wanted; the sides march back and forth and pass, never taking
a camp or the hill, so the game never ends early."""

from __future__ import annotations

from typing import Any

from companion.engine import Game, chance_rng
from companion.games.skirmish.kit import SkirmishKit
from companion.games.skirmish.rules import SkirmishRules
from companion.kits import load_kit

__all__ = ["long_game"]

KEPT_OUT = ("red_camp", "blue_camp", "hill")
"""Where a marching side never goes: taking one would end the game."""


def long_game(actions: int) -> Game[Any]:
    """A seeded game of exactly `actions` actions."""
    kit = load_kit("skirmish")
    assert isinstance(kit, SkirmishKit)
    game: Game[Any] = Game(SkirmishRules(kit, {"turns": actions + 10}))
    rng = chance_rng(0, 0)
    while len(game.history) < actions:
        role = game.to_move()[0]
        moves = [a for a in game.legal_actions(role) if a.verb != "move"
                 or a.args["to"] not in KEPT_OUT]
        game.apply(rng.choice(moves))
    return game
