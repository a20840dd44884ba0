"""The host's side of the contract with a game: what each optional capability must be.

A game declares a capability in its `GameSpec` (`companion/games/__init__.py`) as a loader
typed with one of these, so `mypy --strict` holds every game to what the host calls. The table
capabilities (`TableBuilder`, `TableParts`, `TableReferee`, `Simulator`) live with the table
session that uses them (`companion.table`, `companion.table.acting`), the board's geometry with
vision (`companion.vision.geometry.Board`); this module holds the rest.

Nothing here imports OpenCV, Flask or a game: importing a game to replay its record stays
cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from companion.kits.loader import Kit

if TYPE_CHECKING:
    from companion.engine import Game
    from companion.table.registry import TableRegistry
    from companion.vision.geometry import Geometry

__all__ = [
    "Benchmark",
    "BoardLoader",
    "CardLabels",
    "Figures",
    "LongGame",
    "Registration",
    "Secrets",
    "SetRegistry",
    "Showcase",
    "TagPlan",
]

K = TypeVar("K", bound=Kit)
K_contra = TypeVar("K_contra", bound=Kit, contravariant=True)

Figures = dict[str, Any]
"""A benchmark's or a simulation's figures: JSON-ready values by name (numbers, strings,
lists and objects of them), printed with `--json` or said in sentences."""

@dataclass(frozen=True)
class Benchmark:
    """A game's benchmark (`vision_bench`, `engine_bench`): `run(**settings)` returns the
    figures (JSON-ready), `lines(figures)` says them in sentences for a person."""

    run: Callable[..., Figures]
    """Takes the `settings` by name (and `tick=` when it reports progress)."""
    lines: Callable[[Figures], list[str]]
    settings: dict[str, Any] = field(default_factory=dict)
    """The settings `run` takes, with their defaults (frames, seed, ...): the CLI offers them."""


@dataclass(frozen=True)
class Showcase:
    """A position of the game worth showing: `actions` random actions into a game of `seed`
    with `options`, far enough that something is on the board and something is hidden. The
    web tests and leak sweeps, the broadcast's simulated tables and the screenshots start from
    it, so no host module needs to know a game's roles or options."""

    actions: int = 20
    seed: int = 1
    options: dict[str, Any] = field(default_factory=dict)
    players: dict[str, str] = field(default_factory=dict)
    """Names for the players' roles (a sample table's)."""


class BoardLoader(Protocol[K_contra]):
    """A game's `board` capability: the geometry of its table for `kit`, from the user's
    calibration `path` (a board.yaml) or the game's default. Whatever the map (points,
    regions, hexes), it is a `Geometry`: the `vision.geometry.Board` the host reads, with the
    zones vision maps tags and pieces into."""

    def __call__(self, kit: K_contra, path: Path | None = None, /) -> Geometry:
        ...


class CardLabels(Protocol[K_contra]):
    """A game's `labels` capability: (card id, the card's identity in words) for every card
    of `kit`, in the kit's order (the printed label sheets)."""

    def __call__(self, kit: K_contra, /) -> list[tuple[str, str]]:
        ...


class TagPlan(Protocol):
    """Which tag goes on which piece of a set, for the tag sheet (`print-tags --set`)."""

    def plan_tags(self, first: int) -> int:
        """Give the set's pieces without a tag the tags `first`, `first + 1`, ... in the order
        they come out of the box; saved. Returns how many were planned."""
        ...

    def tag_captions(self) -> list[tuple[int, str]]:
        """Each registered tag and the piece it goes on, in words, in the box's order."""
        ...


class SetRegistry(TagPlan, Protocol[K_contra]):
    """A physical set being registered (`companion register`): which tag is on which piece,
    which code on which card, the values the rulebook does not print. Saved after every entry,
    so that a registration is resumable."""

    def add(self, line: str) -> str:
        """Take one entry as a person typed it; returns what it registered, in words. Raises
        ValueError naming what is wrong with the line (the registry is unchanged)."""
        ...

    def progress(self) -> str:
        """What is registered so far, in words (`12 blocks and 3 cards`)."""
        ...

    def problems(self) -> list[str]:
        """Every mismatch with the kit; empty when the set is complete."""
        ...

    def write_kit(self, folder: Path) -> Path:
        """The set's own kit, written to `folder` (which must be the user's, never the
        package's); returns the folder."""
        ...

    def table_registry(self, kit: K_contra) -> TableRegistry:
        """What the table referee reads this set with, given the set's kit: which piece each
        tag is on, which card each sticker's code is."""
        ...


@dataclass(frozen=True)
class Registration(Generic[K]):
    """A game's `register` capability: how its physical sets are registered."""

    open: Callable[[Path, str, str], SetRegistry[K]]
    """`open(path, kit, name)`: the registry saved at `path`, resumed if it exists; ValueError
    when the file is not a registry of that kit."""
    entries: str
    """The lines the registry takes, for a person (`companion register --how`)."""


class LongGame(Protocol):
    """A game's `long_game` capability: a game of exactly `actions` actions, however many
    (the record benchmark times replaying a long one)."""

    def __call__(self, actions: int, /) -> Game[Any]:
        ...


class Secrets(Protocol):
    """A game's `secrets` capability: what `role` may not see in `state` now, as the texts
    (ids, or JSON fragments such as `"bid":"minami_6"`) that must appear in no view, response,
    log or broadcast for that role. Written from the rules, not from the views, so that a leak
    sweep catches a view that leaks as well as a route; empty for a game without hidden
    information."""

    def __call__(self, rules: Any, state: Any, role: str, /) -> set[str]:
        ...
