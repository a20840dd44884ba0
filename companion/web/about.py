"""What a screen needs to know about the game it shows: its name, title, roles and screen.

The page shell names no game and no role: it learns them here, from the game's rules and its
package's spec, through every view it receives. The roles drive the pairing buttons and tell a
player's phone apart from the shared tablet; the screen is the game's own JavaScript module,
drawn inside the shell (or, when a game has none yet, a sentence saying so).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

from companion.games import MissingCapability, UnknownGameName, game

__all__ = ["GameAbout", "describe", "screen_url"]


class GameAbout(TypedDict):
    """The game as every screen's message carries it (`view["game"]`)."""

    name: str
    title: str
    roles: list[str]
    """The players' roles, in the rules' order: who may pair a phone, whose view is "mine"."""
    players: dict[str, str]
    """Role -> the person playing it, as the record's header names them (may be empty)."""
    screen: str | None
    """Where the game's screen module is served, or None when it has none."""
    missing: str | None
    """Why there is no screen, in a sentence the tablet shows ("Skirmish has no tablet screen
    yet"), or None."""


def screen_url(name: str) -> str:
    """The route serving a game's screen module (`companion.web.screens`)."""
    return f"/games/{name}/screen.js"


def describe(rules: Any, players: Mapping[str, str] | None = None) -> GameAbout:
    """The game behind `rules` (an engine `Rules`), as the shell needs it.

    A game whose package offers no screen, or whose rules have no package at all (a game
    registered only with the engine), still gets its roles: the shared panels work for it.
    """
    name, title = rules.game_type.name, rules.game_type.title
    screen: str | None = None
    missing: str | None = None
    try:
        game(name).need_screen()
        screen = screen_url(name)
    except (MissingCapability, UnknownGameName) as exc:
        missing = str(exc)
    return GameAbout(name=name, title=title, roles=list(rules.roles),
                     players=dict(players or {}), screen=screen, missing=missing)
