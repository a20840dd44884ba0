"""The Shogun kit: the board's sides (provinces with their region, building spaces, neighbours by
land and sea, the 3-player mark), the province cards, the 12 events, the supply table and the
components, each file validated by a frozen model; `kit check shogun` names every problem.

The rulebook text does not print the boards, the cards' values, the army groups, the events or
the supply table (docs/shogun.md). The shipped kit's default side is ONE PRINTED SIDE AS ONE
PUBLIC TRANSCRIPTION GIVES IT (`transcribed`: to check against the box, its layout drawn by the
project), its events the transcription's; the `sun` and `moon` sides, their 53 cards, the army
groups and the supply table are THE PROJECT'S EXAMPLE, not the printed components.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from importlib.resources import files
from pathlib import Path
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, Field

from companion.kits.board import Count, Frozen, Id, Location, Quantity, Road, check_graph
from companion.kits.loader import Kit, KitManifest, KitSpec, register_spec
from companion.kits.problems import Problems

__all__ = ["ACTIONS", "FLAGS", "SIDES", "Event", "Province", "ProvinceCard", "ShogunKit"]

SIDES = ("transcribed", "sun", "moon")
"""The kit's sides, the default first: one printed side as transcribed (sun or moon not known),
then the sun and the moon (Imposta), the example's until a user enters theirs."""
PRINTED = ("sun", "moon")
"""The two sides the rulebook names, whose province cards number 53 (Componenti)."""
SOURCES = {"transcribed": "transcribed from one public source: check it against your box",
           "example": "the project's example, not the printed board",
           "entered": "entered from your board"}
"""Where a side's facts come from, as `kit check` says it."""
ACTIONS = ("castle", "temple", "theatre", "rice", "taxes", "deploy_5", "deploy_3", "deploy_1",
           "battle_a", "battle_b")
"""The ten actions, one card and one space of the individual board each."""
Probability = Annotated[float, Field(ge=0, le=1)]
Small = Annotated[int, Field(ge=-10, le=10)]


class Region(Frozen):
    id: Id
    name: str


class Province(Location):
    region: Id
    spaces: Annotated[int, Field(ge=1, le=3)]
    """Building spaces (1 to 3: Costruisci un castello)."""
    unused_with_3: bool = False
    """Marked on the board: not used with 3 players (Imposta)."""


class Link(Road):
    kind: Literal["land", "sea"]
    doubtful: bool = False
    """Listed by the source from one side only: kept, and shown as doubtful until checked."""


class BoardSide(Frozen):
    source: Literal["transcribed", "example", "entered"] = "entered"
    """Where the side's facts come from: a transcription to check, the project's example, or a
    user's own board (what `kit author` writes)."""
    note: str = ""
    provinces: tuple[Province, ...]
    links: tuple[Link, ...]

    @property
    def doubtful(self) -> tuple[Link, ...]:
        return tuple(link for link in self.links if link.doubtful)


class BoardFile(Frozen):
    regions: tuple[Region, ...]
    transcribed: BoardSide
    sun: BoardSide
    moon: BoardSide


class ProvinceCard(Frozen):
    id: Id
    sides: tuple[Literal["transcribed", "sun", "moon"], ...] = Field(min_length=1)
    rice: Annotated[int, Field(ge=0, le=20)]
    taxes: Annotated[int, Field(ge=0, le=20)]


class CardsFile(Frozen):
    cards: tuple[ProvinceCard, ...]


FLAGS = ("no_sea", "temple_guard")
"""Effects that hold or not (no number)."""
NEEDS_ACTION = ("cost", "yield", "yield_max", "yield_min", "armies")


class Effect(Frozen):
    kind: Literal["cost", "yield", "yield_max", "yield_min", "armies", "revolt_farmers",
                  "neutral_farmers", "castle_defence", "temple_guard", "no_sea"]
    action: Literal[ACTIONS] | None = None  # type: ignore[valid-type]
    delta: Small = 0


class Event(Frozen):
    id: Id
    name: str
    rice_loss: Annotated[int, Field(ge=0, le=50)]
    """Rice every player loses in winter when this card is the one left (Carte evento)."""
    effects: tuple[Effect, ...] = ()


class EventsFile(Frozen):
    events: tuple[Event, ...]


class SupplyRow(Frozen):
    shortfall: Count
    revolts: Count
    farmers: Quantity


class Tower(Frozen):
    capacity: Count
    stick: Probability
    release: Probability


class TowerLoad(Frozen):
    armies: Quantity
    farmers: Quantity


class Buildings(Frozen):
    castle: Quantity
    temple: Quantity
    theatre: Quantity


class ComponentsFile(Frozen):
    colours: tuple[Id, ...] = Field(min_length=5, max_length=5)
    armies: Count
    farmers: Count
    chests: Mapping[int, Quantity]
    tower_load: TowerLoad
    buildings: Buildings
    groups: Mapping[int, tuple[Count, ...]]
    supply: tuple[SupplyRow, ...] = Field(min_length=1)
    tower: Tower


class ShogunKit(Kit):
    regions: tuple[Region, ...]
    locations: tuple[Province, ...]
    """The default (transcribed) side's provinces: the map every generic screen receives; the
    rules read the side a game is played on from `sides`."""
    roads: tuple[Link, ...]
    """The default side's links by land and sea."""
    sides: Mapping[str, BoardSide]
    cards: tuple[ProvinceCard, ...]
    events: tuple[Event, ...]
    components: ComponentsFile

    @cached_property
    def card(self) -> Mapping[str, ProvinceCard]:
        return {c.id: c for c in self.cards}

    @cached_property
    def event(self) -> Mapping[str, Event]:
        return {e.id: e for e in self.events}

    @cached_property
    def _provinces(self) -> Mapping[str, Mapping[str, Province]]:
        return {s: {p.id: p for p in side.provinces} for s, side in self.sides.items()}

    def provinces(self, side: str) -> Mapping[str, Province]:
        return self._provinces[side]

    @cached_property
    def _adjacent(self) -> Mapping[tuple[str, bool], Mapping[str, tuple[str, ...]]]:
        found: dict[tuple[str, bool], dict[str, set[str]]] = {}
        for s, side in self.sides.items():
            for sea in (True, False):
                table = found.setdefault((s, sea), {p.id: set() for p in side.provinces})
                for link in side.links:
                    if sea or link.kind == "land":
                        table[link.a].add(link.b)
                        table[link.b].add(link.a)
        return {k: {p: tuple(sorted(n)) for p, n in t.items()} for k, t in found.items()}

    def neighbours(self, side: str, province: str, sea: bool = True) -> tuple[str, ...]:
        """Provinces next to `province`, by land and (unless `sea` is off) by sea routes."""
        return self._adjacent[(side, sea)].get(province, ())

    def supply_row(self, shortfall: int) -> SupplyRow | None:
        """The supply table's row for a shortfall (None: no revolt)."""
        rows = [r for r in self.components.supply if r.shortfall <= shortfall]
        return max(rows, key=lambda r: r.shortfall) if rows else None

    def summary(self) -> list[tuple[str, str]]:
        return [*super().summary(), ("regions", str(len(self.regions))),
                *(row for s, b in self.sides.items() for row in _side_rows(s, b)),
                ("province cards", str(len(self.cards))), ("events", str(len(self.events)))]


def _side_rows(name: str, side: BoardSide) -> list[tuple[str, str]]:
    """`kit check`'s lines for one side: its size and where it comes from, the provinces left
    out with 3 players, the doubtful links; the default (first) side says so."""
    label = f"{name} side" + (" (default)" if name == SIDES[0] else "")
    unused = [p.name for p in side.provinces if p.unused_with_3]
    rows = [(label, f"{len(side.provinces)} provinces, {len(side.links)} links: "
             f"{SOURCES[side.source]}"),
            ("  left out with 3", ", ".join(unused))]
    names = {p.id: p.name for p in side.provinces}
    for link in side.doubtful:
        rows.append(("  doubtful link", f"{names.get(link.a, link.a)}-{names.get(link.b, link.b)}"
                     " (listed from one side only: kept, to check on the board)"))
    return rows


class ShogunSpec(KitSpec):
    game: ClassVar[str] = "shogun"
    files: ClassVar[Mapping[str, type[BaseModel]]] = {
        "board.yaml": BoardFile, "cards.yaml": CardsFile, "events.yaml": EventsFile,
        "components.yaml": ComponentsFile}

    def check_file(self, file: str, part: BaseModel, problems: Problems) -> None:
        if isinstance(part, BoardFile):
            regions = {r.id for r in part.regions}
            for name in SIDES:
                side: BoardSide = getattr(part, name)
                check_graph(problems, file, side.provinces, side.links)
                for index, province in enumerate(side.provinces):
                    if province.region not in regions:
                        problems.add(file, (name, "provinces", index, "region"),
                                     f"{province.id}: unknown region '{province.region}'")
        if isinstance(part, EventsFile):
            for index, event in enumerate(part.events):
                for n, effect in enumerate(event.effects):
                    needs = effect.kind in NEEDS_ACTION
                    if needs != (effect.action is not None):
                        problems.add(file, ("events", index, "effects", n),
                                     f"{event.id}: a {effect.kind} effect "
                                     f"{'needs' if needs else 'takes no'} action")

    def build(self, manifest: KitManifest, parts: Mapping[str, BaseModel],
              problems: Problems) -> ShogunKit:
        board, cards, events, components = (parts["board.yaml"], parts["cards.yaml"],
                                            parts["events.yaml"], parts["components.yaml"])
        assert isinstance(board, BoardFile) and isinstance(cards, CardsFile)
        assert isinstance(events, EventsFile) and isinstance(components, ComponentsFile)
        _check_cards(board, cards, problems)
        _check_components(board, components, problems)
        if len(events.events) != 12:
            problems.add("events.yaml", ("events",),
                         f"{len(events.events)} event cards, not 12 (Componenti)")
        if len({e.id for e in events.events}) != len(events.events):
            problems.add("events.yaml", ("events",), "duplicate event ids")
        return ShogunKit(
            id=manifest.id, game=manifest.game, version=manifest.version, title=manifest.title,
            sample=manifest.sample, regions=board.regions,
            locations=getattr(board, SIDES[0]).provinces, roads=getattr(board, SIDES[0]).links,
            sides={name: getattr(board, name) for name in SIDES}, cards=cards.cards,
            events=events.events, components=components)


def _check_cards(board: BoardFile, cards: CardsFile, problems: Problems) -> None:
    """53 cards for the sun and moon sides; each side's provinces have exactly one card each,
    and 8 marked ones."""
    printed = sum(1 for c in cards.cards if set(c.sides) & set(PRINTED))
    if printed != 53:
        problems.add("cards.yaml", ("cards",), f"{printed} province cards for the sun and moon "
                     "sides, not 53 (Componenti)")
    seen: set[str] = set()
    for index, card in enumerate(cards.cards):
        if card.id in seen:
            problems.add("cards.yaml", ("cards", index, "id"), f"duplicate card '{card.id}'")
        seen.add(card.id)
    for name in SIDES:
        side: BoardSide = getattr(board, name)
        ids = {p.id for p in side.provinces}
        with_side = {c.id for c in cards.cards if name in c.sides}
        for index, card in enumerate(cards.cards):
            if name in card.sides and card.id not in ids:
                problems.add("cards.yaml", ("cards", index, "sides"),
                             f"{card.id}: no such province on the {name} side")
        for index, province in enumerate(side.provinces):
            if province.id not in with_side:
                problems.add("board.yaml", (name, "provinces", index),
                             f"{province.id}: no province card for the {name} side")
        marked = sum(p.unused_with_3 for p in side.provinces)
        if marked != 8:
            problems.add("board.yaml", (name, "provinces"), f"{marked} provinces marked "
                         f"unused with 3 players on the {name} side, not 8 (Imposta)")


def _check_components(board: BoardFile, components: ComponentsFile,
                      problems: Problems) -> None:
    """Groups for 3, 4 and 5 players (7 to 9 areas) that fit the armies and the board."""
    for field in ("chests", "groups"):
        for players in getattr(components, field):
            if players not in (3, 4, 5):
                problems.add("components.yaml", (field, players),
                             f"{players} players: Shogun is for 3 to 5")
    for players in (3, 4, 5):
        if players not in components.chests:
            problems.add("components.yaml", ("chests",), f"no starting chests for {players}")
        groups = components.groups.get(players)
        if groups is None:
            problems.add("components.yaml", ("groups",), f"no groups for {players} players")
            continue
        if not 7 <= len(groups) <= 9:
            problems.add("components.yaml", ("groups", players),
                         f"{len(groups)} areas: the individual board uses 7 to 9")
        if sum(groups) + components.tower_load.armies > components.armies:
            problems.add("components.yaml", ("groups", players),
                         f"{sum(groups)} armies in groups and {components.tower_load.armies} "
                         f"in the tower: more than {components.armies}")
        for name in SIDES:
            side: BoardSide = getattr(board, name)
            usable = sum(1 for p in side.provinces if players > 3 or not p.unused_with_3)
            if players * len(groups) > usable:
                problems.add("components.yaml", ("groups", players),
                             f"{players} x {len(groups)} groups for {usable} provinces "
                             f"on the {name} side")
    if components.tower_load.farmers > components.farmers:
        problems.add("components.yaml", ("tower_load", "farmers"), "more farmers than there are")


register_spec(ShogunSpec(), shipped=Path(str(files(__package__ or "").joinpath("data"))))
