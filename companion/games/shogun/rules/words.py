"""Actions said in a player's words, in English or Italian (`locales/it/words.po`, in the
rulebook's terms: provincia, armate, forziere, torre, rivolta, contadini...): the tablet's
buttons, the game log, the replay, the `legal` list of a refusal.

Hidden information: a plan and a bid are said in full only to their player and the referee;
everyone else hears that a plan was made (3.3). Everything else happens in the open.

The words read an action as the rules do (a move or an attack through `actions.armies_sent`
and `actions.fights_for`, the card drawn through `setup.claimer`), and what they cannot say
raises: a wording bug must surface, never turn into a verb in plain text. Whether a screen
shows something else instead is the host's decision.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from companion.engine.core import CHANCE, REFEREE, Action
from companion.games.shogun.kit import ShogunKit
from companion.games.shogun.rules.actions import armies_sent, fights_for
from companion.games.shogun.rules.context import SPECIAL_NAMES, Batch, chest_value
from companion.games.shogun.rules.setup import claimer
from companion.games.shogun.rules.state import FARMERS, ShogunState
from companion.i18n import Translate, language, rule_summaries, translator
from companion.i18n import rule_summary as said_summary

__all__ = ["PACKAGE", "card_name", "player_name", "rule_summary", "say", "translate"]

PACKAGE = "companion.games.shogun"

ACTION_NAMES = {
    "castle": "Build a castle", "temple": "Build a temple", "theatre": "Build a Nô theatre",
    "rice": "Confiscate rice", "taxes": "Collect taxes", "deploy_5": "Deploy 5 armies",
    "deploy_3": "Deploy 3 armies", "deploy_1": "Deploy / move 1 army",
    "battle_a": "Battle / move A", "battle_b": "Battle / move B"}
COLOURS = {"red": "Red", "blue": "Blue", "yellow": "Yellow", "purple": "Purple",
           "black": "Black", FARMERS: "farmers"}


def translate(lang: str) -> Translate:
    return translator(language(lang), PACKAGE)


def player_name(t: Translate, colour: Any) -> str:
    """A player by his colour ("Red"), the farmers as such; a colour no player has is a bug to
    surface (KeyError), never said raw."""
    return t(COLOURS[colour])


def _event_titles(t: Translate) -> dict[str, str]:
    """The event cards' titles in the screen's language: English in English, the Italian
    edition's printed titles in Italian (`locales/it/words.po`, as `data/events.yaml` has
    them)."""
    return {"good_harvest": t("Good harvest"), "poor_harvest": t("Poor harvest"),
            "tax_relief": t("Tax relief"), "trade_boom": t("Trade boom"),
            "masons": t("Masons"), "monks": t("Monks"), "festival": t("Festival"),
            "recruits": t("Recruits"), "desertion": t("Desertion"), "unrest": t("Unrest"),
            "militia": t("Militia"), "storms": t("Storms")}


def card_name(kit: ShogunKit, state: ShogunState, t: Translate, card: Any) -> str:
    """A province by its name, a war-chest card by its chests, an action, special or event
    card by its title; an id that names no card is a bug to surface (KeyError), never said
    raw."""
    text = str(card)
    chests = chest_value(text)
    if chests == 1:
        return t("1 chest card")
    if chests is not None:
        return t("{chests} chests card").format(chests=chests)
    if text in ACTION_NAMES:
        return t(ACTION_NAMES[text])
    if text in SPECIAL_NAMES:
        return t(SPECIAL_NAMES[text])
    if text in kit.event:
        return _event_titles(t).get(text) or kit.event[text].name
    return kit.provinces(state.side)[text].name


def _list(kit: ShogunKit, state: ShogunState, t: Translate, cards: Any) -> str:
    if not isinstance(cards, tuple | list):
        return card_name(kit, state, t, cards)
    return ", ".join(card_name(kit, state, t, c) for c in cards)


def _cubes(t: Translate, tray: Any) -> str:
    if not isinstance(tray, Mapping) or not tray:
        return t("empty")
    return ", ".join(f"{n} {player_name(t, c)}" for c, n in sorted(tray.items()))


def say(kit: ShogunKit, state: ShogunState, action: Action, viewer: str,
        lang: str = "en") -> str:
    """`action`, taken in `state`, in words for `viewer` in `lang`. An action the words cannot
    say (a card or colour no kit has, a move the rules would refuse, a verb of no phase)
    raises: a wording bug surfaces here rather than as a verb in plain text on a screen."""
    return _say(kit, state, action, viewer, translate(lang))


def _say(kit: ShogunKit, state: ShogunState, action: Action, viewer: str,
         t: Translate) -> str:
    a = action.args
    who = player_name(t, action.role) if action.role != CHANCE else ""
    name = functools.partial(card_name, kit, state, t)
    listed = functools.partial(_list, kit, state, t)
    v = action.verb
    if v == "deal":
        return t("Province cards turned face up: {cards}").format(cards=listed(a["cards"]))
    if v == "reveal":
        return t("{card} turned face up").format(card=name(a["card"]))
    if v == "drawn":
        return t("{player} draws {card}").format(
            player=player_name(t, claimer(state)), card=name(a["card"]))
    if v == "claim":
        return t("{player} claims {province} with {armies} armies").format(
            player=who, province=name(a["card"]), armies=a["group"])
    if v == "draw":
        return t("{player} draws from the province deck").format(player=who)
    if v == "place":
        return t("{player} places {armies} armies in {province}").format(
            player=who, armies=a["group"], province=name(state.drawn))
    if v == "tray":
        return t("Tower tray: {cubes}").format(cubes=_cubes(t, a["tray"]))
    if v == "events":
        return t("Event cards turned face up: {cards}").format(cards=listed(a["cards"]))
    if v == "lay_out":
        return t("Action cards: {actions}; special cards: {specials}").format(
            actions=listed(a["actions"]), specials=listed(a["specials"]))
    if v == "plan":
        if viewer not in (action.role, REFEREE):
            return t("{player} makes a secret plan and bid").format(player=who)
        spaces = "; ".join(f"{name(s)}: {name(c)}" for s, c in sorted(a["spaces"].items()))
        bid = name(a["bid"]) if a.get("bid") else t("no bid")
        return t("{player} plans {plan}; bid: {bid}").format(player=who, plan=spaces, bid=bid)
    if v == "event":
        return t("This round's event: {card}").format(card=name(a["card"]))
    if v == "daimyo":
        order = ", ".join(player_name(t, p) for p in a["order"])
        return t("Daimyo cards turned: {order}").format(order=order)
    if v == "take":
        return t("{player} takes the special card {card}").format(player=who,
                                                                  card=name(a["card"]))
    if v == "turn_card":
        return t("Action card turned: {card}").format(card=name(a["card"]))
    if v in ("move", "attack"):
        origin, to, armies = armies_sent(Batch(kit, state), action, own_only=v == "move")
        template = "{player} moves {armies} armies from {origin} to {to}"
        if v == "attack" and fights_for(state, action.role, to):
            template = "{player} attacks {to} from {origin} with {armies} armies"
            if a.get("extra") is False:  # 3.2: the +1 attack card's army kept back
                template = "{player} attacks {to} from {origin} with {armies} armies, " \
                    "adding no army of the +1 attack card"
        return t(template).format(player=who, armies=armies, origin=name(origin),
                                  to=name(to))
    if v == "stay":
        return t("{player} moves no armies").format(player=who)
    if v == "deploy":  # 3.2: the 6 armies card's choice
        return t("{player} deploys {armies} armies in {province}").format(
            player=who, armies=a["armies"],
            province=name(state.pending["province"] if state.pending else ""))
    if v == "defend":  # 3.2: the +1 defence card's choice
        return t("{player} adds an army to the defence" if a.get("extra", True) else
                 "{player} adds no army to the defence").format(player=who)
    if v == "revolts":
        return t("Revolts for {player}: {provinces}").format(
            player=player_name(t, a["player"]), provinces=listed(a["provinces"]))
    if v == "revolt":
        return t("{player} faces the revolt in {province} first").format(
            player=who, province=name(a["province"]))
    raise ValueError(f"no words for the verb {v!r}")


def summaries() -> Mapping[str, str]:
    """Rule number -> one line in English (`data/rule_summaries.yaml`)."""
    return rule_summaries(PACKAGE)


def rule_summary(rule: str, lang: str = "en") -> str:
    """Rule `rule` in one line, in `lang`, a rule without its own taking its section's
    (`companion.i18n.rule_summary`); "" when there is none."""
    return said_summary(PACKAGE, rule, lang)
