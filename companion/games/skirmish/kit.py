"""The Skirmish kit: a seven-location map and four blocks a side.

Skirmish is the engine core's reference game (docs/skirmish.md): small enough to reason about
completely, yet it has everything the real games have (a map graph, hidden blocks, dice). Its kit
shows the loader working on a small map, which is what unit tests of map rules need.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from importlib.resources import files
from pathlib import Path
from typing import Annotated, ClassVar

from pydantic import BaseModel, Field

from companion.kits.board import Frozen, Id, Location, Road, check_graph, neighbours_of
from companion.kits.loader import Kit, KitManifest, KitSpec, register_spec
from companion.kits.problems import Problems

__all__ = ["SkirmishKit", "Unit"]


class MapFile(Frozen):
    locations: tuple[Location, ...]
    roads: tuple[Road, ...]


class Unit(Frozen):
    id: Id
    strength: Annotated[int, Field(ge=1, le=6)]


class Army(Frozen):
    home: Id
    blocks: tuple[Unit, ...]


class ArmiesFile(Frozen):
    armies: dict[Id, Army]


class SkirmishKit(Kit):
    locations: tuple[Location, ...]
    roads: tuple[Road, ...]
    armies: dict[str, Army]

    @cached_property
    def neighbours(self) -> Mapping[str, tuple[str, ...]]:
        return neighbours_of(self.roads)

    @cached_property
    def strength(self) -> Mapping[str, int]:
        return {u.id: u.strength for army in self.armies.values() for u in army.blocks}

    def summary(self) -> list[tuple[str, str]]:
        return [
            *super().summary(),
            ("locations", str(len(self.locations))),
            ("roads", str(len(self.roads))),
            ("armies", ", ".join(f"{side} {len(a.blocks)}" for side, a in self.armies.items())),
        ]


class SkirmishSpec(KitSpec):
    game: ClassVar[str] = "skirmish"
    files: ClassVar[Mapping[str, type[BaseModel]]] = {
        "map.yaml": MapFile, "armies.yaml": ArmiesFile,
    }

    def check_file(self, file: str, part: BaseModel, problems: Problems) -> None:
        if isinstance(part, MapFile):
            check_graph(problems, file, part.locations, part.roads)

    def build(
        self, manifest: KitManifest, parts: Mapping[str, BaseModel], problems: Problems
    ) -> SkirmishKit:
        board, armies = parts["map.yaml"], parts["armies.yaml"]
        assert isinstance(board, MapFile)
        assert isinstance(armies, ArmiesFile)
        ids = {loc.id for loc in board.locations}
        if len(armies.armies) != 2:
            problems.add("armies.yaml", ("armies",), "Skirmish is for exactly two sides")
        seen: set[str] = set()
        for side, army in armies.armies.items():
            if army.home not in ids:
                problems.add("armies.yaml", ("armies", side, "home"),
                             f"unknown location '{army.home}'")
            for index, unit in enumerate(army.blocks):
                if unit.id in seen:
                    problems.add("armies.yaml", ("armies", side, "blocks", index, "id"),
                                 f"duplicate id '{unit.id}'")
                seen.add(unit.id)
        return SkirmishKit(
            id=manifest.id, game=manifest.game, version=manifest.version, title=manifest.title,
            sample=manifest.sample, locations=board.locations, roads=board.roads,
            armies=armies.armies,
        )


register_spec(SkirmishSpec(), shipped=Path(str(files(__package__ or "").joinpath("data"))))
