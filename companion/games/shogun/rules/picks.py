"""Shogun's chance steps entered by hand (the tablet alone, no camera reading the tray): the
province, event, action and special cards drawn (2.2, 2.4, 3.1-3.4, 3.6), the daimyo cards of
tied bidders (3.5), the winter revolts' provinces (5.2), and the tower's tray (6)."""

from __future__ import annotations

from collections.abc import Iterable

from companion.engine.core import Pick, PickField
from companion.games.shogun.kit import ACTIONS, ShogunKit
from companion.games.shogun.rules.context import SPECIALS, Batch
from companion.games.shogun.rules.state import ShogunState
from companion.games.shogun.rules.tower import inflight
from companion.games.shogun.rules.winter import revolts_due
from companion.games.shogun.rules.words import card_name, player_name, translate

__all__ = ["picks"]


def picks(kit: ShogunKit, state: ShogunState, verb: str, lang: str = "en") -> list[Pick]:
    """The chance step due (`verb`, from the rules' `waiting`), as pickers."""
    t = translate(lang)

    def cards(values: Iterable[str]) -> tuple[tuple[str, str], ...]:
        return tuple((c, card_name(kit, state, t, c)) for c in sorted(values))

    if verb == "tray":
        most = inflight(state)
        keys = tuple((c, player_name(t, c)) for c in sorted(most))
        top = max(most.values(), default=0)
        counts = tuple((n, str(n)) for n in range(top + 1))
        return [Pick("tray", t("Read the tower's tray"),
                     (PickField("tray", t("Cubes in the tray"), counts, keys=keys,
                                repeat=True),))]
    if verb == "deal":
        field = PickField("cards", t("Province cards turned face up"), cards(state.deck),
                          count=2)
        return [Pick("deal", t("Turn up 2 province cards"), (field,))]
    if verb in ("reveal", "drawn"):
        field = PickField("card", t("Province card"), cards(state.deck), single=True)
        return [Pick(verb, t("Draw a province card"), (field,))]
    if verb == "events":
        field = PickField("cards", t("Event cards"), cards(state.events_deck), count=4)
        return [Pick("events", t("Turn up 4 event cards"), (field,))]
    if verb == "lay_out":
        return [Pick("lay_out", t("Lay out the action and special cards"), (
            PickField("actions", t("Action cards face up, in order"), cards(ACTIONS), count=5),
            PickField("specials", t("Special cards, in order"), cards(SPECIALS), count=5)))]
    if verb == "event":
        field = PickField("card", t("Event card"), cards(state.events_up), single=True)
        return [Pick("event", t("Draw the round's event"), (field,))]
    if verb == "turn_card":
        left = [a for a in ACTIONS if a not in state.row]
        field = PickField("card", t("Action card"), cards(left), single=True)
        return [Pick("turn_card", t("Turn the next action card"), (field,))]
    if verb == "daimyo":
        group = state.ties[0]
        field = PickField("order", t("Daimyo cards, in the order turned"),
                          tuple((p, player_name(t, p)) for p in group), count=len(group))
        return [Pick("daimyo", t("Turn the tied players' daimyo cards"), (field,))]
    player = state.winter_queue[0]
    due = revolts_due(Batch(kit, state), player)
    field = PickField("provinces", t("Province cards drawn"),
                      cards(state.provinces_of(player)), count=due)
    return [Pick("revolts", t("Draw {player}'s revolt provinces").format(
        player=player_name(t, player)), (field,), fixed={"player": player})]

