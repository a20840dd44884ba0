"""Registering a physical set line by line (`companion.table.registering`, `companion
register`): a refused line costs that line only, progress is said every few lines, a set's
name is a plain file name, its tags are planned and captioned for the sheet."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from companion.table.registering import (
    finish_set,
    open_set,
    plain_set_name,
    register_entries,
    set_tag_sheet,
)


class Registry:
    """A registry that takes `tag N piece` lines and refuses any other."""

    def __init__(self) -> None:
        self.taken: list[str] = []
        self.planned_from: int | None = None

    def add(self, line: str) -> str:
        if not line.startswith("tag "):
            raise ValueError(f"not a tag line: {line.strip()!r}")
        self.taken.append(line.strip())
        return line

    def progress(self) -> str:
        return f"{len(self.taken)} tags"

    def plan_tags(self, first: int) -> int:
        self.planned_from = first
        return 2

    def tag_captions(self) -> list[tuple[int, str]]:
        return [(10, "red 1"), (11, "red 2")]

    def write_kit(self, folder: Path) -> Path:
        return folder


class Registration:
    def __init__(self) -> None:
        self.opened: list[tuple[Path, str, str]] = []
        self.registry = Registry()

    def open(self, path: Path, kit: str, name: str) -> Registry:
        self.opened.append((path, kit, name))
        return self.registry


def test_each_line_is_taken_or_refused_alone_and_progress_is_said():
    text = b"# my set\n\ntag 10 red-1\nbanana\ntag 11 red-2\n\xff\xfe\ntag 12 red-3\n"
    registry, refused, said = Registry(), [], []
    taken = register_entries(registry, io.BytesIO(text),
                             lambda n, why: refused.append((n, why)), said.append, every=2)
    assert taken == 3 and registry.taken == ["tag 10 red-1", "tag 11 red-2", "tag 12 red-3"]
    assert [n for n, _ in refused] == [4, 6]
    assert refused[0][1] == "not a tag line: 'banana'" and "not UTF-8" in refused[1][1]
    assert said == ["2 tags"]


@pytest.mark.parametrize(("name", "plain"), [
    ("club", True), ("club-2", True), ("", False), ("../club", False), ("a/b", False),
    (".hidden", False)])
def test_a_sets_name_is_a_plain_file_name(name, plain):
    assert plain_set_name(name) is plain


def test_a_set_lives_in_its_folder_as_name_json_and_its_kit_beside_it(tmp_path):
    registration = Registration()
    registry = open_set(registration, tmp_path, "club", "a_kit")
    assert registration.opened == [(tmp_path / "club.json", "a_kit", "club")]
    assert finish_set(registry, tmp_path, "club") == tmp_path / "club-kit"


def test_the_tag_sheet_plans_the_tags_from_first_and_captions_them(tmp_path):
    registration = Registration()
    rows, planned = set_tag_sheet(registration, tmp_path, "club", "a_kit", 40)
    assert rows == [(10, "red 1"), (11, "red 2")] and planned == 2
    assert registration.registry.planned_from == 40
