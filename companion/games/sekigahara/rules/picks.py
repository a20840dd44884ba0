"""Sekigahara's chance steps entered by hand (the tablet alone, no camera): the blocks drawn from
a bag (5.2.2, 5.2.3, 6.2) and the cards drawn from a deck (3.3), each offered from what the bag
or the deck holds now, by name. Only the referee's screen shows them: a bag's contents are
hidden from both players."""

from __future__ import annotations

from companion.engine.core import Pick, PickField
from companion.games.sekigahara.rules.context import Context
from companion.games.sekigahara.rules.names import (
    block_name,
    card_name,
    count_blocks,
    count_cards,
    place_name,
    side_name,
)
from companion.games.sekigahara.rules.state import BAG, Pending, SekigaharaState
from companion.i18n import Translate, translator

__all__ = ["picks"]


def picks(ctx: Context, state: SekigaharaState, lang: str = "en") -> list[Pick]:
    """The draws due now, first the one the rules resolve first."""
    t = translator(lang, "companion.games.sekigahara")
    found = []
    for pending in state.pending:
        if pending.kind == "blocks":
            found.append(_blocks(ctx, state, pending, t))
        elif state.hands[pending.side].cards is not None:  # full knowledge: cards are named
            found.append(_cards(ctx, state, pending, t))
    return found


def _blocks(ctx: Context, state: SekigaharaState, pending: Pending, t: Translate) -> Pick:
    bag = sorted(state.blocks_at(BAG, pending.side, ctx.owner),
                 key=lambda b: block_name(ctx.kit, b, t))
    count = min(pending.count, len(bag))
    title = t("{side} draws {blocks} for {place}").format(
        side=side_name(pending.side), blocks=count_blocks(count, t),
        place=place_name(ctx.kit, str(pending.to), t, side=pending.side))
    return Pick("draw_blocks", title, (PickField(
        "blocks", t("Blocks drawn"), tuple((b, block_name(ctx.kit, b, t)) for b in bag),
        count=count),), {"side": pending.side, "to": pending.to})


def _cards(ctx: Context, state: SekigaharaState, pending: Pending, t: Translate) -> Pick:
    hand = state.hands[pending.side]
    assert hand.cards is not None
    left = sorted(ctx.deck[pending.side] - hand.cards - hand.discard)
    if len(left) < pending.count:  # the discards are reshuffled into the deck (3.3)
        left += sorted(hand.discard)
    count = min(pending.count, len(left))
    title = t("{side} draws {cards}").format(side=side_name(pending.side),
                                             cards=count_cards(count, t))
    return Pick("deal", title, (PickField(
        "cards", t("Cards drawn"), tuple((c, card_name(ctx.kit, c, t)) for c in
                                         sorted(left, key=lambda c: card_name(ctx.kit, c))),
        count=count),), {"side": pending.side})
