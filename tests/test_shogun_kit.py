"""Shogun's kit: the example board and components validated, every problem named with its
file, line and entry (`companion kit check`)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import cast

import pytest

from companion.games.shogun.kit import ShogunKit
from companion.kits import load_kit
from companion.kits.loader import shipped_folder
from companion.kits.problems import KitError


def test_the_example_kit_loads_and_says_it_is_not_the_printed_map() -> None:
    kit = cast(ShogunKit, load_kit("shogun"))
    assert kit.sample and "not the printed map" in kit.title
    assert len(kit.cards) == 53 and len(kit.events) == 12 and len(kit.regions) == 5
    for side in ("sun", "moon"):
        provinces = kit.sides[side].provinces
        assert len(provinces) == 45 and sum(p.unused_with_3 for p in provinces) == 8
        assert {p.region for p in provinces} == {r.id for r in kit.regions}
        assert all(sum(p.region == r.id for p in provinces) == 9 for r in kit.regions)
    assert any(link.kind == "sea" for link in kit.sides["sun"].links)


def test_sea_routes_count_as_adjacent() -> None:
    kit = cast(ShogunKit, load_kit("shogun"))
    sea = next(link for link in kit.sides["sun"].links if link.kind == "sea")
    assert sea.b in kit.neighbours("sun", sea.a)
    assert sea.b not in kit.neighbours("sun", sea.a, sea=False)


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    folder = tmp_path / "kit"
    shutil.copytree(shipped_folder("shogun"), folder)
    return folder


def problems(folder: Path) -> str:
    with pytest.raises(KitError) as caught:
        load_kit(folder)
    return str(caught.value)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_kit_check_names_an_unknown_region_and_a_bad_link(copy: Path) -> None:
    edit(copy / "board.yaml", "region: kita, spaces: 1", "region: kitaa, spaces: 1")
    edit(copy / "board.yaml", "{a: kita_1, b: kita_2, kind: land}",
         "{a: kita_1, b: kita_99, kind: land}")
    text = problems(copy)
    assert "board.yaml" in text and "unknown region 'kitaa'" in text
    assert "unknown location 'kita_99'" in text


def test_kit_check_names_a_missing_card_and_a_bad_count(copy: Path) -> None:
    edit(copy / "cards.yaml", "  - {id: kita_1, sides: [sun, moon]", "  - {id: kita_0, sides: "
                                                                      "[sun, moon]")
    text = problems(copy)
    assert "kita_0: no such province on the sun side" in text
    assert "kita_1: no province card for the sun side" in text


def test_kit_check_names_bad_events_and_components(copy: Path) -> None:
    edit(copy / "events.yaml", "{kind: yield, action: rice, delta: 1}", "{kind: yield, delta: 1}")
    edit(copy / "components.yaml", "tower: {capacity: 40", "tower: {capacity: 0")
    text = problems(copy)
    assert "good_harvest: a yield effect needs action" in text
    assert "components.yaml:" in text and "tower.capacity" in text


def test_kit_check_names_groups_that_do_not_fit(copy: Path) -> None:
    edit(copy / "components.yaml", "  5: [5, 4, 3, 3, 2, 2, 2]", "  5: [5, 4, 3, 3, 2, 2]")
    edit(copy / "components.yaml", "  3: [5, 4, 4, 3, 3, 3, 2, 2, 2]",
         "  3: [9, 9, 9, 9, 9, 9, 9, 2, 2]")
    text = problems(copy)
    assert "6 areas: the individual board uses 7 to 9" in text
    assert "67 armies in groups and 7 in the tower: more than 62" in text


def test_kit_check_names_a_wrong_number_of_marked_provinces(copy: Path) -> None:
    edit(copy / "board.yaml", ", unused_with_3: true}", "}")
    assert "7 provinces marked unused with 3 players on the sun side, not 8" in problems(copy)
