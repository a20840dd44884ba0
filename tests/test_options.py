"""A game's options and a benchmark's settings as a person types them (`companion.options`):
read to the type the game declared, or refused with what was expected."""

from __future__ import annotations

import pytest

from companion.options import (
    SettingError,
    option_value,
    pairs,
    read_settings,
    setting_text,
    setting_value,
)

DEFAULTS = {"frames": 10, "size": (4056, 3040), "blur": 0.5, "label": "x", "dim": False,
            "extra": None}


def test_an_option_is_json_or_else_the_words_themselves():
    assert option_value("30") == 30
    assert option_value("true") is True
    assert option_value('"table"') == "table"
    assert option_value("table") == "table"
    assert option_value("[1, 2]") == [1, 2]


def test_pairs_read_each_value_and_refuse_an_item_without_equals():
    assert pairs(("turns=30", "knowledge=table", "note=a=b"), option_value) == {
        "turns": 30, "knowledge": "table", "note": "a=b"}
    with pytest.raises(SettingError, match=r"expected KEY=VALUE, got 'turns'") as refused:
        pairs(("turns",), str)
    assert refused.value.setting is None


def test_settings_take_their_defaults_type_in_either_spelling():
    args = ["--frames", "3", "--size=640x480", "--dim", "yes", "--blur", "1.5", "--label", "7",
            "--extra", "[1]"]
    assert read_settings(DEFAULTS, args, "the benchmark") == {
        "frames": 3, "size": (640, 480), "blur": 1.5, "label": "7", "dim": True, "extra": [1]}
    assert args == []
    assert read_settings(DEFAULTS, [], "the benchmark") == DEFAULTS


@pytest.mark.parametrize(("args", "message"), [
    (["frames"], r"unexpected 'frames': the benchmark takes --NAME VALUE \(settings: --frames,"),
    (["--fps", "3"], r"the benchmark has no setting --fps \(settings: --frames, --size"),
    (["--frames"], r"^--frames needs a value$"),
])
def test_words_that_are_no_setting_are_a_usage_error(args, message):
    with pytest.raises(SettingError, match=message) as refused:
        read_settings(DEFAULTS, args, "the benchmark")
    assert refused.value.setting is None


@pytest.mark.parametrize(("default", "text"), [
    (10, "ten"), ((1, 2), "640"), ((1, 2), "axb"), (False, "maybe"), (0.5, "half")])
def test_a_value_unlike_its_default_names_the_setting(default, text):
    with pytest.raises(SettingError, match=f"{text!r} is not like the default "
                       f"{setting_text(default)}") as refused:
        setting_value(default, text, "the-name")
    assert refused.value.setting == "the-name"


def test_no_settings_are_listed_as_none():
    with pytest.raises(SettingError, match=r"\(settings: none\)"):
        read_settings({}, ["--frames", "1"], "its benchmark")
    assert setting_text((4056, 3040)) == "4056x3040" and setting_text(3) == "3"
