"""La Disfida di Barletta (Marco Rossi, Acies edizioni): 13 Italian and 13 French knights on a
hex grid. The rules (`rules/`, one module per chapter of the Italian rulebook), the kit
(`kit.py`, `hexes.py`, `data/`: the field, the knights, the melee and surrender tables as
data), registering a copy's own values (`physical_set.py`), the tablet screen (`screen.js`),
and how its table is read (`table_state.py`: a tag on each face of a counter; `reader.py`,
`tracker.py`, `synth.py`, `vision_bench.py`: hexes, faces and dice from the camera;
`referee.py`, `script.py`, `table.py`: what the changes mean), and the simulated player that
acts a game out at a table drawn in pixels (`simulator.py`: `companion demo --game barletta`)."""

from companion.games import GameSpec
from companion.games.barletta import kit as kit
from companion.games.barletta.rules import BarlettaRules

GAME = GameSpec(
    name="barletta", title="La Disfida di Barletta", rules=BarlettaRules, kit="barletta",
    aliases=("disfida", "disfida-di-barletta", "disfida_di_barletta"),
    register="physical_set:REGISTRATION", screen="screen.js", table="table:build",
    vision_bench="vision_bench:BENCH", calibration="calibration/board.yaml",
    simulator="simulator:SIMULATOR",
    samples=("barletta-reference.jsonl",),
)
