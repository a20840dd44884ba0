"""3 Set-up and 8 the daimyo cards' choice: what chance lays out, and who chooses in what order.

    chance setup {"castles": {"kyo": 7, ...}, "tactics": [...], "daimyo": [...], "first": 0}
    chance dice {"values": [3, 4, 5]}
    yellow choose_daimyo {"card": "oda_nobunaga"}
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.engine.core import CHANCE, Action, IllegalAction, Sentence
from companion.games.rumble_nation.kit import RumbleNationKit
from companion.games.rumble_nation.rules.context import Batch
from companion.games.rumble_nation.rules.moves import known_keys
from companion.games.rumble_nation.rules.names import card_name, card_said

__all__ = ["decide_choose_daimyo", "decide_dice", "decide_setup", "dice_rolled", "sample_setup"]


def _cards(value: Any, deck: Sequence[str], want: int, rule: str, what: str) -> list[str]:
    """`want` different cards of `deck` (`what`: "tactic" or "daimyo")."""
    if isinstance(value, tuple) and len(value) == want and len(set(map(str, value))) == want \
            and all(isinstance(c, str) and c in deck for c in value):
        return list(value)
    if what == "daimyo":
        raise IllegalAction(rule, Sentence(
            "{count} different daimyo cards, face up, not {value}", count=want,
            value=repr(value)))
    raise IllegalAction(rule, Sentence("{count} different tactic cards, face up, not {value}",
                                       count=want, value=repr(value)))


def _castles(batch: Batch, value: Any) -> dict[str, int]:
    """3 ②: one large castle (2-12) on each region."""
    regions = sorted(batch.kit.neighbours)
    wanted = sorted(batch.kit.components.large_castles)
    if not isinstance(value, Mapping) or sorted(value) != regions or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value.values()) \
            or sorted(value.values()) != wanted:
        raise IllegalAction("3", "one large castle (2-12) on each of the 11 regions")
    return dict(value)


def decide_setup(batch: Batch, action: Action) -> None:
    """3 ② ③ ⑥ (and 8): castles shuffled onto the regions, the tactic display (players + 1
    cards), the daimyo cards on offer, the first player."""
    args, components = action.args, batch.kit.components
    known_keys(args, ("castles", "tactics", "daimyo", "first"), "3", Sentence("the set-up"))
    want = len(batch.state.players) + 1
    castles = _castles(batch, args.get("castles"))
    tactics = _cards(args.get("tactics"), components.tactic_cards, want, "3", "tactic")
    offer = args.get("daimyo", ())
    daimyo = _cards(offer, components.daimyo_cards, want, "8", "daimyo") if batch.daimyo \
        else []
    if offer and not batch.daimyo:
        raise IllegalAction("8", "no daimyo cards: the daimyo rules are not in play")
    first = args.get("first")
    if not isinstance(first, int) or isinstance(first, bool) \
            or first not in range(len(batch.state.players)):
        raise IllegalAction("3", Sentence(
            "the first player is one of the players (0-{last}), not {value}",
            last=len(batch.state.players) - 1, value=repr(first)))
    batch.emit("GameSetUp", castles=castles, tactics=tactics, daimyo=daimyo, first=first,
               rule="3")


def sample_setup(kit: RumbleNationKit, players: int, daimyo: bool, rng: random.Random
                 ) -> Action:
    """A shuffled set-up, drawn as the table would (3, 8)."""
    values = list(kit.components.large_castles)
    rng.shuffle(values)
    regions = sorted(kit.neighbours)
    return Action(CHANCE, "setup", {
        "castles": dict(zip(regions, values, strict=True)),
        "tactics": rng.sample(list(kit.components.tactic_cards), players + 1),
        "daimyo": rng.sample(list(kit.components.daimyo_cards), players + 1) if daimyo else [],
        "first": rng.randrange(players)})


def decide_dice(batch: Batch, action: Action) -> None:
    """5.1.1: the three dice of the player who asked to roll. Three dice of one colour have no
    order on the table (nor to a camera reading the tray), so the faces are recorded in
    ascending order, and a deployment's `pair` names them in that order."""
    known_keys(action.args, ("values",), "5.1.1", Sentence("a roll"))
    batch.emit("DiceRolled", player=batch.active(), values=dice_rolled(action.args.get("values")),
               rule="5.1.1")


def dice_rolled(values: Any) -> list[int]:
    """5.1.1: three dice showing 1-6, in ascending order as they are recorded; IllegalAction
    otherwise. The roll and its words ("Red rolls 3, 4 and 5") both read it here."""
    if not isinstance(values, tuple) or len(values) != 3 or not all(
            isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in values):
        raise IllegalAction("5.1.1", Sentence("three dice showing 1-6, not {value}",
                                              value=repr(values)))
    return sorted(values)


def decide_choose_daimyo(batch: Batch, action: Action) -> None:
    """8: each player takes one card of the offer, face down, counter-clockwise from the first
    player's right; the first player chooses last and then begins the deployment."""
    known_keys(action.args, ("card",), "8", Sentence("choosing a daimyo card"))
    card = action.args.get("card")
    offer = batch.state.daimyo_display
    if not isinstance(card, str) or card not in offer:
        raise IllegalAction("8", Sentence(
            "{card} is not among the daimyo cards on offer ({cards})", card=card_said(card),
            cards=", ".join(card_name(c) for c in offer)))
    batch.emit("DaimyoCardChosen", player=action.role, card=card, rule="8")
    state = batch.state
    if len(state.daimyo_cards) == len(state.players):
        batch.emit("TurnBegan", turn=state.first, player=state.players[state.first],
                   phase="deployment", rule="8")
        return
    chooser = (state.turn - 1) % len(state.players)  # counter-clockwise
    batch.emit("TurnBegan", turn=chooser, player=state.players[chooser], rule="8")
