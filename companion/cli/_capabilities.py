"""Every place a command asks a game what it can do, or loads its board: one module, so that
the host-game contract (`companion.games`, typed) is read in one pass.

A game without a capability a command needs makes the command exit 1 with the spec's own
sentence ("Skirmish has no table referee yet"), never a traceback deeper down.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from companion.cli._common import fail
from companion.games import (
    CAPABILITIES,
    AnyGame,
    Benchmark,
    Capability,
    MissingCapability,
    Registration,
)
from companion.games import game as game_spec
from companion.kits import Kit

if TYPE_CHECKING:
    from companion.table import TableBuilder
    from companion.vision.counting import CountingBoard
    from companion.vision.geometry import Geometry

__all__ = ["benchmark", "board", "card_labels", "counting_board", "has", "need", "offers",
           "registration", "table_of"]


def need(spec: AnyGame, capability: Capability) -> None:
    """Exit 1 with the spec's sentence when the game lacks `capability` (checked before
    anything starts: a game stored, a server bound)."""
    if not spec.has(capability):
        fail(str(spec.missing(capability)))


def has(spec: AnyGame, capability: Capability) -> bool:
    """Whether the game offers `capability` (a command that can do without it asks)."""
    return spec.has(capability)


def offers(spec: AnyGame) -> list[str]:
    """What the game offers besides its rules and kit, in words (`companion rules`)."""
    return [words for capability, words in CAPABILITIES.items() if spec.has(capability)]


def board(spec: AnyGame, kit: Kit | None = None) -> Geometry:
    """The game's board (the user's calibration, else the game's default) on `kit` (default:
    the game's own), or exit 1 when the game has none."""
    try:
        return spec.board_geometry(kit)
    except MissingCapability as exc:
        fail(str(exc))


def counting_board(spec: AnyGame) -> CountingBoard:
    """The game's board as the colour counter reads it (KeyError or TypeError for a board
    without counting areas: the caller says so)."""
    from companion.vision.counting import CountingBoard

    return CountingBoard.load(spec.load_kit())


def benchmark(spec: AnyGame, capability: Literal["vision_bench", "engine_bench"]) -> Benchmark:
    """A game's Benchmark (`vision_bench`, `engine_bench`), or exit 1 saying why not."""
    try:
        return (spec.need_vision_bench() if capability == "vision_bench"
                else spec.need_engine_bench())
    except MissingCapability as exc:
        fail(str(exc))


def registration(spec: AnyGame) -> Registration[Any]:
    """How the game's physical sets are registered, or exit 1 saying it has none."""
    try:
        return spec.need_register()
    except MissingCapability as exc:
        fail(str(exc))


def card_labels(kit: Kit) -> list[tuple[str, str]]:
    """The card labels of `kit`'s game: [(card id, identity in words)]; MissingCapability for a
    game without printable labels."""
    return game_spec(kit.game).need_labels()(kit)


def table_of(game_name: str) -> TableBuilder[Any, Any]:
    """The table referee of the game a record names; UnknownGameName or MissingCapability
    when it has none (a game that cannot be watched)."""
    return game_spec(game_name).need_table()
