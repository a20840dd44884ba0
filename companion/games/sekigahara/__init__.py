"""Sekigahara (GMT Games): the rules (`rules/`, chapters of the 2016 rulebook), the kit
(`kit.py`, `data/`), the table referee (`table.py`, `referee.py`), the simulated player
(`simulator.py`, `script.py`), the tablet screen (`screen.js`), calibration defaults and
sample records."""

from companion.games import GameSpec
from companion.games.sekigahara import kit as kit
from companion.games.sekigahara.rules import SekigaharaRules

GAME = GameSpec(
    name="sekigahara", title="Sekigahara", rules=SekigaharaRules, kit="sekigahara",
    table="table:build", simulator="simulator:SIMULATOR",
    vision_bench="vision_bench:BENCH", register="physical_set:REGISTRATION",
    screen="screen.js", calibration="calibration/board.yaml", labels="labels:card_labels",
    samples=("sekigahara-demo.jsonl",), table_options={"knowledge": "table"},
)
