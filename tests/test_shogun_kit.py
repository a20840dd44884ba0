"""Shogun's kit: the transcribed printed side (the default) and the example board and
components validated, every problem named with its file, line and entry (`companion kit
check`), the transcribed side marked as such wherever the kit is summed up."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import cast

import pytest
from click.testing import CliRunner

from companion.cli import main
from companion.games.shogun.kit import ShogunKit
from companion.kits import load_kit
from companion.kits.loader import shipped_folder
from companion.kits.problems import KitError


def test_the_default_side_is_the_transcribed_printed_side_marked_to_check() -> None:
    """45 named provinces in 5 regions, 8 left out with 3 players, the one link the source
    lists from one side only kept and marked doubtful; the board every screen gets first."""
    kit = cast(ShogunKit, load_kit("shogun"))
    side = kit.sides["transcribed"]
    assert next(iter(kit.sides)) == "transcribed" and kit.locations == side.provinces
    assert side.source == "transcribed" and "check it against your box" in side.note
    names = [p.name for p in side.provinces]
    assert names[:2] == ["Mutsu", "Echigo"] and len(names) == 45 and len(side.links) == 98
    assert [p.name for p in side.provinces if p.unused_with_3] == [
        "Mutsu", "Echigo", "Awa-Boso", "Kazusa", "Sanuki", "Tosa", "Izumo", "Iwami"]
    assert [(link.a, link.b) for link in side.doubtful] == [("kai", "mikawa")]
    assert "mikawa" in kit.neighbours("transcribed", "kai")  # kept: doubtful, not dropped
    assert (kit.card["mutsu"].taxes, kit.card["mutsu"].rice) == (4, 3)
    assert kit.card["mutsu"].sides == ("transcribed",)
    assert [e.rice_loss for e in kit.events] == [5, 7, 3, 2, 6, 3, 0, 2, 4, 3, 4, 1]


def test_kit_check_says_the_default_side_is_transcribed_and_names_the_doubtful_link() -> None:
    result = CliRunner().invoke(main, ["kit", "check", "shogun"])
    assert result.exit_code == 0, result.output
    assert "transcribed side (default)" in result.output
    assert "transcribed from one public source: check it against your box" in result.output
    assert "doubtful link Kai-Mikawa" in result.output
    assert "Mutsu, Echigo, Awa-Boso, Kazusa, Sanuki, Tosa, Izumo, Iwami" in result.output
    assert result.output.count("the project's example, not the printed board") == 2


def test_the_example_sides_stay_and_say_they_are_not_the_printed_map() -> None:
    kit = cast(ShogunKit, load_kit("shogun"))
    assert kit.sample and "to check against your box" in kit.title
    example = [c for c in kit.cards if set(c.sides) & {"sun", "moon"}]
    assert len(example) == 53 and len(kit.events) == 12 and len(kit.regions) == 10
    for side in ("sun", "moon"):
        provinces = kit.sides[side].provinces
        assert kit.sides[side].source == "example"
        assert len(provinces) == 45 and sum(p.unused_with_3 for p in provinces) == 8
        regions = {p.region for p in provinces}
        assert len(regions) == 5 and regions <= {r.id for r in kit.regions}
        assert all(sum(p.region == r for p in provinces) == 9 for r in regions)
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
    edit(copy / "events.yaml", "{kind: yield_max, action: taxes, delta: 5}",
         "{kind: yield_max, delta: 5}")
    edit(copy / "components.yaml", "tower: {capacity: 40", "tower: {capacity: 0")
    text = problems(copy)
    assert "event_7: a yield_max effect needs action" in text
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
    assert "7 provinces marked unused with 3 players on the transcribed side, not 8" in \
        problems(copy)
