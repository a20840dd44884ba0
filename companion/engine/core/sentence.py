"""Sentences the rules say to players, kept so that a screen can say them again in its language.

A refusal ("Ukita 2 is not at Gifu: it stands at Osaka") is composed where the rule is checked,
in English, from a template and the values put into it. A `Sentence` is that English text (it
is a `str`, so every caller, log and test reads it as before) that also remembers its template
and values: a screen in Italian looks the template up in the game's message catalog (the
template is the catalog's msgid, `"{block} is not at {place}: it stands {where}"`) and puts the
same values in. Values that are themselves sentences ("at Osaka", "in the reserve") are said
again too; plain strings are names (a block, a place, a clan) and stay as they are.

Pure: no catalog is read here; the caller passes its `translate` (`companion.i18n.translator`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["Sentence", "from_data", "say", "to_data"]

Translate = Callable[[str], str]


class Sentence(str):
    """English text made from `template` and `values`, which can be said in another language.

    `Sentence("{block} has already moved this phase", block="Ukita 2")` is the string
    "Ukita 2 has already moved this phase"; `say(translate)` is the same in `translate`'s
    language. A sentence without values is a word or phrase to translate as it is.
    """

    template: str
    values: Mapping[str, Any]

    def __new__(cls, template: str, /, **values: Any) -> Sentence:
        made = super().__new__(cls, template.format(**values) if values else template)
        made.template = template
        made.values = values
        return made

    def __getnewargs__(self) -> tuple[str]:
        """Copied or pickled, a sentence keeps its template (restored from `__dict__`)."""
        return (str(self),)

    def say(self, translate: Translate) -> str:
        """The sentence in `translate`'s language; the English where the catalog lacks it or
        its translation names a value the sentence does not have (a catalog typo must not
        lose the message)."""
        shown = {name: say(value, translate) if isinstance(value, Sentence) else value
                 for name, value in self.values.items()}
        translated = translate(self.template)
        for template in (translated, self.template):
            try:
                return template.format(**shown) if shown else template
            except (KeyError, IndexError, ValueError, AttributeError, TypeError):
                continue  # a field the values lack, or `{a.b}`, `{a[0]}` they cannot give
        return str(self)


def say(text: str, translate: Translate) -> str:
    """Any text the rules produced, in `translate`'s language: a `Sentence` from its template,
    a plain string as a whole message (constant messages are their own msgid)."""
    if isinstance(text, Sentence):
        return text.say(translate)
    return translate(text)


def to_data(text: str) -> Any:
    """A text as JSON-ready data that `from_data` makes the same again: a sentence keeps its
    template and values (so a question kept over a restart is still said in each language)."""
    if not isinstance(text, Sentence):
        return str(text)
    return {"template": text.template,
            "values": {name: to_data(value) if isinstance(value, str) else value
                       for name, value in text.values.items()}}


def from_data(data: Any) -> str:
    """The text `to_data` kept; anything malformed is said as plain text, never an error (a
    kept question must not stop a server from starting)."""
    if not isinstance(data, dict):
        return str(data)
    values = data.get("values")
    if not isinstance(data.get("template"), str) or not isinstance(values, dict):
        return str(data.get("template", ""))
    made = {str(name): from_data(value) if isinstance(value, dict | str) else value
            for name, value in values.items()}
    try:
        return Sentence(data["template"], **made)
    except (KeyError, IndexError, ValueError, AttributeError, TypeError):
        return str(data["template"])
