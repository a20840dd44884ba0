"""The Rumble Nation kit: 11 regions with land and sea links, and the components."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from importlib.resources import files
from pathlib import Path
from typing import ClassVar, Literal

from pydantic import BaseModel

from companion.kits.board import (
    Count,
    Frozen,
    Id,
    Location,
    Quantity,
    Road,
    check_graph,
    neighbours_of,
)
from companion.kits.loader import Kit, KitManifest, KitSpec, register_spec
from companion.kits.problems import Problems

__all__ = ["RumbleNationKit"]


class RegionLink(Road):
    kind: Literal["land", "sea"]


class MapFile(Frozen):
    locations: tuple[Location, ...]
    roads: tuple[RegionLink, ...]


class ComponentsFile(Frozen):
    soldiers_per_player: Count
    reinforcements: Quantity
    large_castles: tuple[int, ...]
    katana: tuple[int, ...]
    colours: tuple[Id, ...]
    tactic_cards: tuple[Id, ...]
    daimyo_cards: tuple[Id, ...]
    kyo: Id


class RumbleNationKit(Kit):
    locations: tuple[Location, ...]
    roads: tuple[RegionLink, ...]
    components: ComponentsFile

    @cached_property
    def neighbours(self) -> Mapping[str, tuple[str, ...]]:
        return neighbours_of(self.roads)

    def linked(self, a: str, b: str, kind: str | None = None) -> bool:
        return any({r.a, r.b} == {a, b} and (kind is None or r.kind == kind)
                   for r in self.roads)

    def summary(self) -> list[tuple[str, str]]:
        return [*super().summary(), ("regions", str(len(self.locations))),
                ("links", str(len(self.roads)))]


class RumbleNationSpec(KitSpec):
    game: ClassVar[str] = "rumble_nation"
    files: ClassVar[Mapping[str, type[BaseModel]]] = {
        "map.yaml": MapFile, "components.yaml": ComponentsFile}

    def check_file(self, file: str, part: BaseModel, problems: Problems) -> None:
        if isinstance(part, MapFile):
            check_graph(problems, file, part.locations, part.roads)

    def build(self, manifest: KitManifest, parts: Mapping[str, BaseModel],
              problems: Problems) -> RumbleNationKit:
        board, components = parts["map.yaml"], parts["components.yaml"]
        assert isinstance(board, MapFile)
        assert isinstance(components, ComponentsFile)
        if len(components.large_castles) != len(board.locations):
            problems.add("components.yaml", ("large_castles",),
                         f"{len(components.large_castles)} castles for "
                         f"{len(board.locations)} regions (3: one per region)")
        if components.kyo not in {loc.id for loc in board.locations}:
            problems.add("components.yaml", ("kyo",), f"unknown region '{components.kyo}'")
        return RumbleNationKit(
            id=manifest.id, game=manifest.game, version=manifest.version, title=manifest.title,
            sample=manifest.sample, locations=board.locations, roads=board.roads,
            components=components)


register_spec(RumbleNationSpec(), shipped=Path(str(files(__package__ or "").joinpath("data"))))
