"""Rumble Nation (Yogi Shinichi): the rules (`rules/`, chapters of the Italian rulebook), the
kit (`kit.py`, `data/`), how its table is read (soldiers counted by colour and dice read in the
tray: `reader.py`, `synth.py`, `vision_bench.py`; what the changes mean: `table.py`,
`referee.py`), the simulated player (`simulator.py`, `script.py`), calibration defaults."""

from companion.games import GameSpec
from companion.games.rumble_nation import kit as kit
from companion.games.rumble_nation.rules import RumbleNationRules

GAME = GameSpec(
    name="rumble_nation", title="Rumble Nation", rules=RumbleNationRules, kit="rumble_nation",
    aliases=("rumble-nation", "rumble"), table="table:build", simulator="simulator:SIMULATOR",
    vision_bench="vision_bench:BENCH", screen="screen.js", calibration="calibration/board.yaml",
    samples=("rumble-nation-reference.jsonl",),
)
