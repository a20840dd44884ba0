"""The games the companion hosts: one package per game under `companion/games/`, found by
looking, never listed (as Rally the Troops' server hosts any module directory and OpenSpiel
registers games by name).

A game package's `__init__.py` defines `GAME`, a `GameSpec`. Only the name, the rules and the
kit are required; every other capability (how its table is read, its simulated player, its
tablet screen, its calibration defaults, its sample records) is optional and named as
`"module:attribute"` inside the package, imported only when asked for, so that importing a game
to replay its record never imports OpenCV or Flask. Where a game lacks a capability,
`GameSpec.need` raises `MissingCapability` with a sentence a user can read ("Shogun has no
table referee yet") instead of a TypeError somewhere deeper.

The host never names a game: the CLI, the table session, the tablet and the benchmarks ask
this module for a `GameSpec` by name (or alias) and use only what the spec offers.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any, Protocol

__all__ = ["Benchmark", "GameSpec", "MissingCapability", "Registration", "SetRegistry",
           "UnknownGameName", "all_games", "game", "names", "resolve"]

CAPABILITIES = {
    "table": "table referee",
    "simulator": "simulated player",
    "vision_bench": "vision benchmark",
    "engine_bench": "engine benchmark",
    "screen": "tablet screen",
    "calibration": "board calibration",
    "labels": "printable card labels",
    "register": "registration of a physical set",
}
"""Optional capabilities, with the words used when a game lacks one."""


@dataclass(frozen=True)
class Benchmark:
    """A game's benchmark (`vision_bench`, `engine_bench`): `run(**settings)` returns the
    figures (JSON-ready), `lines(figures)` says them in sentences for a person."""

    run: Callable[..., dict[str, Any]]
    lines: Callable[[dict[str, Any]], list[str]]
    settings: dict[str, Any] = field(default_factory=dict)
    """The settings `run` takes, with their defaults (frames, seed, ...): the CLI offers them."""


class SetRegistry(Protocol):
    """A physical set being registered (`companion register`): which tag is on which piece,
    which code on which card. Saved after every entry, so that a registration is resumable."""

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

    def table_registry(self, kit: Any) -> Any:
        """The `TableRegistry` the table referee reads this set with, given the set's kit:
        which piece each tag is on, which card each sticker's code is."""
        ...


@dataclass(frozen=True)
class Registration:
    """A game's `register` capability: how its physical sets are registered."""

    open: Callable[[Path, str, str], SetRegistry]
    """`open(path, kit, name)`: the registry saved at `path`, resumed if it exists."""
    entries: str
    """The lines the registry takes, for a person (`companion register --how`)."""


class UnknownGameName(LookupError):
    """No game package answers to this name; the message lists the games there are."""


class MissingCapability(LookupError):
    """The game exists but cannot do this yet (no table referee, no screen, ...)."""


@dataclass(frozen=True)
class GameSpec:
    """What a game package offers the host. `rules` and `kit` are required."""

    name: str
    """The package's name, which is also the rules' `game_type.name` and the kit's name."""
    title: str
    rules: type[Any]
    """The `Rules` subclass (registered with the engine when the package is imported)."""
    kit: str
    """The kit shipped in the package's `data/` folder (the default for new games)."""
    aliases: tuple[str, ...] = ()
    """Other names users type (`rumble-nation`); `-` and `_` are always interchangeable."""
    table: str | None = None
    """`module:attribute` of a `TableKit` factory: reader, tracker and table referee."""
    simulator: str | None = None
    """`module:attribute` of the simulated player (`companion demo`, `bench referee`)."""
    vision_bench: str | None = None
    """`module:attribute` of a `Benchmark` of the table reader (`companion bench vision`)."""
    engine_bench: str | None = None
    """`module:attribute` of a `Benchmark` of the rules (`companion bench engine --game`)."""
    screen: str | None = None
    """The tablet's JS module for this game, a file in the package (`screen.js`)."""
    calibration: str | None = None
    """The default table geometry, a file in the package (`calibration/board.yaml`)."""
    labels: str | None = None
    """`module:attribute` of `labels(kit) -> [(card id, identity in words)]`: the card label
    sheets (`companion print-card-labels`)."""
    register: str | None = None
    """`module:attribute` of a `Registration`: a physical set's tags and codes
    (`companion register`)."""
    samples: tuple[str, ...] = ()
    """Sample records shipped in the package (`samples/NAME.jsonl`)."""
    table_options: dict[str, Any] = field(default_factory=dict)
    """Options a game at the table starts with (`knowledge: table`), unless the user says."""

    @property
    def package(self) -> str:
        return f"{__name__}.{self.name}"

    def has(self, capability: str) -> bool:
        return getattr(self, capability) not in (None, ())

    def need(self, capability: str) -> Any:
        """The capability's object (imported now), or MissingCapability in a sentence."""
        where = getattr(self, capability)
        if not where:
            raise MissingCapability(
                f"{self.title} has no {CAPABILITIES.get(capability, capability)} yet")
        if capability in ("screen", "calibration"):
            return self.path(where)
        module, _, attribute = where.partition(":")
        return getattr(importlib.import_module(f"{self.package}.{module}"), attribute)

    def benchmark(self, capability: str) -> Benchmark:
        """The game's `vision_bench` or `engine_bench`, checked to keep the contract."""
        found = self.need(capability)
        if not isinstance(found, Benchmark):
            raise TypeError(f"{self.title}'s {capability} ({getattr(self, capability)}) is "
                            f"a {type(found).__name__}, not a Benchmark")
        return found

    def path(self, relative: str) -> Path:
        """A data file of the package (through importlib.resources: works when installed)."""
        return Path(str(files(self.package).joinpath(relative)))

    def sample(self, name: str | None = None) -> Path:
        """A shipped sample record (the first when no name is given)."""
        if not self.samples:
            raise MissingCapability(f"{self.title} ships no sample records yet")
        chosen = name or self.samples[0]
        return self.path(f"samples/{chosen}")


@cache
def all_games() -> dict[str, GameSpec]:
    """Every game package, by name: each subpackage of `companion.games` defining `GAME`."""
    found: dict[str, GameSpec] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if not info.ispkg or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        spec = getattr(module, "GAME", None)
        if isinstance(spec, GameSpec):
            if spec.name != info.name:
                raise ValueError(f"companion/games/{info.name} declares the name {spec.name!r}:"
                                 " a game's name is its folder's")
            found[spec.name] = spec
    return found


def _key(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def resolve(name: str) -> str:
    """The game's name for a name or alias users type (`rumble-nation` -> `rumble_nation`)."""
    games = all_games()
    wanted = _key(name)
    for spec in games.values():
        if wanted == spec.name or wanted in (_key(a) for a in spec.aliases):
            return spec.name
    raise UnknownGameName(f"no game called {name!r} (games: {', '.join(names())})")


def game(name: str) -> GameSpec:
    """The game a name or alias names; UnknownGameName lists the known ones."""
    return all_games()[resolve(name)]


def names() -> list[str]:
    """The games' names, with the spelling users may also type (`rumble-nation`)."""
    return sorted(all_games())
