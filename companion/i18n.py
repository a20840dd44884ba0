"""Languages: English is written in the code, every other language comes from a message catalog.

The rulebooks the players hold are Italian (and German), so every screen can be read in
Italian. Catalogs are gettext `.po` files, read with Babel (no compile step, no `.mo` files in
the tree): the shell's own words in `companion/web/locales/<lang>/`, each game's words (its actions,
its rule summaries, its screen's labels) in `companion/games/<name>/locales/<lang>/`; every
`.po` file in a language's folder is read (one per part: `words.po`, `screen.po`, ...).
A message is its English text; a missing translation shows the English, never an empty
string or a key.

Pure: no Flask, nothing read until a language other than English is asked for.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from importlib import resources

__all__ = ["DEFAULT", "LANGUAGES", "Translate", "catalog", "language", "rule_summaries",
           "rule_summary", "translator"]

LANGUAGES: Mapping[str, str] = {"en": "English", "it": "Italiano"}
"""The languages a screen can be switched to, each named in itself."""
DEFAULT = "en"

Translate = Callable[[str], str]
"""English text -> the same text in the chosen language (the English where none is known)."""


def language(asked: str | None) -> str:
    """A language we have from what a device asked for (`it`, `it-IT`, `IT`), else English."""
    code = (asked or "").strip().lower().replace("_", "-").split("-", 1)[0]
    return code if code in LANGUAGES else DEFAULT


@functools.cache
def catalog(package: str, lang: str) -> Mapping[str, str]:
    """`package`'s catalog for `lang` (message -> translation); empty for English or when the
    package has none. A catalog that does not parse is an error naming the file and line."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return {}
    folder = resources.files(package).joinpath("locales", lang)
    if not folder.is_dir():
        return {}
    from babel.messages.pofile import read_po  # only when a translation is asked for

    found: dict[str, str] = {}
    for source in sorted((f for f in folder.iterdir() if f.name.endswith(".po")),
                         key=lambda f: f.name):
        with source.open("rb") as handle:
            try:
                parsed = read_po(handle, abort_invalid=True)
            except Exception as exc:  # babel's PoFileError, with the line
                raise ValueError(f"{package}/locales/{lang}/{source.name}: {exc}") from exc
        found.update({str(m.id): str(m.string) for m in parsed
                      if isinstance(m.id, str) and m.id and m.string})
    return found


def translator(lang: str, *packages: str) -> Translate:
    """Translate with the catalogs of `packages` (the first that knows a message wins)."""
    tables = [catalog(package, lang) for package in packages]

    def translate(text: str) -> str:
        for table in tables:
            found = table.get(text)
            if found:
                return found
        return text

    return translate


@functools.cache
def rule_summaries(package: str) -> Mapping[str, str]:
    """Rule number -> one line in the project's own words, in English, from a game's
    `data/rule_summaries.yaml` (empty when it has none)."""
    source = resources.files(package).joinpath("data", "rule_summaries.yaml")
    if not source.is_file():
        return {}
    import yaml  # only when a summary is asked for

    data = yaml.safe_load(source.read_text(encoding="utf-8")) or {}
    return {str(rule): str(line).strip() for rule, line in data.items()}


def rule_summary(package: str, rule: str, lang: str = DEFAULT) -> str:
    """Rule `rule` of the game in `package` in one line, in `lang`: a rule without a line of
    its own takes its section's ("7.3.1" -> "7.3" -> "7", "H2.3" -> "H2" -> "H"); "" when
    there is none."""
    known = rule_summaries(package)
    number = str(rule).strip()
    while number:
        if number in known:
            return translator(language(lang), package)(known[number])
        lettered = re.fullmatch(r"([A-Za-z]+)\d+", number)
        number = number.rpartition(".")[0] if "." in number else \
            lettered.group(1) if lettered else ""
    return ""
