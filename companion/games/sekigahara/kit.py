"""The Sekigahara kit: map graph, the two 55-card decks and the 96 blocks.

Files (in `data/sekigahara/`): `map.yaml` (locations, roads, disks, boxes, tracks),
`cards.yaml` (each deck by face and count) and `blocks.yaml` (set-up blocks and bag blocks by
face and count). The loader expands faces into individual cards and blocks with stable ids, since
a physical card or block is what a tag or barcode names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import cached_property
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BaseModel, Field, model_validator

from companion.kits.board import (
    Count,
    Frozen,
    Id,
    Location,
    Road,
    at_most,
    check_graph,
    neighbours_of,
)
from companion.kits.loader import Kit, KitManifest, KitSpec, register_spec
from companion.kits.problems import Problems

__all__ = [
    "BLOCKS_PER_SIDE", "CARDS_PER_DECK", "SIDES", "Block", "Card", "SekigaharaKit",
]

Side = Literal["ishida", "tokugawa"]
SIDES: tuple[Side, Side] = ("ishida", "tokugawa")
SetupKind = Literal["square", "round", "star", "triangle"]
CARDS_PER_DECK = 55  # 1: two decks; the per-face counts in cards.yaml add up to 55 each
BLOCKS_PER_SIDE = 48  # 1: 96 blocks, 48 gold and 48 black
CardCount = Annotated[int, Field(ge=1), AfterValidator(
    at_most(CARDS_PER_DECK, "no face has more cards than a whole deck (1)"))]
BlockCount = Annotated[int, Field(ge=1), AfterValidator(
    at_most(BLOCKS_PER_SIDE, "no face or marker has more blocks than a whole side (1)"))]
"""Counts expand into cards and blocks one by one: bounded by the rules, they stay small."""


class SetupMarker(Frozen):
    """A set-up marker printed on the map (5.2): that many blocks of that side start here."""

    side: Side
    kind: SetupKind | Literal["random"]
    count: BlockCount


class SekigaharaLocation(Location):
    resource: bool = False  # 4.2
    capital: Side | None = None  # 4.5
    castle: Side | None = None  # 4.3: the castle's allegiance
    recruitment: tuple[Id, ...] = ()  # 7.2: clans whose mon is printed beside it
    setup: tuple[SetupMarker, ...] = ()


class SekigaharaRoad(Road):
    kind: Literal["highway", "road"]  # 7.3.3: highways give +1


class Disk(Frozen):
    """Toyotomi Hideyori (9.1) and Sanada Masayuki (9.2): units that never leave their castle."""

    id: Id
    side: Side
    at: Id
    rule: str


class Box(Frozen):
    """An off-map box: the recruitment boxes (4.4) and the Mori box (9.3)."""

    id: Id
    side: Side
    setup: tuple[SetupMarker, ...] = ()


class Tracks(Frozen):
    weeks: Count
    turns_per_week: tuple[str, ...]
    reinforcements_per_week: dict[int, Annotated[int, Field(ge=0), AfterValidator(
        at_most(BLOCKS_PER_SIDE, "no week draws more blocks than a whole side (1)"))]]  # 6.2
    impact_track: tuple[int, int]  # 8.3.1


class MapFile(Frozen):
    locations: tuple[SekigaharaLocation, ...]
    roads: tuple[SekigaharaRoad, ...]
    disks: tuple[Disk, ...] = ()
    boxes: tuple[Box, ...] = ()
    tracks: Tracks


class CardFace(Frozen):
    clan: Id | None
    kind: Literal["plain", "special", "double", "loyalty"]
    bid: Annotated[int, Field(ge=0)]  # 6.3
    count: CardCount

    @model_validator(mode="after")
    def _loyalty_has_no_clan(self) -> CardFace:
        if (self.kind == "loyalty") != (self.clan is None):
            raise ValueError("a loyalty card has no clan and every other card has one (8.6)")
        return self


class CardsFile(Frozen):
    decks: dict[Side, tuple[CardFace, ...]]


class BlockFace(Frozen):
    clan: Id
    strength: Annotated[int, Field(ge=1, le=4)]  # 3.2: 1-4 mon
    attack: Literal["cavalry", "arquebus"] | None = None  # 8.4.1
    leader: Literal[1, 3] | None = None  # 3.2: nobori with 1 or 3 dots
    any_card: bool = False  # 8.2.2, 9.4, 9.5
    setup: SetupKind | None = None  # 5.2.1
    count: BlockCount = 1
    guess: str | None = None

    @model_validator(mode="after")
    def _one_mon_for_specials(self) -> BlockFace:
        if self.attack and self.leader:
            raise ValueError("a block is a leader or a cavalry/arquebus block, not both (3.2)")
        if (self.attack or self.leader) and self.strength != 1:
            raise ValueError("leaders and cavalry/arquebus blocks show one mon (3.2)")
        return self


class BlocksFile(Frozen):
    manifest: Literal["sample", "registered"]
    clans: dict[Side, tuple[Id, ...]]
    setup_blocks: dict[Side, tuple[BlockFace, ...]]
    bag_blocks: dict[Side, tuple[BlockFace, ...]]


class Card(Frozen):
    """One physical card. Ids look like `T-maeda-special-2`."""

    id: str
    side: Side
    clan: str | None
    kind: Literal["plain", "special", "double", "loyalty"]
    bid: int


class Block(Frozen):
    """One physical block. Ids look like `I-mori-3-2` (clan, face, number within the face)."""

    id: str
    side: Side
    clan: str
    strength: int
    attack: Literal["cavalry", "arquebus"] | None
    leader: Literal[1, 3] | None
    any_card: bool
    setup: SetupKind | None
    guess: str | None = None


class SekigaharaKit(Kit):
    """Everything the Sekigahara rules need to know about the components."""

    locations: tuple[SekigaharaLocation, ...]
    roads: tuple[SekigaharaRoad, ...]
    disks: tuple[Disk, ...]
    boxes: tuple[Box, ...]
    tracks: Tracks
    clans: dict[Side, tuple[str, ...]]
    cards: tuple[Card, ...]
    blocks: tuple[Block, ...]
    block_manifest: Literal["sample", "registered"]

    @cached_property
    def location(self) -> Mapping[str, SekigaharaLocation]:
        return {loc.id: loc for loc in self.locations}

    @cached_property
    def neighbours(self) -> Mapping[str, tuple[str, ...]]:
        return neighbours_of(self.roads)

    @cached_property
    def block(self) -> Mapping[str, Block]:
        return {b.id: b for b in self.blocks}

    @cached_property
    def card(self) -> Mapping[str, Card]:
        return {c.id: c for c in self.cards}

    def road(self, a: str, b: str) -> SekigaharaRoad | None:
        """The road joining two locations, if they are adjacent."""
        for road in self.roads:
            if {road.a, road.b} == {a, b}:
                return road
        return None

    def summary(self) -> list[tuple[str, str]]:
        kinds = Counter(r.kind for r in self.roads)
        decks = Counter(c.side for c in self.cards)
        blocks = Counter(b.side for b in self.blocks)
        castles = Counter(loc.castle for loc in self.locations if loc.castle)
        return [
            *super().summary(),
            ("locations", str(len(self.locations))),
            ("roads", f"{len(self.roads)} ({_counts(kinds)})"),
            ("castles", f"{sum(castles.values())} ({_per_side(castles)})"),
            ("resources", str(sum(loc.resource for loc in self.locations))),
            ("capitals", ", ".join(
                f"{loc.name} ({loc.capital})" for loc in self.locations if loc.capital)),
            ("boxes", ", ".join(b.id for b in self.boxes)),
            ("decks", _per_side(decks) + " cards"),
            ("blocks", _per_side(blocks) + f" ({self.block_manifest} manifest)"),
            ("weeks", str(self.tracks.weeks)),
        ]


def _counts(counts: Mapping[Any, int]) -> str:
    return ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))


def _per_side(counts: Mapping[Any, int]) -> str:
    return ", ".join(f"{side} {counts.get(side, 0)}" for side in SIDES)


class SekigaharaSpec(KitSpec):
    game: ClassVar[str] = "sekigahara"
    files: ClassVar[Mapping[str, type[BaseModel]]] = {
        "map.yaml": MapFile, "cards.yaml": CardsFile, "blocks.yaml": BlocksFile,
    }

    def check_file(self, file: str, part: BaseModel, problems: Problems) -> None:
        if isinstance(part, MapFile):
            check_graph(problems, file, part.locations, part.roads)
            _check_map(problems, part)
        elif isinstance(part, CardsFile):
            _check_decks(problems, part)
        elif isinstance(part, BlocksFile):
            _check_blocks(problems, part)

    def build(
        self, manifest: KitManifest, parts: Mapping[str, BaseModel], problems: Problems
    ) -> SekigaharaKit:
        board, decks, blocks = parts["map.yaml"], parts["cards.yaml"], parts["blocks.yaml"]
        assert isinstance(board, MapFile)
        assert isinstance(decks, CardsFile)
        assert isinstance(blocks, BlocksFile)
        _check_clan_references(problems, board, decks, blocks)
        _check_setup_markers(problems, board, blocks)
        return SekigaharaKit(
            id=manifest.id, game=manifest.game, version=manifest.version, title=manifest.title,
            sample=manifest.sample, locations=board.locations, roads=board.roads,
            disks=board.disks, boxes=board.boxes, tracks=board.tracks, clans=blocks.clans,
            cards=_expand_cards(decks), blocks=_expand_blocks(blocks),
            block_manifest=blocks.manifest,
        )


def _clan_sides(blocks: BlocksFile) -> dict[str, Side]:
    return {clan: side for side, clans in blocks.clans.items() for clan in clans}


def _check_map(problems: Problems, board: MapFile) -> None:
    ids = {loc.id: loc for loc in board.locations}
    for index, loc in enumerate(board.locations):
        if loc.capital and not loc.resource:
            problems.add("map.yaml", ("locations", index, "capital"),
                         "a capital is a resource location (4.5)")
    for index, disk in enumerate(board.disks):
        if disk.at not in ids:
            problems.add("map.yaml", ("disks", index, "at"), f"unknown location '{disk.at}'")
        elif ids[disk.at].castle is None:
            problems.add("map.yaml", ("disks", index, "at"),
                         f"a disk stands in a castle (8.9.3), and '{disk.at}' has none")
    weeks = set(range(1, board.tracks.weeks + 1))
    if set(board.tracks.reinforcements_per_week) != weeks:
        problems.add("map.yaml", ("tracks", "reinforcements_per_week"),
                     f"needs exactly one entry for each week 1-{board.tracks.weeks}")


def _check_decks(problems: Problems, decks: CardsFile) -> None:
    bids: dict[int, Side] = {}
    for side in SIDES:
        faces = decks.decks.get(side)
        if faces is None:
            problems.add("cards.yaml", ("decks",), f"no deck for side '{side}'")
            continue
        total = sum(face.count for face in faces)
        if total != CARDS_PER_DECK:
            problems.add("cards.yaml", ("decks", side),
                         f"the {side} deck has {total} cards, not {CARDS_PER_DECK}")
        for index, face in enumerate(faces):
            if bids.setdefault(face.bid, side) != side:
                problems.add("cards.yaml", ("decks", side, index, "bid"),
                             f"bid {face.bid} appears in both decks: bids must never tie (6.3)")


def _check_blocks(problems: Problems, blocks: BlocksFile) -> None:
    seen: dict[str, Side] = {}
    for side, clans in blocks.clans.items():
        for index, clan in enumerate(clans):
            if seen.setdefault(clan, side) != side:
                problems.add("blocks.yaml", ("clans", side, index),
                             f"clan '{clan}' is listed for both sides")
    for side in SIDES:
        if side not in blocks.clans:
            problems.add("blocks.yaml", ("clans",), f"no clans listed for side '{side}'")
        counts = {group: sum(f.count for f in getattr(blocks, group).get(side, ()))
                  for group in ("setup_blocks", "bag_blocks")}
        for group in counts:
            for index, face in enumerate(getattr(blocks, group).get(side, ())):
                if (group == "setup_blocks") != (face.setup is not None):
                    problems.add("blocks.yaml", (group, side, index, "setup"),
                                 "set-up blocks carry a set-up symbol and bag blocks none (5.1)")
        total = sum(counts.values())
        if total != BLOCKS_PER_SIDE:
            problems.add(
                "blocks.yaml", ("bag_blocks", side),
                f"{side} has {total} blocks ({counts['setup_blocks']} set-up + "
                f"{counts['bag_blocks']} bag), not {BLOCKS_PER_SIDE} (1)",
                entry=f"{side} blocks")


def _check_clan_references(
    problems: Problems, board: MapFile, decks: CardsFile, blocks: BlocksFile
) -> None:
    """Every clan named on the map, a card or a block is listed, and on the right side."""
    clan_side = _clan_sides(blocks)

    def check(file: str, loc: tuple[str | int, ...], clan: str, side: Side | None) -> None:
        if clan not in clan_side:
            problems.add(file, loc, f"unknown clan '{clan}'")
        elif side is not None and clan_side[clan] != side:
            problems.add(file, loc, f"clan '{clan}' fights for {clan_side[clan]}, not {side}")

    for index, loc in enumerate(board.locations):
        for r, clan in enumerate(loc.recruitment):
            check("map.yaml", ("locations", index, "recruitment", r), clan, None)
    for side, faces in decks.decks.items():
        for index, card in enumerate(faces):
            if card.clan is not None:
                check("cards.yaml", ("decks", side, index, "clan"), card.clan, side)
    for group in ("setup_blocks", "bag_blocks"):
        for side, block_faces in getattr(blocks, group).items():
            for index, face in enumerate(block_faces):
                check("blocks.yaml", (group, side, index, "clan"), face.clan, side)


def _check_setup_markers(problems: Problems, board: MapFile, blocks: BlocksFile) -> None:
    """Every set-up marker needs exactly its blocks (5.2.1), and the bags the random draws."""
    wanted: Counter[tuple[str, str]] = Counter()
    where: dict[tuple[str, str], tuple[str | int, ...]] = {}
    random_draws: Counter[str] = Counter()
    places = [("locations", i, p.setup) for i, p in enumerate(board.locations)]
    places += [("boxes", i, b.setup) for i, b in enumerate(board.boxes)]
    for group, index, markers in places:
        for m, marker in enumerate(markers):
            if marker.kind == "random":
                random_draws[marker.side] += marker.count
                continue
            marker_key: tuple[str, str] = (marker.side, marker.kind)
            wanted[marker_key] += marker.count
            where.setdefault(marker_key, (group, index, "setup", m))
    have: Counter[tuple[str, str]] = Counter()
    first: dict[tuple[str, str], tuple[str | int, ...]] = {}
    for side, faces in blocks.setup_blocks.items():
        for index, face in enumerate(faces):
            if face.setup:
                have[(side, face.setup)] += face.count
                first.setdefault((side, face.setup), ("setup_blocks", side, index))
    for key in sorted(set(wanted) | set(have)):
        who, kind = key
        if wanted[key] > have[key]:
            problems.add("map.yaml", where[key],
                         f"set-up marker for {wanted[key]} {who} {kind} block(s), but "
                         f"blocks.yaml has {have[key]} (5.2.1)")
        elif have[key] > wanted[key]:
            problems.add("blocks.yaml", first[key],
                         f"{have[key]} {who} {kind} set-up block(s), but the map has markers "
                         f"for {wanted[key]} (5.2.1)")
    for side in SIDES:
        bag = sum(face.count for face in blocks.bag_blocks.get(side, ()))
        if random_draws[side] > bag:
            problems.add("blocks.yaml", ("bag_blocks", side),
                         f"set-up draws {random_draws[side]} {side} blocks at random (5.2.2, "
                         f"5.2.3) but the bag holds {bag}")


def _expand_cards(decks: CardsFile) -> tuple[Card, ...]:
    cards: list[Card] = []
    for side in SIDES:
        numbers: Counter[str] = Counter()
        for face in decks.decks.get(side, ()):
            for _ in range(face.count):
                name = f"{face.clan}-{face.kind}" if face.clan else "loyalty"
                stem = f"{side[0].upper()}-{name}"
                numbers[stem] += 1
                cards.append(Card(id=f"{stem}-{numbers[stem]}", side=side, clan=face.clan,
                                  kind=face.kind, bid=face.bid))
    return tuple(cards)


def _face_name(face: BlockFace) -> str:
    if face.leader:
        return "leader"
    if face.attack:
        return {"cavalry": "cav", "arquebus": "arq"}[face.attack]
    return str(face.strength)


def _expand_blocks(blocks: BlocksFile) -> tuple[Block, ...]:
    result: list[Block] = []
    for side in SIDES:
        numbers: Counter[str] = Counter()
        faces = (*blocks.setup_blocks.get(side, ()), *blocks.bag_blocks.get(side, ()))
        for face in faces:
            for _ in range(face.count):
                stem = f"{side[0].upper()}-{face.clan}-{_face_name(face)}"
                numbers[stem] += 1
                result.append(Block(
                    id=f"{stem}-{numbers[stem]}", side=side, clan=face.clan,
                    strength=face.strength, attack=face.attack, leader=face.leader,
                    any_card=face.any_card, setup=face.setup, guess=face.guess,
                ))
    return tuple(result)


register_spec(SekigaharaSpec(), shipped=Path(str(files(__package__ or "").joinpath("data"))))
