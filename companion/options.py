"""What a person types for a game's options and a benchmark's settings, read as values.

A game option is `KEY=VALUE` (`--option turns=30`, `--option knowledge=table`): the value is
JSON when it reads as JSON, else the words themselves, so that nobody has to quote a word. A
benchmark's settings are `--NAME VALUE` words after its own options (`--frames 10 --size
4056x3040`), each read as the type of the setting's default, so that a game declares its
settings once, as defaults, and every command line and script gets them checked.

Nothing here prints or exits: a text that cannot be read raises `SettingError` (a ValueError)
saying what was expected; the command line turns it into its usage error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["SettingError", "option_value", "pairs", "read_settings", "setting_text",
           "setting_value"]


class SettingError(ValueError):
    """A setting or option that cannot be read. `setting` is the `--name` it was given as,
    when the problem is its value (None: the words themselves are wrong)."""

    def __init__(self, message: str, setting: str | None = None) -> None:
        super().__init__(message)
        self.setting = setting


def option_value(text: str) -> Any:
    """A game option's value: JSON (`30`, `"table"`, `true`), or else the text itself, so
    that `--option knowledge=table` means what it says."""
    import json

    try:
        return json.loads(text)
    except ValueError:
        return text


def pairs(items: tuple[str, ...] | list[str], parse: Callable[[str], Any]) -> dict[str, Any]:
    """`KEY=VALUE` items as a dict, each value read by `parse`; SettingError for an item
    without `=`."""
    result = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise SettingError(f"expected KEY=VALUE, got {item!r}")
        result[key] = parse(value)
    return result


def read_settings(defaults: dict[str, Any], args: list[str], whose: str) -> dict[str, Any]:
    """A benchmark's settings: its defaults, with each `--name value` (or `--name=value`)
    in `args` converted to its default's type. SettingError for a word that is not a
    setting, a setting the benchmark lacks, a setting without a value (`setting` None), or a
    value unlike its default (`setting` its name). `args` is consumed."""
    settings = dict(defaults)
    known = ", ".join(f"--{n.replace('_', '-')}" for n in defaults) or "none"
    while args:
        word = args.pop(0)
        if not word.startswith("--"):
            raise SettingError(f"unexpected {word!r}: {whose} takes --NAME VALUE "
                               f"(settings: {known})")
        name, has_value, value = word[2:].partition("=")
        key = name.replace("-", "_")
        if key not in defaults:
            raise SettingError(f"{whose} has no setting --{name} (settings: {known})")
        if not has_value:
            if not args:
                raise SettingError(f"--{name} needs a value")
            value = args.pop(0)
        settings[key] = setting_value(defaults[key], value, name)
    return settings


def setting_value(default: Any, text: str, name: str) -> Any:
    """`text` read as the type of the setting's default (a size `4056x3040` for a pair);
    SettingError naming `--name` when it is not like the default."""
    try:
        if isinstance(default, bool):
            if text.lower() not in ("true", "false", "yes", "no", "1", "0"):
                raise ValueError(text)
            return text.lower() in ("true", "yes", "1")
        if isinstance(default, int | float):
            return type(default)(text)
        if isinstance(default, tuple | list) and default:
            parts = text.replace("x", ",").split(",")
            if len(parts) != len(default):
                raise ValueError(text)
            return type(default)(type(d)(p) for d, p in zip(default, parts, strict=True))
        return text if isinstance(default, str) else option_value(text)
    except ValueError:
        raise SettingError(f"{text!r} is not like the default {setting_text(default)}",
                           name) from None


def setting_text(value: Any) -> str:
    """A setting's value as it is typed (`4056x3040` for a pair)."""
    if isinstance(value, tuple | list):
        return "x".join(str(v) for v in value)
    return str(value)
