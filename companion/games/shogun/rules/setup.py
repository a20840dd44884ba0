"""Set-up (Imposta, rules 2-2.4): the side's province cards (without the 8 marked ones with 3
players), 62 armies and the starting chests, claiming the starting provinces, loading the tower,
the first four event cards."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.core import Action, IllegalAction, Sentence, refuse_unknown_args
from companion.games.shogun.kit import ShogunKit
from companion.games.shogun.rules.context import Batch, province_said, usable
from companion.games.shogun.rules.state import FARMERS, ShogunState, frozen

__all__ = ["claimer", "decide_claim", "decide_deal", "decide_draw", "decide_drawn", "decide_events",
           "decide_place", "decide_reveal", "end_claims", "initial"]


def initial(kit: ShogunKit, players: tuple[str, ...], side: str) -> ShogunState:
    """2.1: 62 armies on the individual board, the starting chests (18/15/12), rice and
    victory points at 0; the province deck shuffled (a set: the order is chance's)."""
    n = len(players)
    c = kit.components
    deck = frozenset(usable(kit, side, n)) & frozenset(
        card.id for card in kit.cards if side in card.sides)
    return ShogunState(
        players=players, side=side, deck=deck,
        groups=frozen({p: tuple(c.groups[n]) for p in players}),
        reserve=frozen({p: c.armies - sum(c.groups[n]) for p in players}),
        chests=frozen(dict.fromkeys(players, c.chests[n])),
        rice=frozen(dict.fromkeys(players, 0)), vp=frozen(dict.fromkeys(players, 0)),
        farmers=c.farmers, events_deck=frozenset(e.id for e in kit.events))


def _cards(args: Mapping[str, Any], key: str, count: int, pool: frozenset[str] | tuple[str, ...],
           rule: str) -> list[str]:
    cards = args.get(key)
    if not isinstance(cards, tuple | list) or len(cards) != count or \
            len(set(map(str, cards))) != count:
        raise IllegalAction(rule, Sentence("{count} different cards are drawn", count=count))
    for card in cards:
        if not isinstance(card, str) or card not in pool:
            raise IllegalAction(rule, Sentence("{card} cannot be drawn now", card=str(card)))
    return [str(card) for card in cards]


def decide_deal(b: Batch, action: Action) -> None:
    """2.2: the first 2 province cards turned face up."""
    refuse_unknown_args(action.args, ("cards",), "2.2", "deal")
    cards = _cards(action.args, "cards", 2, b.state.deck, "2.2")
    b.emit("ProvinceCardsDealt", cards=cards)


def decide_reveal(b: Batch, action: Action) -> None:
    """2.2: a face-up card taken is replaced from the deck."""
    refuse_unknown_args(action.args, ("card",), "2.2", "reveal")
    card = _cards({"cards": [action.args.get("card")]}, "cards", 1, b.state.deck, "2.2")[0]
    b.emit("ProvinceCardRevealed", card=card)


def claimer(state: ShogunState) -> str:
    """2.2: the player whose turn it is to claim a province (and who draws from the deck)."""
    return state.players[state.claimer]


def decide_drawn(b: Batch, action: Action) -> None:
    """2.2: the top card of the deck, drawn by the player who chose the deck."""
    refuse_unknown_args(action.args, ("card",), "2.2", "drawn")
    card = _cards({"cards": [action.args.get("card")]}, "cards", 1, b.state.deck, "2.2")[0]
    b.emit("ProvinceCardTaken", player=claimer(b.state), card=card,
           from_deck=True)


def _group(b: Batch, action: Action) -> int:
    who = action.role
    size = action.args.get("group")
    groups = b.state.groups[who]
    if not isinstance(size, int) or isinstance(size, bool) or size not in groups:
        if not isinstance(size, int) or isinstance(size, bool):
            raise IllegalAction("2.2", Sentence("choose a group of armies on your individual "
                                                "board"))
        raise IllegalAction("2.2", Sentence("no group of {armies} armies is left on your "
                                            "individual board", armies=size))
    return size


def _next_claimer(state: ShogunState) -> int:
    n = len(state.players)
    return (state.claimer + 1) % n


def decide_claim(b: Batch, action: Action) -> None:
    """2.2: one of the 2 face-up cards, and a group of armies to its province."""
    refuse_unknown_args(action.args, ("card", "group"), "2.2", "claim")
    card = action.args.get("card")
    if card not in b.state.face_up:
        raise IllegalAction("2.2", Sentence("{card} is not face up",
                                            card=province_said(b.kit, b.state, card)))
    size = _group(b, action)
    b.emit("ProvinceCardTaken", player=action.role, card=card)
    b.emit("GroupPlaced", player=action.role, province=card, armies=size,
           next=_next_claimer(b.state))


def decide_draw(b: Batch, action: Action) -> None:
    """2.2: the top card of the face-down deck instead of a face-up one."""
    refuse_unknown_args(action.args, (), "2.2", "draw")
    if not b.state.deck:
        raise IllegalAction("2.2", "the province deck is empty")
    b.emit("DeckDrawAsked", player=action.role)


def decide_place(b: Batch, action: Action) -> None:
    """2.2: the group moved to the drawn card's province."""
    refuse_unknown_args(action.args, ("group",), "2.2", "place")
    size = _group(b, action)
    assert b.state.drawn is not None
    b.emit("GroupPlaced", player=action.role, province=b.state.drawn, armies=size,
           next=_next_claimer(b.state))


def end_claims(b: Batch) -> None:
    """2.2-2.3: the remaining cards are neutral; then 7 armies of each player and 10 farmers
    are thrown into the tower."""
    b.emit("ClaimsEnded", neutral=sorted(b.state.deck | set(b.state.face_up)))
    load = b.kit.components.tower_load
    armies = {p: min(load.armies, b.state.reserve[p]) for p in b.state.players}
    farmers = min(load.farmers, b.state.farmers)
    thrown = {**armies, FARMERS: farmers}
    b.emit("CubesThrown", from_reserve=armies, farmers=farmers,
           pending={"kind": "load", "thrown": thrown})


def decide_events(b: Batch, action: Action) -> None:
    """2.4 and 5.3: 4 event cards turned face up (again for the second year)."""
    refuse_unknown_args(action.args, ("cards",), "2.4", "events")
    cards = _cards(action.args, "cards", 4, b.state.events_deck, "2.4")
    b.emit("EventCardsTurned", cards=cards)
