"""The games the companion hosts: one package per game under `companion/games/`, found by
looking, never listed (as Rally the Troops' server hosts any module directory and OpenSpiel
registers games by name).

A game package's `__init__.py` defines `GAME`, a `GameSpec`. Only the name, the rules and the
kit are required. Every other capability (how its table is read, its simulated player, its
board's geometry, its tablet screen, its card labels, registering a physical set, its kit
author's description, what it hides) is optional and declared as a *loader*: a small function
of the game's package that imports the object and returns it, typed with the host's protocol
for that capability (`companion.games.contract`). So the type checker holds every game to
what the host calls (a game whose table builder, simulator or registry lacks a method a command
uses fails `mypy --strict`, as pluggy checks a plugin against its hookspec), and importing a
game to replay its record still never imports OpenCV or Flask.

Where a game lacks a capability, `GameSpec.need_*` raises `MissingCapability` with a sentence a
user can read ("Skirmish has no table referee yet") instead of a TypeError somewhere deeper.

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
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from companion.games.contract import (
    Benchmark,
    BoardLoader,
    CardLabels,
    LongGame,
    Registration,
    Secrets,
    SetRegistry,
    Showcase,
    TagPlan,
)
from companion.kits.loader import Kit

if TYPE_CHECKING:
    from companion.engine.core.rules import Rules
    from companion.kits.author import AuthorSpec
    from companion.table import TableBuilder, TableParts
    from companion.table.acting import Simulator
    from companion.vision.geometry import Geometry

__all__ = [
    "AnyGame",
    "Benchmark",
    "Capability",
    "GameSpec",
    "MissingCapability",
    "Registration",
    "SetRegistry",
    "Showcase",
    "TagPlan",
    "UnknownGameName",
    "all_games",
    "default_game",
    "game",
    "names",
    "resolve",
]

R = TypeVar("R", bound="Rules[Any, Any]")
"""A game's `Rules` subclass."""
K = TypeVar("K", bound=Kit)
"""A game's kit type."""
P = TypeVar("P", bound="TableParts[Any, Any, Any]")
"""A game's table parts (its own reader, tracker and referee types)."""
T = TypeVar("T")

Capability = Literal["table", "simulator", "vision_bench", "engine_bench", "screen",
                     "calibration", "board", "labels", "register", "author", "secrets",
                     "long_game"]
"""The optional capabilities, by the name `GameSpec.has` takes."""

CAPABILITIES: dict[Capability, str] = {
    "table": "table referee",
    "simulator": "simulated player",
    "vision_bench": "vision benchmark",
    "engine_bench": "engine benchmark",
    "screen": "tablet screen",
    "board": "board calibration",
    "labels": "printable card labels",
    "register": "registration of a physical set",
    "author": "board to trace with the kit author",
}
"""The capabilities a user meets (`companion rules` lists them), with the words used when a
game lacks one."""
INNER: dict[Capability, str] = {
    "calibration": "default board file",
    "secrets": "statement of what it hides",
    "long_game": "game of any length",
}
"""Capabilities only the host and the tests use."""

Loader = Callable[[], T]
"""How a game declares a capability: a function importing the object when first asked."""


class UnknownGameName(LookupError):
    """No game package answers to this name; the message lists the games there are."""


class MissingCapability(LookupError):
    """The game exists but cannot do this yet (no table referee, no screen, ...)."""


@dataclass(frozen=True)
class GameSpec(Generic[R, K, P]):
    """What a game package offers the host: `rules`, `kit_type` and `kit` are required.

    `R`, `K` and `P` tie the capabilities together: the table builder takes the game's own rules
    and returns its own parts, which its simulated player takes; the board loader takes its own
    kit. mypy checks each game's declaration; the host erases them (`GameSpec[Any, Any, Any]`)
    only where it picks a game by name, and is generic over them where it joins capabilities
    (`companion.demo`)."""

    name: str
    """The package's name, which is also the rules' `game_type.name` and the kit's name."""
    title: str
    rules: type[R]
    """The `Rules` subclass (registered with the engine when the package is imported)."""
    kit_type: type[K]
    """The class of the game's assembled kit (what `load` returns for its kits)."""
    kit: str
    """The kit shipped in the package's `data/` folder (the default for new games)."""
    aliases: tuple[str, ...] = ()
    """Other names users type (`rumble-nation`); `-` and `_` are always interchangeable."""
    table: Loader[TableBuilder[R, P]] | None = None
    """Reader, tracker and table referee for a table (`companion serve --camera`, demo)."""
    simulator: Loader[Simulator[R, P]] | None = None
    """The simulated player (`companion demo`, `bench referee`)."""
    vision_bench: Loader[Benchmark] | None = None
    """The table reader's benchmark (`companion bench vision`)."""
    engine_bench: Loader[Benchmark] | None = None
    """The rules' benchmark (`companion bench engine --game`)."""
    board: Loader[BoardLoader[K]] | None = None
    """The board's geometry: zones, off-board areas and corner markers (mats, tag sheets,
    calibration, set-up)."""
    labels: Loader[CardLabels[K]] | None = None
    """The card label sheets (`companion print-card-labels`)."""
    register: Loader[Registration[K]] | None = None
    """How a physical set is registered (`companion register`, `print-tags --set`)."""
    author: Loader[AuthorSpec] | None = None
    """What the kit author asks of a drawn board (`companion kit author`)."""
    secrets: Loader[Secrets] | None = None
    """What a role may not see, from the rules: the leak sweeps of the web and broadcast."""
    long_game: Loader[LongGame] | None = None
    """A game of any length asked (the record benchmark replays a long one)."""
    screen: str | None = None
    """The tablet's JS module for this game, a file in the package (`screen.js`)."""
    calibration: str | None = None
    """The default table geometry, a file in the package (`calibration/board.yaml`)."""
    samples: tuple[str, ...] = ()
    """Sample records shipped in the package (`samples/NAME.jsonl`)."""
    table_options: dict[str, Any] = field(default_factory=dict)
    """Options a game at the table starts with (`knowledge: table`), unless the user says."""
    showcase: Showcase = field(default_factory=Showcase)
    """A position worth showing (tests, sample tables, screenshots start from it)."""
    default: bool = False
    """The game a command plays when none is named (`companion demo`): one game says so."""

    @property
    def package(self) -> str:
        return f"{__name__}.{self.name}"

    def has(self, capability: Capability) -> bool:
        """Whether the game declares `capability` (nothing is imported)."""
        return getattr(self, capability) not in (None, ())

    def missing(self, capability: Capability) -> MissingCapability:
        """The sentence for a capability this game lacks."""
        words = CAPABILITIES.get(capability) or INNER[capability]
        return MissingCapability(f"{self.title} has no {words} yet")

    def _load(self, loader: Loader[T] | None, capability: Capability) -> T:
        if loader is None:
            raise self.missing(capability)
        return loader()

    def need_table(self) -> TableBuilder[R, P]:
        return self._load(self.table, "table")

    def need_simulator(self) -> Simulator[R, P]:
        return self._load(self.simulator, "simulator")

    def need_vision_bench(self) -> Benchmark:
        return self._benchmark(self.vision_bench, "vision_bench")

    def need_engine_bench(self) -> Benchmark:
        return self._benchmark(self.engine_bench, "engine_bench")

    def _benchmark(self, loader: Loader[Benchmark] | None, capability: Capability) -> Benchmark:
        """A benchmark, checked at run time too: a game package mypy has not seen (added
        without the project's checks) is refused in a sentence, not a traceback."""
        found: object = self._load(loader, capability)
        if not isinstance(found, Benchmark):
            raise MissingCapability(f"{self.title}'s {CAPABILITIES[capability]} is a "
                                    f"{type(found).__name__}, not a Benchmark")
        return found

    def need_board(self) -> BoardLoader[K]:
        return self._load(self.board, "board")

    def board_geometry(self, kit: K | None = None, path: Path | None = None) -> Geometry:
        """The board of `kit` (the game's own by default) from `path` (the user's
        calibration, else the game's default): MissingCapability for a game without one."""
        return self.need_board()(kit if kit is not None else self.load_kit(), path)

    def need_labels(self) -> CardLabels[K]:
        return self._load(self.labels, "labels")

    def need_register(self) -> Registration[K]:
        return self._load(self.register, "register")

    def need_author(self) -> AuthorSpec:
        return self._load(self.author, "author")

    def need_secrets(self) -> Secrets:
        return self._load(self.secrets, "secrets")

    def need_long_game(self) -> LongGame:
        return self._load(self.long_game, "long_game")

    def need_screen(self) -> Path:
        """The screen module's file in the package."""
        if self.screen is None:
            raise self.missing("screen")
        return self.path(self.screen)

    def need_calibration(self) -> Path:
        """The default board.yaml in the package."""
        if self.calibration is None:
            raise self.missing("calibration")
        return self.path(self.calibration)

    def load_kit(self, name_or_path: str | Path | None = None) -> K:
        """The game's kit (its own by default, or a named or edited copy), typed as the
        game's; KitError from the loader, ValueError when the kit is another game's."""
        from companion.kits import load_kit

        loaded = load_kit(name_or_path or self.kit)
        if not isinstance(loaded, self.kit_type):
            raise ValueError(f"kit {loaded.id} is a {loaded.game} kit, not {self.title}'s")
        return loaded

    def new_rules(self, kit: str | Path | None = None,
                  options: dict[str, Any] | None = None) -> R:
        """The game's rules on `kit` (its own by default) with `options` (ValueError names a
        bad one)."""
        return self.rules(self.load_kit(kit), options or None)

    def path(self, relative: str) -> Path:
        """A data file of the package (through importlib.resources: works when installed)."""
        return Path(str(files(self.package).joinpath(relative)))

    def sample(self, name: str | None = None) -> Path:
        """A shipped sample record (the first when no name is given)."""
        if not self.samples:
            raise MissingCapability(f"{self.title} ships no sample records yet")
        chosen = name or self.samples[0]
        return self.path(f"samples/{chosen}")


AnyGame = GameSpec[Any, Any, Any]
"""A game picked by name: its own types are known only inside its package."""


@cache
def all_games() -> dict[str, AnyGame]:
    """Every game package, by name: each subpackage of `companion.games` defining `GAME`."""
    found: dict[str, AnyGame] = {}
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


def game(name: str) -> AnyGame:
    """The game a name or alias names; UnknownGameName lists the known ones."""
    return all_games()[resolve(name)]


def default_game() -> AnyGame:
    """The game commands play when none is named: the one declaring itself the default."""
    chosen = [spec for spec in all_games().values() if spec.default]
    if len(chosen) != 1:
        raise ValueError(f"exactly one game must declare itself the default, not "
                         f"{len(chosen)} ({', '.join(s.name for s in chosen) or 'none'})")
    return chosen[0]


def names() -> list[str]:
    """The games' names, with the spelling users may also type (`rumble-nation`)."""
    return sorted(all_games())
