"""Hubs of one particular game, for the tests about that game (the generic helpers in
`web_helpers.py` name no game: they ask each game's spec)."""

from __future__ import annotations

from pathlib import Path

from web_helpers import played_hub

from companion.record.session import Session
from companion.record.store import Store
from companion.web.hub import Hub

__all__ = ["sekigahara_hub", "skirmish_hub"]


def sekigahara_hub(tmp_path: Path, actions: int = 80, seed: int = 5) -> Hub:
    """A full-knowledge Sekigahara game played `actions` random actions into a real store."""
    return played_hub(tmp_path, "sekigahara", actions=actions, seed=seed, settle=False)


def skirmish_hub(tmp_path: Path) -> Hub:
    return Hub(Session.start(Store(tmp_path / "games.sqlite"), "skirmish",
                             players={"red": "Ana", "blue": "Ben"}))
