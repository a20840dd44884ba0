"""Sekigahara (GMT Games): the rules (`rules/`, chapters of the 2016 rulebook), the kit
(`kit.py`, `data/`), the table referee (`table.py`, `referee.py`), the simulated player
(`simulator.py`, `script.py`), the tablet screen (`screen.js`), calibration defaults and
sample records.

Each capability is declared by a loader below: it imports its module only when the host asks
(so replaying a record never imports OpenCV), and is typed with the host's protocol, so mypy
checks that what this folder offers is what the host calls."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games import GameSpec, Showcase
from companion.games.sekigahara import kit as kit
from companion.games.sekigahara.kit import SekigaharaKit
from companion.games.sekigahara.rules import SekigaharaRules

if TYPE_CHECKING:
    from companion.games.contract import Benchmark, BoardLoader, CardLabels, Registration, Secrets
    from companion.games.sekigahara.table import SekigaharaParts
    from companion.table import TableBuilder
    from companion.table.acting import Simulator


def _table() -> TableBuilder[SekigaharaRules, SekigaharaParts]:
    from companion.games.sekigahara.table import build
    return build


def _simulator() -> Simulator[SekigaharaRules, SekigaharaParts]:
    from companion.games.sekigahara.simulator import SIMULATOR
    return SIMULATOR


def _vision_bench() -> Benchmark:
    from companion.games.sekigahara.vision_bench import BENCH
    return BENCH


def _register() -> Registration[SekigaharaKit]:
    from companion.games.sekigahara.physical_set import REGISTRATION
    return REGISTRATION


def _labels() -> CardLabels[SekigaharaKit]:
    from companion.games.sekigahara.labels import card_labels
    return card_labels


def _board() -> BoardLoader[SekigaharaKit]:
    from companion.vision.geometry import Geometry
    return Geometry.load


def _secrets() -> Secrets:
    from companion.games.sekigahara.rules.secrets import secrets
    return secrets


GAME: GameSpec[SekigaharaRules, SekigaharaKit, SekigaharaParts] = GameSpec(
    name="sekigahara", title="Sekigahara", rules=SekigaharaRules, kit_type=SekigaharaKit,
    kit="sekigahara", table=_table, simulator=_simulator, vision_bench=_vision_bench,
    register=_register, labels=_labels, board=_board, secrets=_secrets,
    screen="screen.js", calibration="calibration/board.yaml",
    samples=("sekigahara-demo.jsonl",), table_options={"knowledge": "table"}, default=True,
    showcase=Showcase(actions=60, seed=5, players={"ishida": "Aiko", "tokugawa": "Kenji"}),
)
