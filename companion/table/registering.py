"""Registering a physical set (`companion register`, `companion print-tags --set`): its entries
taken one line at a time, its tags planned and captioned for printing, its own kit written
once it matches the game's.

A registry lives in a folder as `NAME.json`, and the set's kit beside it as `NAME-kit/` (where
`companion.table.sets` finds both at the table). What a line may say is the game's own (its
`register` capability, `games.Registration`); here is only what every game's registration does.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from companion.inputs.entries import entry_lines

__all__ = ["EVERY", "finish_set", "open_set", "plain_set_name", "register_entries",
           "set_tag_sheet"]

EVERY = 25
"""Entries taken between two progress lines."""


def plain_set_name(name: str) -> bool:
    """Whether `name` can name a set: a plain file name, no folders and no leading dot (a set's
    files are named after it, in the sets folder and nowhere else)."""
    return bool(name) and name == Path(name).name and not name.startswith(".")


def open_set(registration: Any, folder: Path, name: str, kit: str) -> Any:
    """The registry of set `name` of `kit` in `folder`, resumed if it was begun; ValueError
    for one that cannot be read or is of another kit."""
    return registration.open(folder / f"{name}.json", kit, name)


def register_entries(registry: Any, entries: BinaryIO, refused: Callable[[int, str], None],
                     progress: Callable[[str], None], every: int = EVERY) -> int:
    """Each line of `entries` to the registry; blank lines and `#` comments are passed over,
    a refused line is told to `refused(line number, why)` and skipped (the rest go on), and
    every `every` lines taken `progress` is told what is registered. Returns the lines taken.

    `entries` is read as bytes, line by line (`inputs.entries`): a line that is not UTF-8 or
    is far too long is one refused line, never the end of the whole registration."""
    taken = 0
    for entry in entry_lines(entries):
        line = entry.text
        if entry.problem is None and (not line.strip() or line.lstrip().startswith("#")):
            continue
        try:
            if entry.problem is not None:
                raise ValueError(entry.problem)
            registry.add(line)
        except ValueError as exc:
            refused(entry.number, str(exc))
            continue
        taken += 1
        if taken % every == 0:
            progress(registry.progress())
    return taken


def finish_set(registry: Any, folder: Path, name: str) -> Path:
    """The complete set's own kit, written beside its registry; returns its folder."""
    written: Path = registry.write_kit(folder / f"{name}-kit")
    return written


def set_tag_sheet(registration: Any, folder: Path, name: str, kit: str,
                  first: int) -> tuple[list[tuple[int, str]], int]:
    """What a set's tag sheet prints: each tag with the piece it goes on, and how many tags
    were newly planned (from tag `first` on) and registered for a set not finished yet.
    ValueError for a registry that cannot be read or planned."""
    registry = open_set(registration, folder, name, kit)
    planned: int = registry.plan_tags(first)
    rows: list[tuple[int, str]] = registry.tag_captions()
    return rows, planned
