"""A leak checker built from each game's own statement of what it hides (`need_secrets()`, the
one the web leak sweeps use): whether a message, a response or a log says anything a role may
not see.

A game states its secrets as the texts that must appear nowhere: ids (`I-mori-3-1`, a daimyo
card) or JSON fragments (Shogun's `"battle_b":"kita_9"`: which card lies on which space). A
leak in words says the same thing another way ("battle b kita 9", "Mōri 3"), so each secret is
looked for as it is written and in words: its parts with the punctuation turned into spaces,
and each id as the game names it (`Rules.piece_name`), matched as whole words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.games import all_games

__all__ = ["Checker", "checker_for", "in_words"]

PUNCTUATION = re.compile(r"[\W_]+")
PAIR = re.compile(r'^"([^"]+)":\s*"([^"]+)"$')


def in_words(text: str) -> str:
    """`text` as words: lower case, every run of punctuation a space, padded with spaces (so a
    form matches whole words only: "red c" is not in "red camp")."""
    return " " + " ".join(PUNCTUATION.sub(" ", text.lower()).split()) + " "


def written(secret: str, text: str) -> bool:
    """Whether `text` has `secret` as written: an id as a whole id (`blue_c` is not in
    `blue_camp`), a JSON fragment anywhere."""
    if secret not in text:
        return False
    if not (secret[:1].isalnum() and secret[-1:].isalnum()):
        return True
    return re.search(rf"(?<![\w-]){re.escape(secret)}(?![\w-])", text) is not None


@dataclass(frozen=True)
class Form:
    """A secret as it could be written: `raw` as the game wrote it; `words`, each a tuple of
    phrases that together, in one text, say it ("red" and "minami 6": Red's bid)."""

    secret: str
    raw: str
    words: tuple[str, ...]

    def said_in(self, text: str) -> bool:
        """Whether one text (already `in_words`) says it."""
        return all(word in text for word in self.words)


def forms(secret: str) -> Form:
    """The ways `secret` could be written: as the game wrote it, and in words (a JSON pair's
    key and value each, in one text)."""
    pair = PAIR.match(secret)
    parts = [pair.group(1), pair.group(2)] if pair else [secret]
    return Form(secret, secret, tuple(in_words(part) for part in parts))


@dataclass
class Checker:
    """What `role` may not see in one game, checked against texts."""

    game: str
    role: str

    def secrets(self, rules: Any, state: Any) -> set[str]:
        return set(all_games()[self.game].need_secrets()(rules, state, self.role))

    def leaks(self, rules: Any, state: Any, raw: str, texts: Iterable[str]) -> list[str]:
        """The secrets of `state` that `raw` (a whole message or response, as sent) has as
        written, or any of `texts` (its strings, each on its own) says in words."""
        said = [in_words(text) for text in texts]
        everything = "|".join(said)
        found = []
        for secret in sorted(self.secrets(rules, state)):
            form = forms(secret)
            if written(form.raw, raw) or (form.said_in(everything)
                                          and any(form.said_in(text) for text in said)):
                found.append(secret)
        return found


def checker_for(game: str, role: str) -> Checker:
    return Checker(game, role)
