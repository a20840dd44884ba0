"""Registering a copy of La Disfida di Barletta: the values the rulebook does not give, entered
once from the user's own components (`companion register NAME --kit barletta`).

- the 21 knights' VC the rulebook does not name (`vc Fanfulla 5`, `vc de Sachet 4`);
- Braccio da Montone's melee table, cell by cell (`melee 2R 7 -/1`: column, roll, cell);
- the Surrended table's modifiers (`surrender french 6 +2`: side, box from the bottom, value);
- which tag is on which face of each knight's counter (`tag 10 Fieramosca mounted`), or the
  tags planned for the whole box (`companion print-tags --set NAME --game barletta`, which
  prints the sheet saying which tag goes on which face).

The registry is saved after every entry (a registration is resumed where it stopped) and,
once every VC is known, written as the set's own kit: the shipped kit with the values entered
(a melee or surrender table entered in full replaces the example, marked `example: false`)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import yaml

from companion.games.barletta.kit import COLUMNS, KNIGHTS_PER_SIDE, ROLLS, SIDES, BarlettaKit
from companion.games.contract import Registration
from companion.kits import load_kit
from companion.kits.loader import shipped_folder
from companion.table.registry import FIRST_PIECE_TAG, TableRegistry

__all__ = ["REGISTRATION", "Registry"]

ENTRIES = """\
One line per value, from your own components:
  vc KNIGHT VALUE           a knight's VC from its counter (e.g. 'vc Fanfulla 5', 'vc de Sachet 4')
  melee COLUMN ROLL CELL    a cell of Braccio da Montone's melee table, columns 5L..0..5R, rolls
                            2-12, cells as printed: hits to the roller / hits to its opponent, -
                            for none, D for an unhorsing test ('melee 2R 7 -/1', 'melee 0 12 -/3D')
  surrender SIDE BOX VALUE  a Surrended table box, 1 the bottom (e.g. 'surrender french 6 +2')
  tag TAG KNIGHT FACE       the tag on one face of a counter, FACE mounted or foot
                            (e.g. 'tag 10 Fieramosca mounted'); without any, the tags go
                            10, 11, ... on each knight's mounted then foot face in the kit's order
Lines starting with # are skipped. Once every VC is known, the set's own kit is written."""
CELL = re.compile(r"^(-|\d|\dD|D)/(-|\d|\dD|D)$")
FACES = ("mounted", "foot")
"""A counter's two faces, front first (as `table_state.FACES`, which imports vision)."""


class Registry:
    """A copy's values as entered so far, saved as JSON at `path`."""

    def __init__(self, path: Path, kit: str, name: str) -> None:
        self.path, self.kit_name, self.name = path, kit, name
        loaded = load_kit(kit)
        assert isinstance(loaded, BarlettaKit)
        self.kit = loaded
        self.data: dict[str, Any] = {"kit": kit, "vc": {}, "melee": {}, "surrender": {},
                                     "tags": {}}
        if path.is_file():
            saved = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(saved, dict) or saved.get("kit") != kit:
                raise ValueError(f"{path} is not a registry of the {kit} kit")
            self.data.update(saved)

    def _knight(self, words: str) -> str:
        wanted = words.strip().lower()
        for knight in self.kit.by_id.values():
            if wanted in (knight.id, knight.name.lower(), knight.full_name.lower()):
                return knight.id
        raise ValueError(f"no knight called {words.strip()!r}")

    def add(self, line: str) -> str:
        """One entry; ValueError naming what is wrong (nothing is changed then)."""
        parts = line.split()
        if not parts:
            raise ValueError("an empty line")
        kind = parts[0].lower()
        if kind == "vc" and len(parts) >= 3:
            knight, value = self._knight(" ".join(parts[1:-1])), _number(parts[-1], 1, 12)
            self.data["vc"][knight] = value
            said = f"{self.kit.by_id[knight].name}: VC {value}"
        elif kind == "melee" and len(parts) == 4:
            column = parts[1].upper()
            if column not in COLUMNS:
                raise ValueError(f"no column {parts[1]!r} (columns: {', '.join(COLUMNS)})")
            roll = _number(parts[2], ROLLS[0], ROLLS[-1])
            cell = parts[3].upper()
            if not CELL.match(cell):
                raise ValueError(f"a cell reads hits/hits with - for none and D for an "
                                 f"unhorsing test ('-/1', '1D/2'), not {parts[3]!r}")
            self.data["melee"].setdefault(column, {})[str(roll)] = cell
            said = f"melee {column} {roll}: {cell}"
        elif kind == "surrender" and len(parts) == 4:
            side = parts[1].lower()
            if side not in SIDES:
                raise ValueError(f"no side {parts[1]!r} (sides: {', '.join(SIDES)})")
            box = _number(parts[2], 1, KNIGHTS_PER_SIDE)
            value = _number(parts[3], -12, 12)
            self.data["surrender"].setdefault(side, {})[str(box)] = value
            said = f"surrender {side} box {box}: {value:+d}"
        elif kind == "tag" and len(parts) >= 4:
            said = self._tag(parts[1], " ".join(parts[2:-1]), parts[-1])
        else:
            raise ValueError(f"not an entry: {line.strip()!r} (vc, melee, surrender or tag: "
                             "see --how)")
        self.save()
        return said

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(self.data, indent=1, sort_keys=True), encoding="utf-8")

    def _tag(self, tag: str, knight_words: str, face: str) -> str:
        """One face's tag; ValueError for a tag out of range or already on another face."""
        number = _number(tag, FIRST_PIECE_TAG, _last_piece_tag())
        if face.lower() not in FACES:
            raise ValueError(f"a face is mounted or foot, not {face!r}")
        piece = _piece(self._knight(knight_words), face.lower())
        held = self.data["tags"].get(str(number))
        if held is not None and held != piece:
            raise ValueError(f"tag {number} is already on {self._face_words(held)}")
        self.data["tags"] = {t: p for t, p in self.data["tags"].items() if p != piece}
        self.data["tags"][str(number)] = piece
        return f"tag {number}: {self._face_words(piece)}"

    def _faces(self) -> list[str]:
        """Every face of every counter, in the kit's order (mounted first): planned from tag
        10 on an empty registry, the tags are the default set's (`table_registry`)."""
        return [_piece(knight, face) for knight in self.kit.by_id for face in FACES]

    def _face_words(self, piece: str) -> str:
        knight, _, face = piece.partition("@")
        return f"{self.kit.by_id[knight].name} ({self.kit.side_of[knight]}), {face}"

    def plan_tags(self, first: int) -> int:
        """Give every face without a tag the tags `first`, `first + 1`, ... (skipping those
        taken) in the box's order; saved. Returns how many were planned."""
        tags: dict[str, str] = self.data["tags"]
        tagged, planned, tag = set(tags.values()), 0, max(first, FIRST_PIECE_TAG)
        for piece in self._faces():
            if piece in tagged:
                continue
            while str(tag) in tags:
                tag += 1
            tags[str(tag)] = piece
            planned += 1
        self.save()
        return planned

    def tag_captions(self) -> list[tuple[int, str]]:
        """Each tag and the face it goes on, in words, in the box's order."""
        order = {piece: n for n, piece in enumerate(self._faces())}
        rows = sorted(self.data["tags"].items(), key=lambda tp: (order.get(tp[1], 0), tp[0]))
        return [(int(tag), self._face_words(piece)) for tag, piece in rows]

    def _missing_vc(self) -> list[str]:
        return [k.name for side in SIDES for k in self.kit.knights[side]
                if k.vc is None and k.id not in self.data["vc"]]

    def _cells(self) -> int:
        return sum(len(rows) for rows in self.data["melee"].values())

    def _boxes(self) -> int:
        return sum(len(boxes) for boxes in self.data["surrender"].values())

    def progress(self) -> str:
        known = sum(1 for side in SIDES for k in self.kit.knights[side] if k.vc is None) \
            - len(self._missing_vc())
        return f"{known} VC, {self._cells()} melee cells and {self._boxes()} surrender boxes"

    def problems(self) -> list[str]:
        """Every VC still unknown; a melee or surrender table begun and not finished; tags
        given to some faces and not to all."""
        found = [f"no VC yet for {name}" for name in self._missing_vc()]
        untagged = len(set(self._faces()) - set(self.data["tags"].values()))
        if self.data["tags"] and untagged:
            found.append(f"{untagged} counter faces have no tag yet (tag TAG KNIGHT FACE, or "
                         "print-tags --set to plan them)")
        cells, boxes = self._cells(), self._boxes()
        if 0 < cells < len(COLUMNS) * len(ROLLS):
            found.append(f"the melee table has {cells} of {len(COLUMNS) * len(ROLLS)} cells")
        if 0 < boxes < 2 * KNIGHTS_PER_SIDE:
            found.append(f"the surrender table has {boxes} of {2 * KNIGHTS_PER_SIDE} boxes")
        return found

    def write_kit(self, folder: Path) -> Path:
        """The shipped kit with the values entered, checked by loading it."""
        if folder.exists():
            shutil.rmtree(folder)
        shutil.copytree(shipped_folder(self.kit_name), folder)
        manifest = yaml.safe_load((folder / "kit.yaml").read_text(encoding="utf-8"))
        manifest["id"] = f"barletta_set_{re.sub(r'[^a-z0-9_]', '_', self.name.lower())}"
        knights = yaml.safe_load((folder / "knights.yaml").read_text(encoding="utf-8"))
        for side in knights["sides"].values():
            for knight in side:
                knight["vc"] = self.data["vc"].get(knight["id"], knight["vc"])
        _dump(folder / "knights.yaml", knights)
        full_table = self._cells() == len(COLUMNS) * len(ROLLS)
        if full_table:
            _dump(folder / "melee_table.yaml", {"example": False, "columns": {
                c: [self.data["melee"][c][str(r)] for r in ROLLS] for c in COLUMNS}})
        if self._boxes() == 2 * KNIGHTS_PER_SIDE:
            _dump(folder / "surrender_table.yaml", {"example": False, "sides": {
                s: [self.data["surrender"][s][str(b)] for b in range(1, KNIGHTS_PER_SIDE + 1)]
                for s in SIDES}})
        manifest["sample"] = not full_table
        _dump(folder / "kit.yaml", manifest)
        load_kit(folder)
        return folder

    def table_registry(self, kit: BarlettaKit) -> TableRegistry:
        """Which face each tag is on: the tags entered or planned, else the default plan
        (10, 11, ... on each knight's mounted then foot face, in the kit's order), as the
        simulated table has them. The set has no card codes."""
        if self.data["tags"]:
            return TableRegistry({int(t): p for t, p in self.data["tags"].items()}, {})
        return TableRegistry.in_kit_order(_piece(k, face) for k in kit.by_id for face in FACES)


def _last_piece_tag() -> int:
    """The highest tag a counter's face may carry: below the mat's own corner markers (the
    top of the 36h11 family, 0-586, is theirs: board.yaml's `corner_markers`)."""
    from companion.games.barletta.reader import _load

    return min(int(tag) for tag in _load(None)["corner_markers"]["ids"]) - 1


def _number(text: str, low: int, high: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"a whole number from {low} to {high}, not {text!r}") from None
    if not low <= value <= high:
        raise ValueError(f"a whole number from {low} to {high}, not {value}")
    return value


def _dump(path: Path, data: Any) -> None:
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False),
                    encoding="utf-8")


def _piece(knight: str, face: str) -> str:
    """A face's name in the table's registry (`fieramosca@mounted`, `table_state.piece_id`)."""
    return f"{knight}@{face}"


def _open(path: Path, kit: str, name: str) -> Registry:
    return Registry(path, kit, name)


REGISTRATION: Registration[BarlettaKit] = Registration(open=_open, entries=ENTRIES)
