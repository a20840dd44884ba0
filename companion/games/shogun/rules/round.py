"""Spring, summer and autumn (rules 3.1-3.5): the action and special cards laid out, each
player's secret plan and bid, the round's event, the bids revealed and paid, the special cards
taken in bid order (ties by drawing daimyo cards), the turn order."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.engine.core import Action, IllegalAction, Sentence, refuse_unknown_args
from companion.games.shogun.kit import ACTIONS
from companion.games.shogun.rules.context import (
    CHESTS,
    SPECIALS,
    Batch,
    chest_value,
    special_said,
)
from companion.games.shogun.rules.state import ShogunState

__all__ = [
    "bid_rank",
    "check_plan",
    "decide_daimyo",
    "decide_event",
    "decide_lay_out",
    "decide_plan",
    "decide_take",
    "decide_turn_card",
    "hand",
    "random_plan",
    "reveal_bids",
]


def decide_lay_out(b: Batch, action: Action) -> None:
    """3.1-3.2: 5 action cards face up in order (the other 5 face down), the 5 special cards
    in drawn order."""
    refuse_unknown_args(action.args, ("actions", "specials"), "3.1", "lay_out")
    cards, specials = action.args.get("actions"), action.args.get("specials")
    if not isinstance(cards, tuple | list) or len(cards) != 5 or len(set(cards)) != 5 or \
            not set(cards) <= set(ACTIONS):
        raise IllegalAction("3.1", "5 different action cards are turned face up")
    if not isinstance(specials, tuple | list) or sorted(specials) != sorted(SPECIALS):
        raise IllegalAction("3.2", "the 5 special cards are laid out, each once")
    b.emit("CardsLaidOut", actions=list(cards), specials=list(specials))


def decide_turn_card(b: Batch, action: Action) -> None:
    """3.6: once every player has carried out an action, the next face-down card is turned."""
    refuse_unknown_args(action.args, ("card",), "3.6", "turn_card")
    card = action.args.get("card")
    if card not in ACTIONS or card in b.state.row:
        raise IllegalAction("3.6", Sentence("{card} is not a face-down action card",
                                            card=str(card)))
    b.emit("ActionCardTurned", card=card)


def hand(state: ShogunState, player: str) -> list[str]:
    """The cards a player plans with (3.3): its provinces and its war-chest cards."""
    return [*state.provinces_of(player), *CHESTS]


def said_card(names: Mapping[str, str], card: object) -> str | Sentence:
    """A card as a refusal names it to a player: a province by its printed name (`names`), a
    war-chest card by its chests; anything else (no card of the game) quoted as typed."""
    text = str(card)
    chests = chest_value(text)
    if chests is not None:
        return Sentence("1 chest card") if chests == 1 else Sentence("{chests} chests card",
                                                                     chests=chests)
    return names.get(text) or Sentence("that card")


def check_plan(state: ShogunState, player: str, spaces: Any, bid: Any,
               names: Mapping[str, str] | None = None) -> dict[str, str]:
    """3.3: a card of the player's on each action space and the auction space, each card once,
    as many spaces filled as the cards allow; a war-chest bid the player can pay."""
    if not isinstance(spaces, Mapping):
        raise IllegalAction("3.3", "a plan puts a card on each action space")
    cards = set(hand(state, player))
    unknown = sorted(set(spaces) - set(ACTIONS))
    if unknown:
        raise IllegalAction("3.3", Sentence("a card lies on a space that is not an action "
                                            "space"))
    used = [*spaces.values(), *([bid] if bid is not None else [])]
    for card in used:
        if not isinstance(card, str) or card not in cards:
            raise IllegalAction("3.3", Sentence("{card} is not one of your cards",
                                                card=said_card(names or {}, card)))
    if len(set(used)) != len(used):
        raise IllegalAction("3.3", "no card may be on two spaces")
    if len(used) != min(11, len(cards)):
        raise IllegalAction("3.3", Sentence("{count} of the 11 spaces must hold a card",
                                            count=min(11, len(cards))))
    value = chest_value(str(bid)) if bid is not None else None
    if value is not None and value > state.chests[player]:
        raise IllegalAction("3.3", Sentence("a bid of {chests} chests is more than you have",
                                            chests=value))
    return {str(k): str(v) for k, v in spaces.items()}


def decide_plan(b: Batch, action: Action) -> None:
    """3.3: the secret plan and bid (all players at once, each once a round)."""
    refuse_unknown_args(action.args, ("spaces", "bid"), "3.3", "plan")
    if action.role in b.state.plans:
        raise IllegalAction("3.3", "you have already planned this round")
    names = {pid: p.name for pid, p in b.kit.provinces(b.state.side).items()}
    spaces = check_plan(b.state, action.role, action.args.get("spaces"), action.args.get("bid"),
                        names)
    bid = action.args.get("bid")
    b.emit("PlanMade", player=action.role, spaces=spaces,
           bid=None if bid is None else str(bid))


def random_plan(state: ShogunState, player: str, rng: random.Random) -> Action:
    """A plan drawn at random (the simulator's player, and the sample `legal_actions` offers):
    a bid the player can pay, province cards first on the action spaces."""
    provinces = state.provinces_of(player)
    rng.shuffle(provinces)
    chests = list(CHESTS)
    rng.shuffle(chests)
    payable = [c for c in CHESTS if (chest_value(c) or 0) <= state.chests[player]]
    bid = rng.choice(provinces + payable)
    rest = [c for c in provinces + chests if c != bid]
    spaces = list(ACTIONS)
    rng.shuffle(spaces)
    plan = dict(zip(spaces, rest, strict=False))
    return Action(player, "plan", {"spaces": plan, "bid": bid})


def decide_event(b: Batch, action: Action) -> None:
    """3.4: one of the face-up event cards drawn for this round."""
    refuse_unknown_args(action.args, ("card",), "3.4", "event")
    card = action.args.get("card")
    if card not in b.state.events_up:
        raise IllegalAction("3.4", Sentence("{card} is not a face-up event card",
                                            card=str(card)))
    b.emit("EventDrawn", card=card)


def bid_rank(bid: str | None) -> tuple[int, int]:
    """3.5: chests high to low, then province cards, then 0 chests, then no bid."""
    if bid is None:
        return (3, 0)
    value = chest_value(bid)
    if value is None:
        return (1, 0)
    return (0, -value) if value > 0 else (2, 0)


def reveal_bids(b: Batch) -> None:
    """3.5: the bids turned up and paid (a province card pays nothing); the choosing order,
    with the groups of equal bids still to be drawn."""
    state = b.state
    bids = {p: state.bids.get(p) for p in state.players}
    paid = {p: chest_value(c) or 0 for p, c in bids.items() if c is not None}
    groups: dict[tuple[int, int], list[str]] = {}
    for p in state.players:
        groups.setdefault(bid_rank(bids[p]), []).append(p)
    choosing = [p for rank in sorted(groups) for p in groups[rank]]
    ties = [groups[rank] for rank in sorted(groups) if len(groups[rank]) > 1]
    b.emit("BidsRevealed", bids=bids, paid={p: n for p, n in paid.items() if n},
           choosing=choosing, ties=ties)


def decide_daimyo(b: Batch, action: Action) -> None:
    """3.5: tied bidders shuffle their daimyo cards and turn them one at a time."""
    refuse_unknown_args(action.args, ("order",), "3.5", "daimyo")
    group = b.state.ties[0]
    order = action.args.get("order")
    if not isinstance(order, tuple | list) or sorted(map(str, order)) != sorted(group) or \
            len(order) != len(group):
        raise IllegalAction("3.5", "the tied players' daimyo cards are turned, each once")
    b.emit("DaimyoCardsDrawn", order=[str(p) for p in order])


def decide_take(b: Batch, action: Action) -> None:
    """3.5: a special card taken, in bid order; its space is the turn order."""
    refuse_unknown_args(action.args, ("card",), "3.5", "take")
    card = action.args.get("card")
    if card not in b.state.specials:
        raise IllegalAction("3.5", Sentence("that card is not a special card"))
    space = b.state.specials.index(card)
    if space in b.state.taken.values():
        raise IllegalAction("3.5", Sentence("{card} is already taken", card=special_said(card)))
    b.emit("SpecialCardTaken", player=action.role, card=card, space=space)
