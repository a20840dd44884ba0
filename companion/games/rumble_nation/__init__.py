"""Rumble Nation (Yogi Shinichi): the rules (`rules/`, chapters of the Italian rulebook), the
kit (`kit.py`, `data/`), how its table is read (soldiers counted by colour, dice read in the
tray: `synth.py`, `vision_bench.py`), calibration defaults."""

from companion.games import GameSpec
from companion.games.rumble_nation import kit as kit
from companion.games.rumble_nation.rules import RumbleNationRules

GAME = GameSpec(
    name="rumble_nation", title="Rumble Nation", rules=RumbleNationRules, kit="rumble_nation",
    aliases=("rumble-nation", "rumble"), vision_bench="vision_bench:bench_rumble_vision",
    calibration="calibration/board.yaml",
)
