"""Every place a command asks a game what it can do, or loads its board: one module, so that
the host-game contract is read (and changed) in one pass.

A game without a capability a command needs makes the command exit 1 with the spec's own
sentence ("Skirmish has no table referee yet"), never a traceback deeper down.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.cli._common import fail
from companion.games import (
    CAPABILITIES,
    Benchmark,
    GameSpec,
    MissingCapability,
    Registration,
)
from companion.games import game as game_spec
from companion.kits import Kit, load_kit

if TYPE_CHECKING:
    from companion.vision.counting import CountingBoard
    from companion.vision.geometry import Geometry

__all__ = ["benchmark", "board", "card_labels", "counting_board", "has", "need", "offers",
           "registration", "table_of"]


def need(spec: GameSpec, capability: str) -> Any:
    """A game's capability, or exit 1 with the spec's sentence (MissingCapability)."""
    try:
        return spec.need(capability)
    except MissingCapability as exc:
        fail(str(exc))


def has(spec: GameSpec, capability: str) -> bool:
    """Whether the game offers `capability` (a command that can do without it asks)."""
    return spec.has(capability)


def offers(spec: GameSpec) -> list[str]:
    """What the game offers besides its rules and kit, in words (`companion rules`)."""
    return [words for capability, words in CAPABILITIES.items() if spec.has(capability)]


def board(spec: GameSpec, kit: Kit | None = None) -> Geometry:
    """The game's board (the user's calibration, else the game's default) on `kit` (default:
    the game's own), or exit 1 when the game has no board calibration."""
    from companion.vision.geometry import Geometry

    need(spec, "calibration")
    return Geometry.load(kit if kit is not None else load_kit(spec.kit))


def counting_board(spec: GameSpec) -> CountingBoard:
    """The game's board as the colour counter reads it (KeyError or TypeError for a board
    without counting areas: the caller says so)."""
    from companion.vision.counting import CountingBoard

    return CountingBoard.load(load_kit(spec.kit))


def benchmark(spec: GameSpec, capability: str) -> Benchmark:
    """A game's Benchmark (`vision_bench`, `engine_bench`), or exit 1 saying why not."""
    try:
        return spec.benchmark(capability)
    except (MissingCapability, TypeError) as exc:
        fail(str(exc))


def registration(spec: GameSpec) -> Registration:
    """How the game's physical sets are registered, or exit 1 saying it has none."""
    found: Registration = need(spec, "register")
    return found


def card_labels(kit: Kit) -> Any:
    """The card labels of `kit`'s game: [(card id, identity in words)]; MissingCapability for a
    game without printable labels."""
    return game_spec(kit.game).need("labels")(kit)


def table_of(game_name: str) -> Any:
    """The table referee of the game a record names; UnknownGameName or MissingCapability
    when it has none (a game that cannot be watched)."""
    return game_spec(game_name).need("table")
