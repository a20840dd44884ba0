"""Shogun (Dirk Henn, Queen Games): the rules (`rules/`, chapters of the Italian rulebook,
numbered in docs/shogun.md) and the kit (`kit.py`, `data/`: THE PROJECT'S EXAMPLE BOARD, not
the printed map). The tablet screen is `screen.js`; the card label sheets are `labels.py`; the
table: cubes counted per province and colour and the tower's tray by colour (`reader.py`,
`synth.py`, `vision_bench.py`), what the changes mean (`referee.py`, `script.py`, `table.py`);
the simulated player of `companion demo` (`simulator.py`); what `companion kit author` asks of
a drawn board (`author.py`).

Each capability is declared by a loader below, typed with the host's protocol and importing
its module only when asked (`companion.games`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games import GameSpec, Showcase
from companion.games.shogun import kit as kit
from companion.games.shogun.kit import ShogunKit
from companion.games.shogun.rules import ShogunRules

if TYPE_CHECKING:
    from companion.games.contract import Benchmark, BoardLoader, CardLabels, Secrets
    from companion.games.shogun.table import ShogunParts
    from companion.kits.author import AuthorSpec
    from companion.table import TableBuilder
    from companion.table.acting import Simulator


def _table() -> TableBuilder[ShogunRules, ShogunParts]:
    from companion.games.shogun.table import build
    return build


def _simulator() -> Simulator[ShogunRules, ShogunParts]:
    from companion.games.shogun.simulator import SIMULATOR
    return SIMULATOR


def _vision_bench() -> Benchmark:
    from companion.games.shogun.vision_bench import BENCH
    return BENCH


def _labels() -> CardLabels[ShogunKit]:
    from companion.games.shogun.labels import card_labels
    return card_labels


def _board() -> BoardLoader[ShogunKit]:
    from companion.vision.geometry import Geometry
    return Geometry.load


def _author() -> AuthorSpec:
    from companion.games.shogun.author import AUTHOR
    return AUTHOR


def _secrets() -> Secrets:
    from companion.games.shogun.rules.secrets import secrets
    return secrets


GAME: GameSpec[ShogunRules, ShogunKit, ShogunParts] = GameSpec(
    name="shogun", title="Shogun", rules=ShogunRules, kit_type=ShogunKit, kit="shogun",
    table=_table, simulator=_simulator, vision_bench=_vision_bench, labels=_labels,
    board=_board, author=_author, secrets=_secrets, screen="screen.js",
    calibration="calibration/board.yaml",
    samples=("shogun-reference.jsonl",),
    showcase=Showcase(actions=120, seed=3, options={"players": 4}),
)
