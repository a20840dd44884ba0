"""2 Victory: instant victories (2.1) and victory points at the end of week 7 (2.2)."""

from __future__ import annotations

from collections.abc import Iterable

from companion.engine.core import Sentence
from companion.games.sekigahara.kit import SIDES
from companion.games.sekigahara.rules.context import Batch, Context
from companion.games.sekigahara.rules.locations import count_control

__all__ = ["HIDEYORI", "check_instant_victory", "end_of_game", "victory_points"]

HIDEYORI = "toyotomi_hideyori"


def check_instant_victory(ctx: Context, batch: Batch, eliminated: Iterable[str],
                          disks: Iterable[str] = ()) -> None:
    """2.1: Ishida Mitsunari killed or Hideyori captured wins for Tokugawa; Tokugawa Ieyasu
    killed wins for Ishida; both at once (in one battle), Ishida wins."""
    gone = set(eliminated)
    tokugawa_wins = ctx.commanders["ishida"] in gone or HIDEYORI in set(disks)
    ishida_wins = ctx.commanders["tokugawa"] in gone
    if ishida_wins:
        why = Sentence("Tokugawa Ieyasu was killed (both commanders fell together: Ishida "
                       "wins)") if tokugawa_wins else Sentence("Tokugawa Ieyasu was killed")
        batch.emit("GameEnded", winner="ishida", termination=why, rule="2.1")
    elif tokugawa_wins:
        why = (Sentence("Ishida Mitsunari was killed") if ctx.commanders["ishida"] in gone
               else Sentence("Toyotomi Hideyori was captured"))
        batch.emit("GameEnded", winner="tokugawa", termination=why, rule="2.1")


def victory_points(ctx: Context, batch: Batch) -> dict[str, int]:
    """2.2: two points per castle, one per resource location."""
    castles = count_control(ctx, batch.state, "castles")
    resources = count_control(ctx, batch.state, "resources")
    return {side: 2 * castles[side] + resources[side] for side in SIDES}


def end_of_game(ctx: Context, batch: Batch) -> None:
    """2.2: after week 7, the most victory points wins; a tie goes to Ishida."""
    points = victory_points(ctx, batch)
    batch.emit("VictoryPointsCounted", points=points, rule="2.2")
    winner = "tokugawa" if points["tokugawa"] > points["ishida"] else "ishida"
    template = ("week {weeks} is over: {ishida} to {tokugawa} victory points (a tie goes to "
                "Ishida)") if points["tokugawa"] == points["ishida"] else \
        "week {weeks} is over: {ishida} to {tokugawa} victory points"
    batch.emit("GameEnded", winner=winner, rule="2.2",
               termination=Sentence(template, weeks=ctx.kit.tracks.weeks,
                                    ishida=points["ishida"], tokugawa=points["tokugawa"]))
