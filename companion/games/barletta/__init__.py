"""La Disfida di Barletta (Marco Rossi, Acies edizioni): 13 Italian and 13 French knights on a
hex grid. The rules (`rules/`, one module per chapter of the Italian rulebook), the kit
(`kit.py`, `hexes.py`, `data/`: the field, the knights, the melee and surrender tables as
data), registering a copy's own values and its counters' tags (`physical_set.py`), the tablet
screen (`screen.js`), and how its table is read (`table_state.py`: a tag on each face of a
counter; `reader.py`, `tracker.py`, `synth.py`, `vision_bench.py`: hexes, faces and dice from
the camera; `referee.py`, `script.py`, `table.py`: what the changes mean), and the simulated
player that acts a game out at a table drawn in pixels (`simulator.py`: `companion demo --game
barletta`).

Each capability is declared by a loader below, typed with the host's protocol and importing
its module only when asked (`companion.games`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games import GameSpec, Showcase
from companion.games.barletta import kit as kit
from companion.games.barletta.kit import BarlettaKit
from companion.games.barletta.rules import BarlettaRules

if TYPE_CHECKING:
    from companion.games.barletta.table import BarlettaParts
    from companion.games.contract import Benchmark, BoardLoader, Registration, Secrets
    from companion.table import TableBuilder
    from companion.table.acting import Simulator


def _table() -> TableBuilder[BarlettaRules, BarlettaParts]:
    from companion.games.barletta.table import build
    return build


def _simulator() -> Simulator[BarlettaRules, BarlettaParts]:
    from companion.games.barletta.simulator import SIMULATOR
    return SIMULATOR


def _vision_bench() -> Benchmark:
    from companion.games.barletta.vision_bench import BENCH
    return BENCH


def _register() -> Registration[BarlettaKit]:
    from companion.games.barletta.physical_set import REGISTRATION
    return REGISTRATION


def _board() -> BoardLoader[BarlettaKit]:
    from companion.games.barletta.reader import field_geometry
    return field_geometry


def _secrets() -> Secrets:
    from companion.games.barletta.rules.secrets import secrets
    return secrets


GAME: GameSpec[BarlettaRules, BarlettaKit, BarlettaParts] = GameSpec(
    name="barletta", title="La Disfida di Barletta", rules=BarlettaRules,
    kit_type=BarlettaKit, kit="barletta",
    aliases=("disfida", "disfida-di-barletta", "disfida_di_barletta"),
    table=_table, simulator=_simulator, vision_bench=_vision_bench, register=_register,
    board=_board, secrets=_secrets, screen="screen.js", calibration="calibration/board.yaml",
    samples=("barletta-reference.jsonl",),
    showcase=Showcase(actions=120, seed=1),
)
