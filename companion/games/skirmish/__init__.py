"""Skirmish: the engine core's reference game (docs/skirmish.md), small enough to reason
about completely. Rules and kit only: it is never played at a real table."""

from companion.games import GameSpec
from companion.games.skirmish import kit as kit
from companion.games.skirmish.rules import SkirmishRules

GAME = GameSpec(
    name="skirmish", title="Skirmish", rules=SkirmishRules, kit="skirmish",
    samples=("skirmish-demo.jsonl",),
)
