"""Shogun (Dirk Henn, Queen Games): the rules (`rules/`, chapters of the Italian rulebook,
numbered in docs/shogun.md) and the kit (`kit.py`, `data/`: THE PROJECT'S EXAMPLE BOARD, not
the printed map). The tablet screen is `screen.js`; the card label sheets are `labels.py`; the
table: cubes counted per province and colour and the tower's tray by colour (`reader.py`,
`synth.py`, `vision_bench.py`), what the changes mean (`referee.py`, `script.py`, `table.py`);
the simulated player of `companion demo` (`simulator.py`)."""

from companion.games import GameSpec
from companion.games.shogun import kit as kit
from companion.games.shogun.rules import ShogunRules

GAME = GameSpec(name="shogun", title="Shogun", rules=ShogunRules, kit="shogun",
                screen="screen.js", labels="labels:card_labels", table="table:build",
                simulator="simulator:SIMULATOR",
                samples=("shogun-reference.jsonl",),
                vision_bench="vision_bench:BENCH", calibration="calibration/board.yaml")
