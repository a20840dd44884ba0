"""Rumble Nation (Yogi Shinichi): the rules (`rules/`, chapters of the Italian rulebook), the
kit (`kit.py`, `data/`), how its table is read (soldiers counted by colour and dice read in the
tray: `reader.py`, `synth.py`, `vision_bench.py`; what the changes mean: `table.py`,
`referee.py`), the simulated player (`simulator.py`, `script.py`), calibration defaults.

Each capability is declared by a loader below, typed with the host's protocol and importing
its module only when asked (`companion.games`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games import GameSpec, Showcase
from companion.games.rumble_nation import kit as kit
from companion.games.rumble_nation.kit import RumbleNationKit
from companion.games.rumble_nation.rules import RumbleNationRules

if TYPE_CHECKING:
    from companion.games.contract import Benchmark, BoardLoader, Secrets
    from companion.games.rumble_nation.table import RumbleParts
    from companion.table import TableBuilder
    from companion.table.acting import Simulator


def _table() -> TableBuilder[RumbleNationRules, RumbleParts]:
    from companion.games.rumble_nation.table import build
    return build


def _simulator() -> Simulator[RumbleNationRules, RumbleParts]:
    from companion.games.rumble_nation.simulator import SIMULATOR
    return SIMULATOR


def _vision_bench() -> Benchmark:
    from companion.games.rumble_nation.vision_bench import BENCH
    return BENCH


def _board() -> BoardLoader[RumbleNationKit]:
    from companion.vision.geometry import Geometry
    return Geometry.load


def _secrets() -> Secrets:
    from companion.games.rumble_nation.rules.secrets import secrets
    return secrets


GAME: GameSpec[RumbleNationRules, RumbleNationKit, RumbleParts] = GameSpec(
    name="rumble_nation", title="Rumble Nation", rules=RumbleNationRules,
    kit_type=RumbleNationKit, kit="rumble_nation", aliases=("rumble-nation", "rumble"),
    table=_table, simulator=_simulator, vision_bench=_vision_bench, board=_board,
    secrets=_secrets, screen="screen.js", calibration="calibration/board.yaml",
    samples=("rumble-nation-reference.jsonl",),
    showcase=Showcase(actions=30, seed=3, options={"players": 4, "daimyo": True},
                      players={"red": "Ana", "blue": "Ben", "yellow": "Chiara",
                               "black": "Dario"}),
)
