"""3.3 Cards: what the engine knows of each side's hand, draw pile and discards.

Full-knowledge mode knows every card in each hand: draws are chance actions naming the cards.
Table mode knows only how many cards a hand holds; a card played at the table is accepted when
it is consistent with what the engine knows (one of that side's cards, and not in the discard
pile), and draws are counted, not named. Discarded and played cards are public when played,
but nobody may look through a discard pile later, so views show only its size.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from companion.engine.core import IllegalAction, Sentence
from companion.games.sekigahara.rules.context import Batch, Context
from companion.games.sekigahara.rules.names import card_name, card_names, card_said, side_name
from companion.games.sekigahara.rules.state import Hand, Pending, SekigaharaState

__all__ = [
    "card_list", "check_in_hand", "deal", "discard", "draw", "draw_pile", "sample_deal",
]


def draw_pile(ctx: Context, state: SekigaharaState, side: str) -> int:
    """How many cards lie in the side's draw pile."""
    hand = state.hands[side]
    return len(ctx.deck[side]) - hand.count - len(hand.discard)


def card_list(value: Any, rule: str) -> list[str]:
    """The `cards` argument of an action as a list of card ids, or IllegalAction."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if not isinstance(value, Sequence) or not all(isinstance(c, str) for c in value):
        raise IllegalAction(rule, Sentence("name the cards one by one"))
    return list(value)


def check_in_hand(ctx: Context, state: SekigaharaState, side: str, cards: Sequence[str],
                  rule: str) -> None:
    """Raise IllegalAction unless `side` can hold all of `cards` in its hand now."""
    if len(set(cards)) != len(cards):
        named = card_names(ctx.kit, cards)
        raise IllegalAction(rule, Sentence("the same card is named twice: {cards}", cards=named))
    hand = state.hands[side]
    for card in cards:
        if ctx.card_side.get(card) != side:
            raise IllegalAction(rule, Sentence("{card} is not one of the {side} cards (3.3)",
                                               card=card_said(ctx.kit, card),
                                               side=side_name(side)))
        if hand.cards is not None and card not in hand.cards:
            raise IllegalAction(rule, Sentence("{card} is not in the {side} hand",
                                               card=card_name(ctx.kit, card),
                                               side=side_name(side)))
        if card in hand.discard:
            raise IllegalAction(rule, Sentence(
                "{card} was already played and lies on the discard pile",
                card=card_name(ctx.kit, card)))
    if len(cards) > hand.count:
        raise IllegalAction(rule, Sentence("{side} holds {held} card(s), not {count}",
                                           side=side_name(side),
                                           held=hand.count, count=len(cards)))


def discard(batch: Batch, side: str, cards: Sequence[str], reason: str, rule: str) -> None:
    if cards:
        batch.emit("CardsDiscarded", side=side, cards=list(cards), reason=reason, rule=rule)


def draw(ctx: Context, batch: Batch, side: str, count: int, reason: str) -> None:
    """Draw `count` cards: counted at once in table mode, dealt by chance in full mode."""
    if count <= 0:
        return
    if ctx.knowledge == "full":
        batch.emit("DrawsDue", draws=[Pending("cards", side, count, reason=reason).to_json()])
        return
    in_pile = draw_pile(ctx, batch.state, side)
    if in_pile < count and batch.state.hands[side].discard:
        first = in_pile
        if first:
            batch.emit("CardsDrawn", side=side, count=first, reason=reason)
        batch.emit("DiscardReshuffled", side=side, rule="3.3")
        count -= first
    count = min(count, draw_pile(ctx, batch.state, side))
    if count:
        batch.emit("CardsDrawn", side=side, count=count, reason=reason)


def deal(ctx: Context, state: SekigaharaState, batch: Batch, side: str, cards: list[str],
         pending: Pending) -> None:
    """Full mode: chance deals `cards` for a pending draw, reshuffling when the pile runs out."""
    hand: Hand = state.hands[side]
    assert hand.cards is not None
    pile = ctx.deck[side] - hand.cards - hand.discard
    want = min(pending.count, len(pile) + len(hand.discard))
    if len(cards) != want or len(set(cards)) != len(cards):
        raise IllegalAction("3.3", Sentence("{side} must draw {count} different card(s), not "
                                            "{given}", side=side, count=want, given=len(cards)))
    from_pile = [c for c in cards if c in pile]
    rest = [c for c in cards if c not in pile]
    if len(pile) >= want and rest:
        named = ", ".join(rest)
        raise IllegalAction("3.3", Sentence("{cards} not in the {side} draw pile", cards=named,
                                            side=side))
    if rest and not (set(rest) <= hand.discard and len(from_pile) == len(pile)):
        raise IllegalAction("3.3", "the discards are reshuffled only when the draw pile is empty")
    if from_pile:
        batch.emit("CardsDrawn", side=side, count=len(from_pile), cards=from_pile,
                   reason=pending.reason)
    if rest:
        batch.emit("DiscardReshuffled", side=side, rule="3.3")
        batch.emit("CardsDrawn", side=side, count=len(rest), cards=rest, reason=pending.reason)
    if not cards:  # an empty deck: the draw is over all the same
        batch.emit("CardsDrawn", side=side, count=0, cards=[], reason=pending.reason)


def sample_deal(ctx: Context, state: SekigaharaState, pending: Pending,
                rng: random.Random) -> dict[str, Any]:
    """The arguments of a random deal for `pending` (the simulator's chance)."""
    hand = state.hands[pending.side]
    assert hand.cards is not None
    pile = sorted(ctx.deck[pending.side] - hand.cards - hand.discard)
    if len(pile) >= pending.count:
        return {"side": pending.side, "cards": rng.sample(pile, pending.count)}
    rest = rng.sample(sorted(hand.discard), min(pending.count - len(pile), len(hand.discard)))
    return {"side": pending.side, "cards": pile + rest}

