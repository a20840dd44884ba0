"""Referee corrections, and which steps may not be undone.

A correction says the table differs from the record ("this block is really in Kiso"); it is an
action of the `referee` role, recorded with its author and reason, never an edit of the past.
"""

from __future__ import annotations

from companion.engine.core import Action, Event, IllegalAction, Sentence, refuse_unknown_args
from companion.games.sekigahara.rules.context import Batch, Context
from companion.games.sekigahara.rules.locations import update_control
from companion.games.sekigahara.rules.state import BAG, ELIMINATED, SekigaharaState

__all__ = ["REVEALING", "correct"]

REVEALING = frozenset({
    "BidsRevealed", "BlockDeployed", "LoyaltyChallenged", "LoyaltyProven", "BlocksDefected",
    "CasualtiesTaken", "Overrun", "LeaderDeclared", "BlocksRecruited", "CardsDrawn",
    "BlocksDrawn", "MoriArrived", "BlockCorrected",
})
"""Events that draw at random or show hidden information: no undo reaches back past them."""


def correct(ctx: Context, state: SekigaharaState, action: Action) -> list[Event]:
    if action.verb != "correct":
        raise IllegalAction("referee", Sentence("the referee corrects with 'correct', not "
                                                "'{verb}'", verb=action.verb))
    refuse_unknown_args(action.args, ("block", "to"), "referee", Sentence("a correction"))
    block, to = str(action.args.get("block")), action.args.get("to")
    places = {*ctx.kit.location, *(b.id for b in ctx.kit.boxes), BAG, ELIMINATED}
    if block not in ctx.kit.block:
        raise IllegalAction("referee", Sentence("no block {block!r} in this kit", block=block))
    if to not in places:
        raise IllegalAction("referee", Sentence(
            "a block can stand at a location, a box, '{bag}' or '{eliminated}', not {place!r}",
            bag=BAG, eliminated=ELIMINATED, place=to))
    batch = Batch(state)
    before = state.positions[block]
    batch.emit("BlockCorrected", block=block, side=ctx.owner[block], **{"from": before},
               to=str(to), rule="referee")
    spots = [p for p in (before, str(to)) if ctx.is_location(p)]
    update_control(ctx, batch, None, [], spots)
    return batch.events
