"""The Disfida di Barletta kit: the field (a hex grid numbered as the rulebook numbers it, its
edges, the melee lines, each side's camp and shield), the 26 knights with their VC, and the two
tables the rulebook uses but does not print: Braccio da Montone's melee table and the
surrender table's modifiers (each shipped as a clearly marked example until the user enters
theirs). The hex adjacency (`locations`, `roads`) is computed from the grid (`hexes.py`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from importlib.resources import files
from pathlib import Path
from typing import Annotated, ClassVar

from pydantic import BaseModel, Field, StringConstraints

from companion.games.barletta import hexes
from companion.kits.board import Frozen, Id
from companion.kits.loader import Kit, KitManifest, KitSpec, register_spec
from companion.kits.problems import Problems

__all__ = ["COLUMNS", "KNIGHTS_PER_SIDE", "ROLLS", "SIDES", "BarlettaKit", "Cell", "Knight",
           "column_name"]

SIDES = ("italians", "french")
"""The two Schiere; the Italians' melee line is row 07, the French one row 06 (I1)."""
KNIGHTS_PER_SIDE = 13
COLUMNS = tuple(f"{-s}L" if s < 0 else ("0" if s == 0 else f"{s}R") for s in range(-5, 6))
"""The melee table's columns, 5L to 5R (H1.1)."""
ROLLS = tuple(range(2, 13))

HexId = Annotated[str, StringConstraints(pattern=r"^\d{4}$")]
CellText = Annotated[str, StringConstraints(pattern=r"^(-|\d|\dD|D)/(-|\d|\dD|D)$")]
Value = Annotated[int, Field(ge=1, le=12)]


def column_name(shift: int) -> str:
    """-2 -> "2L", 0 -> "0", 3 -> "3R" (H1.1)."""
    return COLUMNS[max(-5, min(5, shift)) + 5]


class SideField(Frozen):
    melee_line: tuple[HexId, ...]
    camp: tuple[HexId, ...]
    """The camp's own hexes, off the field (F2, H4.2): a knight enters the field hexes they
    touch."""
    shield: HexId
    """The hex of the side's shield, off the field: a knight may also enter from it (F2)."""


class FieldFile(Frozen):
    columns: dict[Annotated[str, StringConstraints(pattern=r"^\d{2}$")],
                  tuple[Annotated[int, Field(ge=0, le=99)], Annotated[int, Field(ge=0, le=99)]]]
    sides: dict[Id, SideField]


class Knight(Frozen):
    id: Id
    name: str
    full_name: str = ""
    vc: Value | None = None
    """The counter's VC; None until entered from the counters (`kit check` lists them)."""
    example_vc: Value
    """The project's placeholder, used by the rules while `vc` is None."""


class KnightsFile(Frozen):
    sides: dict[Id, tuple[Knight, ...]]


class MeleeFile(Frozen):
    example: bool
    """True for the project's example table (not Braccio da Montone's)."""
    columns: dict[str, tuple[CellText, ...]]


class SurrenderFile(Frozen):
    example: bool
    sides: dict[Id, tuple[Annotated[int, Field(ge=-12, le=12)], ...]]


class Hex(Frozen):
    """A hex of the field (the map's `locations`, for screens): its number is its id."""

    id: HexId
    name: str


class Link(Frozen):
    """Two adjacent hexes of the field (the map's `roads`), computed, never typed."""

    a: HexId
    b: HexId


@dataclass(frozen=True)
class Cell:
    """One melee table result read by the knight who rolled: the hits it takes (`own`), those
    its opponent takes (`other`), and the unhorsing marks (H1.3)."""

    own: int
    own_d: bool
    other: int
    other_d: bool

    @classmethod
    def parse(cls, text: str) -> Cell:
        left, right = text.split("/")
        return cls(*_half(left), *_half(right))


def _half(text: str) -> tuple[int, bool]:
    digits = text.rstrip("D").replace("-", "")
    return (int(digits) if digits else 0), text.endswith("D")


class BarlettaKit(Kit):
    locations: tuple[Hex, ...]
    roads: tuple[Link, ...]
    sides: dict[str, SideField]
    knights: dict[str, tuple[Knight, ...]]
    melee: MeleeFile
    surrender: SurrenderFile

    @cached_property
    def field(self) -> frozenset[str]:
        return frozenset(h.id for h in self.locations)

    @cached_property
    def neighbours(self) -> Mapping[str, tuple[str, ...]]:
        """Each field hex's neighbours on the field."""
        return {h: tuple(n for n in hexes.neighbours(h) if n in self.field) for h in
                sorted(self.field)}

    @cached_property
    def by_id(self) -> Mapping[str, Knight]:
        return {k.id: k for side in self.knights.values() for k in side}

    @cached_property
    def side_of(self) -> Mapping[str, str]:
        return {k.id: side for side, ks in self.knights.items() for k in ks}

    def vc(self, knight: str) -> int:
        """The knight's VC: the counter's, else the example placeholder."""
        found = self.by_id[knight]
        return found.vc if found.vc is not None else found.example_vc

    def entries(self, side: str) -> tuple[str, ...]:
        """The field hexes a knight of `side` enters from its camp or shield (F2, example 4)."""
        where = self.sides[side]
        return tuple(sorted({n for h in (*where.camp, where.shield) for n in hexes.neighbours(h)
                             if n in self.field}))

    def camp_entries(self, side: str) -> tuple[str, ...]:
        return tuple(sorted({n for h in self.sides[side].camp for n in hexes.neighbours(h)
                             if n in self.field}))

    def shield_entries(self, side: str) -> tuple[str, ...]:
        return tuple(n for n in hexes.neighbours(self.sides[side].shield) if n in self.field)

    def front(self, side: str, hex_: str) -> str | None:
        """The hex in front of a melee-line hex: the other side's line hex facing it (I2)."""
        line = self.sides[side].melee_line
        if hex_ not in line:
            return None
        other = self.sides[SIDES[1 - SIDES.index(side)]].melee_line
        return other[line.index(hex_)]

    @cached_property
    def table(self) -> Mapping[str, tuple[Cell, ...]]:
        return {name: tuple(Cell.parse(c) for c in cells)
                for name, cells in self.melee.columns.items()}

    def cell(self, shift: int, roll: int) -> Cell:
        """The melee table's result for a column shift (capped at 5L, 5R: H1.1) and a
        modified roll (2 to 12: H1.2)."""
        return self.table[column_name(shift)][max(2, min(12, roll)) - 2]

    def surrender_modifier(self, side: str, gone: int) -> int:
        """H4.3: the modifier in the first empty box above the side's `gone` knights."""
        boxes = self.surrender.sides[side]
        return boxes[min(gone, len(boxes) - 1)]

    def missing_vc(self) -> list[str]:
        return [k.name for side in SIDES for k in self.knights.get(side, ()) if k.vc is None]

    def summary(self) -> list[tuple[str, str]]:
        missing = self.missing_vc()
        knights = f"{len(self.by_id)}" + (
            f"; VC to enter from the counters ({len(missing)}): {', '.join(missing)}"
            if missing else "")
        example = " (EXAMPLE table made by the project: enter Braccio da Montone's, " \
            "docs/barletta.md)"
        return [*super().summary(), ("hexes", str(len(self.locations))),
                ("knights", knights),
                ("melee", "5L to 5R, rolls 2 to 12" + (example if self.melee.example else "")),
                ("surrender", "13 boxes a side" + (" (EXAMPLE modifiers: enter yours)"
                                                   if self.surrender.example else ""))]


class BarlettaSpec(KitSpec):
    game: ClassVar[str] = "barletta"
    files: ClassVar[Mapping[str, type[BaseModel]]] = {
        "field.yaml": FieldFile, "knights.yaml": KnightsFile,
        "melee_table.yaml": MeleeFile, "surrender_table.yaml": SurrenderFile}

    def check_file(self, file: str, part: BaseModel, problems: Problems) -> None:
        if isinstance(part, FieldFile):
            _check_field(file, part, problems)
        elif isinstance(part, KnightsFile):
            _check_knights(file, part, problems)
        elif isinstance(part, MeleeFile):
            _check_melee(file, part, problems)
        elif isinstance(part, SurrenderFile):
            _check_sides(file, part.sides, problems)
            for side, boxes in part.sides.items():
                if len(boxes) != KNIGHTS_PER_SIDE:
                    problems.add(file, ("sides", side), f"{len(boxes)} boxes, not "
                                 f"{KNIGHTS_PER_SIDE} (one per knight)")

    def build(self, manifest: KitManifest, parts: Mapping[str, BaseModel],
              problems: Problems) -> BarlettaKit:
        board, knights = parts["field.yaml"], parts["knights.yaml"]
        melee, surrender = parts["melee_table.yaml"], parts["surrender_table.yaml"]
        assert isinstance(board, FieldFile) and isinstance(knights, KnightsFile)
        assert isinstance(melee, MeleeFile) and isinstance(surrender, SurrenderFile)
        field = _hexes(board)
        links = sorted({tuple(sorted((h, n))) for h in field for n in hexes.neighbours(h)
                        if n in field})
        return BarlettaKit(
            id=manifest.id, game=manifest.game, version=manifest.version, title=manifest.title,
            sample=manifest.sample, locations=tuple(Hex(id=h, name=h) for h in sorted(field)),
            roads=tuple(Link(a=a, b=b) for a, b in links), sides=board.sides,
            knights=knights.sides, melee=melee, surrender=surrender)


def _hexes(board: FieldFile) -> set[str]:
    return {hexes.hex_id(int(c), r) for c, (first, last) in board.columns.items()
            for r in range(first, last + 1)}


def _check_sides(file: str, sides: Mapping[str, object], problems: Problems) -> None:
    if sorted(sides) != sorted(SIDES):
        problems.add(file, ("sides",), f"the sides are {', '.join(SIDES)}, not "
                     f"{', '.join(sides) or 'none'}")


def _check_field(file: str, board: FieldFile, problems: Problems) -> None:
    for column, (first, last) in board.columns.items():
        if first > last:
            problems.add(file, ("columns", column), f"first row {first} after last row {last}")
    _check_sides(file, board.sides, problems)
    field = _hexes(board)
    for side, where in board.sides.items():
        if len(where.melee_line) != KNIGHTS_PER_SIDE:
            problems.add(file, ("sides", side, "melee_line"), f"{len(where.melee_line)} hexes, "
                         f"not {KNIGHTS_PER_SIDE} (one per knight: I1)")
        for index, hex_ in enumerate(where.melee_line):
            if hex_ not in field:
                problems.add(file, ("sides", side, "melee_line", index),
                             f"hex {hex_} is not on the field")
        for index, hex_ in enumerate((*where.camp, where.shield)):
            loc = ("sides", side, "camp", index) if index < len(where.camp) \
                else ("sides", side, "shield")
            if hex_ in field:
                problems.add(file, loc, f"hex {hex_} is on the field: a camp is off it")
            elif not any(n in field for n in hexes.neighbours(hex_)):
                problems.add(file, loc, f"hex {hex_} touches no hex of the field")
    lines = [board.sides[s].melee_line for s in SIDES if s in board.sides]
    if len(lines) == 2:
        for index, (a, b) in enumerate(zip(*lines, strict=False)):
            if b not in hexes.neighbours(a):
                problems.add(file, ("sides", SIDES[1], "melee_line", index),
                             f"hex {b} does not face {a} across the melee line")


def _check_knights(file: str, part: KnightsFile, problems: Problems) -> None:
    _check_sides(file, part.sides, problems)
    seen: set[str] = set()
    for side, knights in part.sides.items():
        if len(knights) != KNIGHTS_PER_SIDE:
            problems.add(file, ("sides", side), f"{len(knights)} knights, not "
                         f"{KNIGHTS_PER_SIDE}")
        for index, knight in enumerate(knights):
            if knight.id in seen:
                problems.add(file, ("sides", side, index, "id"), f"duplicate id '{knight.id}'")
            seen.add(knight.id)


def _check_melee(file: str, part: MeleeFile, problems: Problems) -> None:
    if tuple(part.columns) != COLUMNS:
        problems.add(file, ("columns",), f"the columns are {', '.join(COLUMNS)} in that order, "
                     f"not {', '.join(part.columns)}")
    for name, cells in part.columns.items():
        if len(cells) != len(ROLLS):
            problems.add(file, ("columns", name), f"{len(cells)} cells, not {len(ROLLS)} "
                         "(rolls 2 to 12)")


register_spec(BarlettaSpec(), shipped=Path(str(files(__package__ or "").joinpath("data"))))
