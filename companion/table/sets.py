"""A registered physical set at the table: which tag is on which piece and which code on which
card (`companion register`), and the set's own kit.

`companion serve --set NAME` and `companion demo --set NAME` read the table with it: the table
referee names a piece by the set's tag, a card by its sticker's code, and a new game is played
on the set's kit (its record names that kit, so resuming the game finds it again).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from companion.kits import KitError, load_kit
from companion.table.registry import TableRegistry

__all__ = ["PhysicalSet", "load_set", "newest_set"]


@dataclass(frozen=True)
class PhysicalSet:
    """A complete registered set, as the table uses it."""

    name: str
    game: str
    kit: Path
    """The set's own kit folder (`NAME-kit` beside the registry)."""
    kit_id: str
    registry: TableRegistry

    def code_of(self, card: str) -> str | None:
        """The code stuck on `card` (an RFID sticker's), if it has one."""
        return next((code for code, named in self.registry.cards.items() if named == card), None)


def _folder(folder: Path | None) -> Path:
    from companion.userdata import sets_folder

    return folder or sets_folder()


def newest_set(folder: Path | None = None) -> str | None:
    """The complete set registered last (its registry written last), if any."""
    done = [p for p in _folder(folder).glob("*.json")
            if (p.parent / f"{p.stem}-kit").is_dir()]
    return max(done, key=lambda p: p.stat().st_mtime).stem if done else None


def load_set(name: str, folder: Path | None = None) -> PhysicalSet:
    """The registered set `name`, complete, with its kit; ValueError saying what is wrong
    (no such set, a registry that cannot be read, a set not finished)."""
    from companion.games import game as game_spec

    where = _folder(folder)
    path = where / f"{name}.json"
    if not name or name != Path(name).name or not path.is_file():
        known = ", ".join(sorted(p.stem for p in where.glob("*.json"))) or "none"
        raise ValueError(f"no registered set {name!r} in {where} (registered: {known}; "
                         "companion register NAME registers one)")
    try:
        kit_name = str(json.loads(path.read_text(encoding="utf-8"))["kit"])
        base = load_kit(kit_name)
        spec = game_spec(base.game)
        registry = spec.need_register().open(path, kit_name, name)
    except (KitError, KeyError, LookupError, json.JSONDecodeError) as exc:
        raise ValueError(f"set {name} ({path}) cannot be read: {exc}") from None
    problems = registry.problems()
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ValueError(f"set {name} is not complete: {problems[0]}{more}; finish it with "
                         f"companion register {name}")
    kit_folder = where / f"{name}-kit"
    if not kit_folder.is_dir():
        registry.write_kit(kit_folder)
    kit = spec.load_kit(kit_folder)
    return PhysicalSet(name, base.game, kit_folder, kit.id, registry.table_registry(kit))
