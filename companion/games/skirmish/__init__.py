"""Skirmish: the engine core's reference game (docs/skirmish.md), small enough to reason
about completely. Rules and kit only: it is never played at a real table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games import GameSpec
from companion.games.skirmish import kit as kit
from companion.games.skirmish.kit import SkirmishKit
from companion.games.skirmish.rules import SkirmishRules

if TYPE_CHECKING:
    from companion.games.contract import LongGame, Secrets


def _secrets() -> Secrets:
    from companion.games.skirmish.rules.secrets import secrets
    return secrets


def _long_game() -> LongGame:
    from companion.games.skirmish.long_game import long_game
    return long_game


GAME: GameSpec[SkirmishRules, SkirmishKit, Any] = GameSpec(
    name="skirmish", title="Skirmish", rules=SkirmishRules, kit_type=SkirmishKit,
    kit="skirmish", secrets=_secrets, long_game=_long_game, samples=("skirmish-demo.jsonl",),
)
